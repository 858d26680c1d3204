import { batchFlags, shardFlag } from '../../core/cli/bulk-flags.js';

/**
 * Each line is a request of its own, answered independently of the others, and holds only a line
 * and its result: more may be in flight than for the commands that send batches of up to 6 MB (64).
 */
const MAX_CLASSIFY_CONCURRENCY = 256;

export const classifyBatchFlags = {
  concurrency: batchFlags.concurrency(` with --batch, at most ${MAX_CLASSIFY_CONCURRENCY}`, MAX_CLASSIFY_CONCURRENCY),
  failed: batchFlags.failed('with --batch: append each line that failed here as {line, reason, input}', 'classify'),
  skipInvalid: batchFlags.skipInvalid('with --batch: send the valid lines; append each invalid line here as {line, error, record}'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
  shard: shardFlag('the lines', 'with --batch: '),
};
