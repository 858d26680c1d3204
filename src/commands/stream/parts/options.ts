import * as z from 'zod';
import type { OptionsOf } from '../../../core/cli/flags.js';
import { optionsSchema } from '../../../core/cli/options.js';
import { partTimestampSchema, streamId } from '../../../schemas/streams.js';
import type { streamParts } from './parts-command.js';

// `csafe stream parts`: how its flags are checked and turned into options.

export type PartsFlags = typeof streamParts.flags;

/** The checks of the flags, with those of a stream id and a date-time. */
export const partsOptionsSchema = (flags: PartsFlags) =>
  optionsSchema(flags).extend({
    id: streamId,
    captions: z.string().min(1).optional(),
    start: partTimestampSchema.optional(),
  });
export type PartsOptions = z.infer<ReturnType<typeof partsOptionsSchema>>;

/** The flags of one part given on the command line (see flag-part.ts). */
export type PartFlags = Partial<Pick<OptionsOf<PartsFlags>, 'chat' | 'senderId' | 'senderName' | 'transcript' | 'speaker' | 'frame' | 'audio' | 'timestamp'>>;
