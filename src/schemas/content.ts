import * as z from 'zod';
import { missingOr, type FieldProblem } from './issues.js';
import { jsonObjectSchema } from './json-object.js';

import { LEGACY_VERSION, REQUEST_BYTES } from './names.js';

export { CURRENT_VERSION, LEGACY_VERSION, SERVICE_VERSIONS, type ServiceVersion } from './names.js';

/** What POST /v1/content takes and answers, in both service versions, and the spec's limits a schema cannot express. */

/**
 * The spec's limits for POST /v1/content. "MB" and "KB" are read as decimal (10^6, 10^3):
 * the stricter reading, so nothing the client sends can be over the service's limit.
 */
export const CONTENT_LIMITS = {
  requestBytes: REQUEST_BYTES,
  images: 20,
  imageBase64Bytes: 5_000_000,
  metadataBytes: 8_000,
  legacyTextChars: 16_000,
} as const;

export const DECISIONS = ['match', 'not_match', 'review'] as const;

/** How decisive a label's decision is, to show the decisive first: match, then review, then any other (not_match, or one the spec does not list). */
const decisionRank = (decision: unknown) => (decision === 'match' ? 0 : decision === 'review' ? 1 : 2);

/** Items in order of their decisions' severity, each decision's items in the order given. */
export const bySeverity = <T>(items: readonly T[], decisionOf: (item: T) => unknown): T[] =>
  [...items].sort((a, b) => decisionRank(decisionOf(a)) - decisionRank(decisionOf(b)));
export const ESCALATIONS = ['none', 'completed', 'error'] as const;

const DATA_URI = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.-]+)*;base64,/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The base64 payload of an image: raw, or after the header of a data URI. */
export function base64Payload(data: string): string {
  const header = DATA_URI.exec(data);
  return header ? data.slice(header[0].length) : data;
}

function isBase64Image(data: string): boolean {
  const payload = base64Payload(data);
  return payload.length > 0 && payload.length % 4 === 0 && BASE64.test(payload);
}

const base64Image = z
  .string()
  .refine(isBase64Image, { error: 'expected base64-encoded image bytes, raw or as a data URI' });

const metadataSchema = jsonObjectSchema('expected an object of key-value pairs');

const textPartSchema = z.strictObject({
  type: z.literal('text'),
  text: z.string({ error: missingOr() }),
  key: z.string().optional(),
});

const imagePartSchema = z.strictObject({
  type: z.literal('image'),
  source: z.strictObject({ type: z.literal('base64'), data: base64Image }),
  key: z.string().optional(),
});

const contentPartSchema = z.discriminatedUnion('type', [textPartSchema, imagePartSchema], {
  error: 'expected a content part with type "text" or "image"',
});

export const contentRequestSchema = z.strictObject({
  content: z.array(contentPartSchema, { error: missingOr() }).min(1, { error: 'expected at least one content part' }),
  user_id: z.string({ error: missingOr() }).min(1, { error: 'expected a non-empty user id' }),
  content_id: z.string().optional(),
  metadata: metadataSchema.optional(),
});

export const legacyContentRequestSchema = z
  .strictObject({
    user_id: z.string({ error: missingOr() }).min(1, { error: 'expected a non-empty user id' }),
    content_id: z.string().optional(),
    text: z.string().optional(),
    images: z.array(base64Image).optional(),
    metadata: metadataSchema.optional(),
  })
  .refine((body) => body.text !== undefined || (body.images?.length ?? 0) > 0, {
    error: 'expected at least one of text or images',
    path: ['text'],
  });

export type ContentPart = z.infer<typeof contentPartSchema>;
export type ContentRequest = z.infer<typeof contentRequestSchema>;
export type LegacyContentRequest = z.infer<typeof legacyContentRequestSchema>;

const byteLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
const characterCount = (text: string) => [...text].length;

/** Limits a schema cannot express; the same checks run in the client (before sending) and the emulator. */
export function contentLimitProblems(body: ContentRequest): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const images = body.content.flatMap((part, index) => (part.type === 'image' ? [{ part, index }] : []));
  if (images.length > CONTENT_LIMITS.images) {
    problems.push({ path: ['content'], message: `at most ${CONTENT_LIMITS.images} images per request, got ${images.length}` });
  }
  for (const { part, index } of images) {
    const size = base64Payload(part.source.data).length;
    if (size > CONTENT_LIMITS.imageBase64Bytes) {
      problems.push({
        path: ['content', index, 'source', 'data'],
        message: `image is ${size} bytes of base64, over the limit of ${CONTENT_LIMITS.imageBase64Bytes}`,
      });
    }
  }
  problems.push(...metadataProblems(body.metadata));
  return problems;
}

export function legacyContentLimitProblems(body: LegacyContentRequest): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (body.text !== undefined && characterCount(body.text) > CONTENT_LIMITS.legacyTextChars) {
    problems.push({
      path: ['text'],
      message: `text is ${characterCount(body.text)} characters, over the limit of ${CONTENT_LIMITS.legacyTextChars} for version ${LEGACY_VERSION}`,
    });
  }
  const images = body.images ?? [];
  if (images.length > CONTENT_LIMITS.images) {
    problems.push({ path: ['images'], message: `at most ${CONTENT_LIMITS.images} images per request, got ${images.length}` });
  }
  images.forEach((data, index) => {
    const size = base64Payload(data).length;
    if (size > CONTENT_LIMITS.imageBase64Bytes) {
      problems.push({
        path: ['images', index],
        message: `image is ${size} bytes of base64, over the limit of ${CONTENT_LIMITS.imageBase64Bytes}`,
      });
    }
  });
  problems.push(...metadataProblems(body.metadata));
  return problems;
}

function metadataProblems(metadata: Record<string, unknown> | undefined): FieldProblem[] {
  if (metadata === undefined) return [];
  const size = byteLength(metadata);
  return size > CONTENT_LIMITS.metadataBytes
    ? [{ path: ['metadata'], message: `is ${size} bytes serialized, over the limit of ${CONTENT_LIMITS.metadataBytes}` }]
    : [];
}

// Responses: tolerant. Unknown fields are kept (looseObject) and enum-like values are plain strings,
// so a label, decision or escalation the spec does not list is shown rather than rejected.

const labelResultSchema = z.looseObject({
  type: z.string(),
  label: z.string(),
  decision: z.string(),
  escalation: z.string().optional(),
  score: z.number().nullable().optional(),
  set_id: z.string().optional(),
});

export const contentResponseSchema = z.looseObject({
  content_id: z.string().optional(),
  labels: z.array(labelResultSchema),
  user_id: z.string().optional(),
  version: z.string().optional(),
});

const policyResultSchema = z.looseObject({
  policy_id: z.string(),
  version: z.string().optional(),
  score: z.number().nullable().optional(),
  decision: z.string(),
  escalation: z.string().optional(),
});

const referenceSetMatchSchema = z.looseObject({
  set_id: z.string(),
  similarity: z.number(),
});

export const legacyContentResponseSchema = z.looseObject({
  content_id: z.string().optional(),
  user_id: z.string().optional(),
  policies: z.array(policyResultSchema),
  reference_set_matches: z.array(referenceSetMatchSchema).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** The fields the spec lists for a label, a policy and a reference-set match: any other a response carries is one it does not list. */
export const LISTED_RESULT_FIELDS = {
  label: Object.keys(labelResultSchema.shape),
  policy: Object.keys(policyResultSchema.shape),
  match: Object.keys(referenceSetMatchSchema.shape),
} as const;

export type LabelResult = z.infer<typeof labelResultSchema>;
