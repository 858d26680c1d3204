import * as z from 'zod';
import type { OptionsOf } from '../../../core/cli/flags.js';
import { optionsSchema } from '../../../core/cli/options.js';
import { partTimestampSchema, streamId } from '../../../schemas/streams.js';
import { streamParts } from './parts-command.js';

export const partsOptionsSchema = optionsSchema(streamParts.flags).extend({
  id: streamId,
  captions: z.string().min(1).optional(),
  start: partTimestampSchema.optional(),
});
export type PartsOptions = z.infer<typeof partsOptionsSchema>;

/** The flags of one part given on the command line (see flag-part.ts). */
export type PartFlags = Partial<Pick<OptionsOf<typeof streamParts.flags>, 'chat' | 'senderId' | 'senderName' | 'transcript' | 'speaker' | 'frame' | 'audio' | 'timestamp'>>;
