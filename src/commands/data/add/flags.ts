import { batchFlags, shardFlag } from '../../../core/cli/bulk-flags.js';

export const addBatchFlags = {
  batchSize: batchFlags.batchSize('objects'),
  /** Under the service's 6 MB request limit, with room to spare. */
  maxBatchBytes: batchFlags.maxBatchBytes(5_000_000),
  concurrency: batchFlags.concurrency(),
  shard: shardFlag('the objects'),
  failed: batchFlags.failed('append the objects of batches that could not be sent, as sent', 'data-add'),
  checkpoint: batchFlags.checkpoint('objects'),
  skipInvalid: batchFlags.skipInvalid('send the valid objects; append each invalid record here as {line, error, record}'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
};
