import { z } from 'zod';
import { batchFlags } from '../../../core/options.js';
import { shardFlag } from '../../../core/shard.js';

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

export const sendOptionsSchema = z.object({
  dryRun: z.boolean().default(false),
  sync: z.boolean().default(false),
  checkpoint: sendBatchFlags.checkpoint.schema,
  failed: sendBatchFlags.failed.schema,
  skipInvalid: sendBatchFlags.skipInvalid.schema,
  allowUnknownTypes: z.boolean().default(false),
  autoIdempotency: z.boolean().default(true),
  batchSize: sendBatchFlags.batchSize.schema,
  maxBatchBytes: sendBatchFlags.maxBatchBytes.schema,
  concurrency: sendBatchFlags.concurrency.schema,
  maxConsecutiveFailures: sendBatchFlags.maxConsecutiveFailures.schema,
  shard: sendBatchFlags.shard.schema,
});

export type SendOptions = z.infer<typeof sendOptionsSchema>;
