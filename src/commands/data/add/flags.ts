import { batchFlags, shardFlag } from '../../../core/flags.js';

export const addBatchFlags = {
  batchSize: batchFlags.batchSize('objects'),
  /** Under the service's 6 MB request limit, with room to spare. */
  maxBatchBytes: batchFlags.maxBatchBytes(5_000_000),
  concurrency: batchFlags.concurrency(),
  shard: shardFlag('the objects'),
  failed: batchFlags.failed('append objects of batches that could not be sent', 'data-add'),
  skipInvalid: batchFlags.skipInvalid('send the valid objects; append each invalid record here as {line, error, record}'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
};
