import { z } from 'zod';
import { countOption } from '../../../core/options.js';

export const addOptionsSchema = z.object({
  batchSize: countOption(1, 10_000).default(100),
  /** Under the service's 6 MB request limit, with room to spare. */
  maxBatchBytes: countOption(1_024, 6_000_000).default(5_000_000),
  concurrency: countOption(1, 64).default(4),
  checkpoint: z.string().min(1).optional(),
  failed: z.string().min(1).optional(),
  skipInvalid: z.string().min(1).optional(),
  wait: z.boolean().default(false),
  timeout: z.string().optional(),
});

export type AddOptions = z.infer<typeof addOptionsSchema>;
