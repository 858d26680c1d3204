import { createHash } from 'node:crypto';
import {
  CONTENT_LIMITS,
  CURRENT_VERSION,
  SERVICE_VERSIONS,
  contentLimitProblems,
  contentRequestSchema,
  legacyContentLimitProblems,
  legacyContentRequestSchema,
  type ServiceVersion,
} from '../../schemas/content.js';
import { canonicalJson } from '../../core/json/canonical.js';
import { classify } from '../classifier.js';
import { currentResponse, legacyResponse } from './responses.js';
import { EmulatorError, invalidRequest } from '../http/errors.js';
import { digestImages, type SubmittedImage } from './images.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { validateBody } from '../http/validation.js';

/** How the emulator answers POST /v1/content: validated with the shared schemas, classified, answered in the version asked for. */

export const contentRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/content', maxBodyBytes: CONTENT_LIMITS.requestBytes, auth: true, handle: classifyContent },
];

function classifyContent(ctx: RouteContext): RouteResult {
  const version = servedVersion(ctx.req.headers['service-version'], ctx.config.accountVersion);
  const body = ctx.json();
  return { status: 200, body: version === CURRENT_VERSION ? classifyCurrent(ctx, body) : classifyLegacy(ctx, body) };
}

function classifyCurrent(ctx: RouteContext, body: unknown) {
  const request = validateBody(contentRequestSchema, body, contentLimitProblems);
  const images = request.content.flatMap((part, index) =>
    part.type === 'image' ? [{ path: ['content', index, 'source', 'data'], data: part.source.data }] : [],
  );
  const texts = request.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  const classification = classify({ texts, imageDigests: digestsOf(images) }, ctx.state.referenceSets);
  return currentResponse({ request, contentId: contentIdFor(request), classification, quirks: ctx.state.quirks });
}

function classifyLegacy(ctx: RouteContext, body: unknown) {
  const request = validateBody(legacyContentRequestSchema, body, legacyContentLimitProblems);
  const images = (request.images ?? []).map((data, index) => ({ path: ['images', index], data }));
  const texts = request.text === undefined ? [] : [request.text];
  const classification = classify({ texts, imageDigests: digestsOf(images) }, ctx.state.referenceSets);
  // The old version echoes the caller's content_id; the service's own id only stands in when none was sent.
  const contentId = request.content_id ?? contentIdFor(request);
  return legacyResponse({ request, contentId, classification, quirks: ctx.state.quirks });
}

function servedVersion(header: string | string[] | undefined, accountVersion: ServiceVersion): ServiceVersion {
  if (header === undefined) return accountVersion;
  const requested = String(header).trim();
  const known = SERVICE_VERSIONS.find((version) => version === requested);
  if (known) return known;
  throw new EmulatorError(
    400,
    `Service-Version: unsupported version "${requested}"; expected one of ${SERVICE_VERSIONS.join(', ')}`,
    'Service-Version',
  );
}

function digestsOf(images: readonly SubmittedImage[]): string[] {
  const { digests, problems } = digestImages(images);
  if (problems.length > 0) throw invalidRequest(problems);
  return digests;
}

/** The service's id for a request: the same body (whatever its key order) always gets the same id. */
function contentIdFor(body: unknown): string {
  return `cnt_${createHash('sha256').update(canonicalJson(body)).digest('hex').slice(0, 24)}`;
}
