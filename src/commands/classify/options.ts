import { z } from 'zod';
import { countOption } from '../../core/options.js';
import { CURRENT_VERSION, SERVICE_VERSIONS } from '../../schemas/content.js';

export const classifyOptionsSchema = z.object({
  text: z.array(z.string()).default([]),
  userId: z.string().min(1, { error: 'expected a non-empty user id' }).optional(),
  contentId: z.string().optional(),
  metadata: z.array(z.string()).default([]),
  apiVersion: z.enum(SERVICE_VERSIONS, { error: `expected ${SERVICE_VERSIONS.join(' or ')}` }).default(CURRENT_VERSION),
  failOn: z.enum(['match', 'review'], { error: 'expected match or review' }).optional(),
  batch: z.string().optional(),
  concurrency: countOption(1, 64).default(4),
  failed: z.string().optional(),
});

export type ClassifyOptions = z.infer<typeof classifyOptionsSchema>;
