import { batchFlags, shardFlag } from '../../core/flags.js';

export const classifyBatchFlags = {
  concurrency: batchFlags.concurrency(' with --batch'),
  failed: batchFlags.failed('with --batch: append each line that failed here as {line, reason, input}', 'classify'),
  skipInvalid: batchFlags.skipInvalid('with --batch: send the valid lines; append each invalid line here as {line, error, record}'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
  shard: shardFlag('the lines', 'with --batch: '),
};
