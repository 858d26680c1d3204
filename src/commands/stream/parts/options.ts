import { z } from 'zod';
import { batchFlags } from '../../../core/options.js';
import { partTimestampSchema, streamId } from '../../../schemas/streams.js';

const ORDERED = "stream parts has none: one stream's parts are sent in order, one request at a time; to spread the work, run one command per stream (--id)";

export const partsBatchFlags = {
  batchSize: batchFlags.batchSize('parts'),
  maxBatchBytes: batchFlags.maxBatchBytes(1_000_000),
  failed: batchFlags.failed('append the parts of batches that could not be sent, as sent', 'stream-parts'),
  unconfirmed: batchFlags.unconfirmed('append the parts of batches whose answer was lost (the service may hold them): not safe to resend', 'stream-parts'),
  skipInvalid: batchFlags.skipInvalid('send the valid parts; append each invalid record here as {line, error, record}'),
  maxBuffer: batchFlags.maxBuffer('parts'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
  shard: batchFlags.absent('--shard <i/n>', ORDERED),
  concurrency: batchFlags.absent('--concurrency <n>', ORDERED),
};

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
  batchSize: partsBatchFlags.batchSize.schema,
  maxBatchBytes: partsBatchFlags.maxBatchBytes.schema,
  failed: partsBatchFlags.failed.schema,
  unconfirmed: partsBatchFlags.unconfirmed.schema,
  skipInvalid: partsBatchFlags.skipInvalid.schema,
  follow: z.boolean().default(false),
  /** A duration, parsed where it is used (core/duration), so its error names the flag. */
  flushInterval: z.string().default('1s'),
  maxBuffer: partsBatchFlags.maxBuffer.schema,
  maxConsecutiveFailures: partsBatchFlags.maxConsecutiveFailures.schema,
  shard: partsBatchFlags.shard.schema,
  concurrency: partsBatchFlags.concurrency.schema,
});
export type PartsOptions = z.infer<typeof partsOptionsSchema>;
