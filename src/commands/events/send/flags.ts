import { batchFlags, shardFlag } from '../../../core/cli/bulk-flags.js';

export const sendBatchFlags = {
  failed: batchFlags.failed('append the events of batches that could not be sent, as sent', 'events'),
  checkpoint: batchFlags.checkpoint('events'),
  skipInvalid: batchFlags.skipInvalid('send the valid events; append each invalid record here as {line, error, record}'),
  batchSize: batchFlags.batchSize('events'),
  maxBatchBytes: batchFlags.maxBatchBytes(1_000_000),
  concurrency: batchFlags.concurrency('; events of one user always share one'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
  shard: shardFlag('the users'),
};
