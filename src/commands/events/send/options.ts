import { z } from 'zod';
import { countOption as count } from '../../../core/options.js';
import type { Shard } from './placement.js';

const shardSchema = z
  .string()
  .regex(/^\d+\/\d+$/, { error: 'expected i/n, e.g. 3/16 (worker i of n, counted from 0)' })
  .transform((text, ctx): Shard => {
    const [index, total] = text.split('/').map(Number) as [number, number];
    if (total < 1 || index >= total) ctx.addIssue({ code: 'custom', message: `expected 0 <= i < n, got ${text}` });
    return { index, count: total };
  });

export const sendOptionsSchema = z.object({
  dryRun: z.boolean().default(false),
  sync: z.boolean().default(false),
  checkpoint: z.string().min(1).optional(),
  failed: z.string().min(1).optional(),
  skipInvalid: z.string().min(1).optional(),
  allowUnknownTypes: z.boolean().default(false),
  autoIdempotency: z.boolean().default(true),
  batchSize: count(1, 10_000).default(100),
  maxBatchBytes: count(1_024, 6_000_000).default(1_000_000),
  concurrency: count(1, 64).default(4),
  shard: shardSchema.optional(),
});

export type SendOptions = z.infer<typeof sendOptionsSchema>;

export const formatShard = (shard: Shard | undefined) => (shard === undefined ? null : `${shard.index}/${shard.count}`);
