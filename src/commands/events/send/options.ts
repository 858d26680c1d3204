import * as z from 'zod';
import { sendBatchFlags } from './flags.js';
import { countSchema, fileSchema } from '../../../core/cli/whole-number.js';
import { shardFlagSchema } from '../../../core/bulk/shard.js';

export const sendOptionsSchema = z.object({
  dryRun: z.boolean().default(false),
  sync: z.boolean().default(false),
  checkpoint: fileSchema,
  failed: fileSchema,
  skipInvalid: fileSchema,
  allowUnknownTypes: z.boolean().default(false),
  autoIdempotency: z.boolean().default(true),
  batchSize: countSchema(sendBatchFlags.batchSize),
  maxBatchBytes: countSchema(sendBatchFlags.maxBatchBytes),
  concurrency: countSchema(sendBatchFlags.concurrency),
  maxConsecutiveFailures: countSchema(sendBatchFlags.maxConsecutiveFailures),
  shard: shardFlagSchema,
});

export type SendOptions = z.infer<typeof sendOptionsSchema>;
