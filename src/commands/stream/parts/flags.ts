import { batchFlags } from '../../../core/cli/bulk-flags.js';

const ORDERED = "stream parts has none: one stream's parts are sent in order, one request at a time; to spread the work, run one command per stream (--id)";

export const partsBatchFlags = {
  batchSize: batchFlags.batchSize('parts'),
  maxBatchBytes: batchFlags.maxBatchBytes(1_000_000),
  failed: batchFlags.failed('append the parts of batches that could not be sent, as sent', 'stream-parts'),
  unconfirmed: batchFlags.unconfirmed('append the parts of batches whose answer was lost (the service may hold them): not safe to resend', 'stream-parts'),
  skipInvalid: batchFlags.skipInvalid('send the valid parts; append each invalid record here as {line, error, record}'),
  maxBuffer: batchFlags.maxBuffer('parts'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
  shard: batchFlags.absent('--shard <i/n>', ORDERED),
  concurrency: batchFlags.absent('--concurrency <n>', ORDERED),
};
