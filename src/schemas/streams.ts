import * as z from 'zod';
import { expecting, problemsFromZod, type FieldProblem } from './issues.js';

/**
 * What the livestream endpoints take: POST /v1/streams/{ns} (monitor an address) and POST
 * /v1/streams/{ns}/parts (append parts). Strict, as everything csafe sends; the emulator refuses
 * with the same schemas.
 */

export const STREAM_PART_TYPES = ['audio_url', 'frame_image_url', 'chat_message', 'transcript'] as const;
type StreamPartType = (typeof STREAM_PART_TYPES)[number];

/** Schemes of a livestream address: HLS/DASH over HTTP(S), RTMP(S), RTSP and SRT ingest. */
const STREAM_URL_SCHEMES = ['http', 'https', 'rtmp', 'rtmps', 'rtsp', 'srt'] as const;
/** Audio and frame links are fetched as files (the spec says only "string"; csafe and the emulator ask for more). */
const PART_URL_SCHEMES = ['http', 'https'] as const;

/** Every required string of a part or request is non-empty: one rule, one message shape. */
const nonEmpty = (expected: string) => z.string({ error: expecting(expected) }).min(1, { error: expected });

/** Written as `scheme://host…`: the WHATWG parser alone would also take `rtmp:x`, `https:host` and spaces it trims or drops. */
const ABSOLUTE_WITH_HOST = /^[a-z][a-z\d+.-]*:\/\/[^\s/?#]/i;
// Any space or control character, wherever it is: a URL is written without them.
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/;

/** The scheme of an absolute URL with a host, or undefined. */
function schemeOf(value: string): string | undefined {
  if (!ABSOLUTE_WITH_HOST.test(value) || SPACE_OR_CONTROL.test(value) || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.host === '' ? undefined : url.protocol.slice(0, -1);
}

const absoluteUrl = (schemes: readonly string[]) => {
  const expected = `expected an absolute ${schemes.slice(0, -1).join(', ')} or ${schemes.at(-1)} URL`;
  // No .min(1): an empty string fails the refinement too, and would be reported twice.
  return z.string({ error: expecting(expected) }).refine((value) => schemes.includes(schemeOf(value) ?? ''), { error: expected });
};

const timestamp = z.iso.datetime({
  offset: true,
  error: expecting('expected an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z'),
});

/** A part's timestamp; also what `stream parts --start` takes. */
export const partTimestampSchema = timestamp;

const mediaPart = <T extends 'audio_url' | 'frame_image_url'>(type: T) =>
  z.strictObject({ type: z.literal(type), timestamp, url: absoluteUrl(PART_URL_SCHEMES) });

const streamPartSchema = z.discriminatedUnion('type', [
  mediaPart('audio_url'),
  mediaPart('frame_image_url'),
  z.strictObject({
    type: z.literal('chat_message'),
    sender_display_name: nonEmpty('expected a non-empty string (the name shown in the chat)'),
    sender_id: nonEmpty('expected a non-empty string (your stable identifier of the sender)'),
    text: nonEmpty('expected a non-empty string (the message)'),
    timestamp,
  }),
  z.strictObject({
    type: z.literal('transcript'),
    text: nonEmpty('expected a non-empty string (what was said)'),
    timestamp,
    speaker: nonEmpty('expected a non-empty string (who spoke), or no speaker field').optional(),
  }),
]);
export type StreamPart = z.infer<typeof streamPartSchema>;

const isPartType = (type: unknown): type is StreamPartType => (STREAM_PART_TYPES as readonly unknown[]).includes(type);

/** Every reason the service would refuse this part; the type is checked first so an unknown one names the four. */
export function streamPartProblems(value: unknown): FieldProblem[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [{ path: [], message: 'expected a JSON object (one stream part)' }];
  }
  const type = (value as { type?: unknown }).type;
  if (type === undefined) return [{ path: ['type'], message: `is required: one of ${STREAM_PART_TYPES.join(', ')}` }];
  if (!isPartType(type)) {
    return [{ path: ['type'], message: `unknown part type ${JSON.stringify(type)}: expected one of ${STREAM_PART_TYPES.join(', ')}` }];
  }
  const parsed = streamPartSchema.safeParse(value);
  return parsed.success ? [] : problemsFromZod(parsed.error, { schema: streamPartSchema, value });
}

/** A stream's id, in a request body and as `--id`. */
export const streamId = nonEmpty('expected a non-empty string (your identifier of the stream)');

export const watchStreamRequestSchema = z.strictObject(
  { id: streamId, stream_url: absoluteUrl(STREAM_URL_SCHEMES) },
  { error: 'expected a JSON object with id and stream_url' },
);
export type WatchStreamRequest = z.infer<typeof watchStreamRequestSchema>;

const streamPartsEnvelopeSchema = z.strictObject(
  {
    id: streamId,
    data: z.array(z.unknown(), { error: expecting('expected an array of stream parts') }).min(1, { error: 'expected at least one part' }),
  },
  { error: 'expected a JSON object with id and data' },
);

/** Every reason the service would refuse a parts request; each part is checked on its own, named by its index. */
export function streamPartsRequestProblems(body: unknown): FieldProblem[] {
  const envelope = streamPartsEnvelopeSchema.safeParse(body);
  if (!envelope.success) return problemsFromZod(envelope.error, { schema: streamPartsEnvelopeSchema, value: body });
  return envelope.data.data.flatMap((part, index) =>
    streamPartProblems(part).map((problem) => ({ path: ['data', index, ...problem.path], message: problem.message })),
  );
}
