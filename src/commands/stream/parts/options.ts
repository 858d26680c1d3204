import * as z from 'zod';
import { partsBatchFlags } from './flags.js';
import { absentSchema, countSchema, fileSchema } from '../../../core/cli/whole-number.js';
import { partTimestampSchema, streamId } from '../../../schemas/streams.js';

const text = z.string().optional();

/** The flags of one part given on the command line (see flag-part.ts). */
const partFlagsSchema = z.object({
  chat: text,
  senderId: text,
  senderName: text,
  transcript: text,
  speaker: text,
  frame: text,
  audio: text,
  timestamp: text,
});
export type PartFlags = z.infer<typeof partFlagsSchema>;

export const partsOptionsSchema = partFlagsSchema.extend({
  id: streamId,
  captions: z.string().min(1).optional(),
  start: partTimestampSchema.optional(),
  batchSize: countSchema(partsBatchFlags.batchSize),
  maxBatchBytes: countSchema(partsBatchFlags.maxBatchBytes),
  failed: fileSchema,
  unconfirmed: fileSchema,
  skipInvalid: fileSchema,
  follow: z.boolean().default(false),
  /** A duration, parsed where it is used (core/cli/duration), so its error names the flag. */
  flushInterval: z.string().default('1s'),
  maxBuffer: countSchema(partsBatchFlags.maxBuffer),
  maxConsecutiveFailures: countSchema(partsBatchFlags.maxConsecutiveFailures),
  shard: absentSchema(partsBatchFlags.shard),
  concurrency: absentSchema(partsBatchFlags.concurrency),
});
export type PartsOptions = z.infer<typeof partsOptionsSchema>;
