import { batchFlags, shardFlag } from '../../../core/flags.js';

export const sendBatchFlags = {
  failed: batchFlags.failed('append events that could not be sent, as sent', 'events'),
  skipInvalid: batchFlags.skipInvalid('send the valid events and append invalid records here'),
  batchSize: batchFlags.batchSize('events'),
  maxBatchBytes: batchFlags.maxBatchBytes(1_000_000),
  concurrency: batchFlags.concurrency('; events of one user always share one'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
  shard: shardFlag('the users'),
};
