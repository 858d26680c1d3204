import * as z from 'zod';
import { classifyBatchFlags } from './flags.js';
import { countSchema, fileSchema, integerFlag } from '../../core/cli/whole-number.js';
import { shardFlagSchema } from '../../core/bulk/shard.js';
import { CURRENT_VERSION, SERVICE_VERSIONS } from '../../schemas/content.js';

export const classifyOptionsSchema = z.object({
  text: z.array(z.string()).default([]),
  userId: z.string().min(1, { error: 'expected a non-empty user id' }).optional(),
  contentId: z.string().optional(),
  metadata: z.array(z.string()).default([]),
  apiVersion: z.enum(SERVICE_VERSIONS, { error: `expected ${SERVICE_VERSIONS.join(' or ')}` }).default(CURRENT_VERSION),
  failOn: z.enum(['match', 'review'], { error: 'expected match or review' }).optional(),
  batch: z.string().optional(),
  concurrency: countSchema(classifyBatchFlags.concurrency),
  failed: fileSchema,
  skipInvalid: fileSchema,
  maxConsecutiveFailures: countSchema(classifyBatchFlags.maxConsecutiveFailures),
  /** --batch: the first line to classify; an interrupted run prints it. */
  fromLine: integerFlag(1).default(1),
  shard: shardFlagSchema,
});

export type ClassifyOptions = z.infer<typeof classifyOptionsSchema>;
