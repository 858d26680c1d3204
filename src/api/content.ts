import type { z } from 'zod';
import { BadRequestError } from '../core/errors.js';
import type { HttpClient } from '../core/http/client.js';
import { decodedImageProblem } from '../core/input/images.js';
import {
  base64Payload,
  CONTENT_LIMITS,
  contentLimitProblems,
  contentRequestSchema,
  contentResponseSchema,
  LEGACY_VERSION,
  legacyContentLimitProblems,
  legacyContentRequestSchema,
  legacyContentResponseSchema,
  type ContentRequest,
  type LegacyContentRequest,
  type ServiceVersion,
} from '../schemas/content.js';
import { problemsFromZod, type FieldProblem } from '../schemas/issues.js';
import { checkedAnswerOf } from './responses.js';

/** How a classification request is checked before it is sent, sent in the service version asked for, and its answer read. */

type WireRequest = { version: typeof LEGACY_VERSION; body: LegacyContentRequest } | { version: Exclude<ServiceVersion, typeof LEGACY_VERSION>; body: ContentRequest };

/** The previous version takes `text` and `images` instead of content parts; build it for the user. */
export function toLegacyRequest(request: ContentRequest): LegacyContentRequest {
  const texts = request.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  const images = request.content.flatMap((part) => (part.type === 'image' ? [part.source.data] : []));
  return {
    user_id: request.user_id,
    ...(request.content_id !== undefined && { content_id: request.content_id }),
    ...(texts.length > 0 && { text: texts.join('\n\n') }),
    ...(images.length > 0 && { images }),
    ...(request.metadata !== undefined && { metadata: request.metadata }),
  };
}

function wireRequest(request: ContentRequest, version: ServiceVersion): WireRequest {
  return version === LEGACY_VERSION ? { version, body: toLegacyRequest(request) } : { version, body: request };
}

/**
 * Every reason the service would refuse this request, found before anything is sent: the schema,
 * the spec's limits, the 6 MB request size, and image data that is no whole PNG, JPEG, GIF or
 * WebP. Paths are those of the current-version request, so callers can name the file a part came
 * from; legacy-only limits are mapped back onto it.
 */
export function requestProblems(request: ContentRequest, version: ServiceVersion): FieldProblem[] {
  const parsed = contentRequestSchema.safeParse(request);
  if (!parsed.success) return problemsFromZod(parsed.error, { schema: contentRequestSchema, value: request });
  const problems = contentLimitProblems(parsed.data);
  const wire = wireRequest(parsed.data, version);
  if (wire.version === LEGACY_VERSION) {
    const legacy = legacyContentRequestSchema.safeParse(wire.body);
    if (!legacy.success) problems.push(...problemsFromZod(legacy.error, { schema: legacyContentRequestSchema, value: wire.body }));
    else problems.push(...legacyContentLimitProblems(legacy.data).filter((p) => p.path[0] === 'text').map(onTextParts(parsed.data)));
  }
  const size = Buffer.byteLength(JSON.stringify(wire.body));
  if (problems.length === 0 && size > CONTENT_LIMITS.requestBytes) {
    problems.push({ path: [], message: `request is ${size} bytes, over the limit of ${CONTENT_LIMITS.requestBytes}` });
  }
  // Last: decoding every image costs more than the other checks, and a request they refuse is refused already.
  if (problems.length === 0) problems.push(...imageBytesProblems(parsed.data));
  return problems;
}

/** Base64 that decodes to no whole image of an accepted format: refused by the service (400), so found here first. */
function imageBytesProblems(request: ContentRequest): FieldProblem[] {
  return request.content.flatMap((part, index) => {
    if (part.type !== 'image') return [];
    const problem = decodedImageProblem(Buffer.from(base64Payload(part.source.data), 'base64'));
    return problem === undefined ? [] : [{ path: ['content', index, 'source', 'data'], message: problem }];
  });
}

/** A legacy `text` problem concerns every text part, since their texts were joined into one. */
const onTextParts = (request: ContentRequest) => (problem: FieldProblem): FieldProblem => {
  const first = request.content.findIndex((part) => part.type === 'text');
  return { path: ['content', first, 'text'], message: problem.message };
};

type ContentResponse = z.infer<typeof contentResponseSchema>;
export type LegacyContentResponse = z.infer<typeof legacyContentResponseSchema>;
export type ClassifyResponse = ContentResponse | LegacyContentResponse;

/**
 * POST /v1/content, its answer checked against the schema of the version sent: a body without
 * the `labels` (or, previous version, `policies`) array is an error, never zero labels.
 */
export async function classifyContent(http: HttpClient, request: ContentRequest, version: ServiceVersion, finishOnInterrupt = false): Promise<ClassifyResponse> {
  const wire = wireRequest(request, version);
  const schema = wire.version === LEGACY_VERSION ? legacyContentResponseSchema : contentResponseSchema;
  return checkedAnswerOf(http, { method: 'POST', path: CONTENT_PATH, json: wire.body, headers: { 'service-version': wire.version }, finishOnInterrupt }, schema);
}

const CONTENT_PATH = '/v1/content';

/**
 * Throws unless the service accepts the client's key, at no cost: POST /v1/content, the request the
 * spec says answers 401 to a missing or invalid key, with an empty body. An accepted key gets the
 * 400 of a body without content, so nothing is classified.
 */
export async function checkKey(http: HttpClient): Promise<void> {
  try {
    await http.json('POST', CONTENT_PATH, {});
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
  }
}
