import { z } from 'zod';
import { batchFlags, integerFlag } from '../../core/options.js';
import { shardFlag } from '../../core/shard.js';
import { CURRENT_VERSION, SERVICE_VERSIONS } from '../../schemas/content.js';

export const classifyBatchFlags = {
  concurrency: batchFlags.concurrency(' with --batch'),
  failed: batchFlags.failed('with --batch: append each line that failed here as {line, reason, input}', 'classify'),
  skipInvalid: batchFlags.skipInvalid('with --batch: send the valid lines; append each invalid line here as {line, error, record}'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
  shard: shardFlag('the lines', 'with --batch: '),
};

export const classifyOptionsSchema = z.object({
  text: z.array(z.string()).default([]),
  userId: z.string().min(1, { error: 'expected a non-empty user id' }).optional(),
  contentId: z.string().optional(),
  metadata: z.array(z.string()).default([]),
  apiVersion: z.enum(SERVICE_VERSIONS, { error: `expected ${SERVICE_VERSIONS.join(' or ')}` }).default(CURRENT_VERSION),
  failOn: z.enum(['match', 'review'], { error: 'expected match or review' }).optional(),
  batch: z.string().optional(),
  concurrency: classifyBatchFlags.concurrency.schema,
  failed: classifyBatchFlags.failed.schema,
  skipInvalid: classifyBatchFlags.skipInvalid.schema,
  maxConsecutiveFailures: classifyBatchFlags.maxConsecutiveFailures.schema,
  /** --batch: the first line to classify; an interrupted run prints it. */
  fromLine: integerFlag(1).default(1),
  shard: classifyBatchFlags.shard.schema,
});

export type ClassifyOptions = z.infer<typeof classifyOptionsSchema>;
