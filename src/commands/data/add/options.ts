import * as z from 'zod';
import { addBatchFlags } from './flags.js';
import { countSchema, fileSchema } from '../../../core/cli/whole-number.js';
import { shardFlagSchema } from '../../../core/bulk/shard.js';

export const addOptionsSchema = z.object({
  batchSize: countSchema(addBatchFlags.batchSize),
  maxBatchBytes: countSchema(addBatchFlags.maxBatchBytes),
  concurrency: countSchema(addBatchFlags.concurrency),
  shard: shardFlagSchema,
  checkpoint: fileSchema,
  failed: fileSchema,
  skipInvalid: fileSchema,
  maxConsecutiveFailures: countSchema(addBatchFlags.maxConsecutiveFailures),
  wait: z.boolean().default(false),
  timeout: z.string().optional(),
});

export type AddOptions = z.infer<typeof addOptionsSchema>;
