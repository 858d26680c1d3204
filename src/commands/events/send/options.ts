import { z } from 'zod';
import { batchFlags } from '../../../core/options.js';
import type { Shard } from './placement.js';

const shardSchema = z
  .string()
  .regex(/^\d+\/\d+$/, { error: 'expected i/n, e.g. 3/16 (worker i of n, counted from 0)' })
  .transform((text, ctx): Shard => {
    const [index, total] = text.split('/').map(Number) as [number, number];
    if (total < 1 || index >= total) ctx.addIssue({ code: 'custom', message: `expected 0 <= i < n, got ${text}` });
    return { index, count: total };
  });

export const sendBatchFlags = {
  failed: batchFlags.failed('append events that could not be sent, as sent', 'events'),
  skipInvalid: batchFlags.skipInvalid('send the valid events and append invalid records here'),
  batchSize: batchFlags.batchSize('events'),
  maxBatchBytes: batchFlags.maxBatchBytes(1_000_000),
  concurrency: batchFlags.concurrency('; events of one user always share one'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
};

export const sendOptionsSchema = z.object({
  dryRun: z.boolean().default(false),
  sync: z.boolean().default(false),
  checkpoint: z.string().min(1).optional(),
  failed: sendBatchFlags.failed.schema,
  skipInvalid: sendBatchFlags.skipInvalid.schema,
  allowUnknownTypes: z.boolean().default(false),
  autoIdempotency: z.boolean().default(true),
  batchSize: sendBatchFlags.batchSize.schema,
  maxBatchBytes: sendBatchFlags.maxBatchBytes.schema,
  concurrency: sendBatchFlags.concurrency.schema,
  maxConsecutiveFailures: sendBatchFlags.maxConsecutiveFailures.schema,
  shard: shardSchema.optional(),
});

export type SendOptions = z.infer<typeof sendOptionsSchema>;

export const formatShard = (shard: Shard | undefined) => (shard === undefined ? null : `${shard.index}/${shard.count}`);
