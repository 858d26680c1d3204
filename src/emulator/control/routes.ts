import * as z from 'zod';
import { requireApiKey } from '../http/auth.js';
import { invalidRequest } from '../http/errors.js';
import { digestImages } from '../content/images.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { releaseHeld, resetState } from '../stores/state.js';
import { validateBody } from '../http/validation.js';
import { scriptSchema } from '../http/scripted-faults.js';

/**
 * Emulator-only endpoints under the reserved prefix /_emulator: inspection (requests),
 * reset, quirks, scripted faults and reference sets. They need the API key itself (not an access token) and are
 * not written to the request log. Review links (data/review.ts) carry a signature instead.
 */
export const controlRoutes: readonly Route[] = [
  control('GET', '/_emulator/health', health),
  control('GET', '/_emulator/requests', (ctx) => ok({ requests: ctx.state.requests })),
  control('DELETE', '/_emulator/requests', clearRequests),
  control('POST', '/_emulator/reset', reset),
  control('POST', '/_emulator/quirks', setQuirks),
  control('GET', '/_emulator/faults', (ctx) => ok({ faults: ctx.state.faultScript })),
  control('POST', '/_emulator/faults', addFaults),
  control('DELETE', '/_emulator/faults', clearFaults),
  control('GET', '/_emulator/in_flight', inFlight),
  control('POST', '/_emulator/release', release),
  control('POST', '/_emulator/reference_sets', addToReferenceSet, 64_000_000),
];

/** A control route: the API key is checked here, so every route made with control() requires it. */
export function control(method: Route['method'], pattern: string, handle: Route['handle'], maxBodyBytes = 64 * 1024): Route {
  return {
    method,
    pattern,
    maxBodyBytes,
    auth: true,
    handle: (ctx) => {
      requireApiKey(ctx.credential);
      return handle(ctx);
    },
  };
}

const ok = (body: unknown): RouteResult => ({ status: 200, body });

/** The most records one page of a records listing holds: its answer stays bounded, however large the records. */
const PAGE_LIMIT = 1000;

/** One page of a store's records: at most a limit of them, how many there are in all, and the `after` of the next page (null at the last). */
interface RecordsPage<R> {
  total: number;
  next: string | null;
  records: R[];
}

/** A store whose records can be listed a page at a time (JobStore, the webhook deliveries). */
interface Paged<R> {
  page(limit: number, after?: string): RecordsPage<R> | Promise<RecordsPage<R>>;
}

/**
 * GET `pattern`[?after=ID&limit=N]: one page of a store's records by id, `{"total", "next", <key>:
 * […]}`; at most `limit` (100 by default, 1000 at most) after the id `after`; `next` is the `after`
 * of the next page, null at the last.
 */
export function recordsListing<R>(pattern: string, key: string, store: (ctx: RouteContext) => Paged<R>): Route {
  return control('GET', pattern, async (ctx) => {
    const query = new URL(ctx.req.url ?? '/', 'http://localhost').searchParams;
    const limitText = query.get('limit') ?? '100';
    const limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : 0;
    if (limit < 1 || limit > PAGE_LIMIT) throw invalidRequest([{ path: ['limit'], message: `expected a whole number from 1 to ${PAGE_LIMIT}, got ${JSON.stringify(limitText)}` }]);
    const { total, next, records } = await store(ctx).page(limit, query.get('after') ?? undefined);
    return ok({ total, next, [key]: records });
  });
}

function health(ctx: RouteContext): RouteResult {
  const uptimeSeconds = Math.floor((ctx.config.now() - ctx.config.startedAt) / 1000);
  return ok({ status: 'ok', version: 'emulator', uptime_s: uptimeSeconds });
}

function clearRequests(ctx: RouteContext): RouteResult {
  ctx.state.requests.length = 0;
  return ok({ requests: [] });
}

async function reset(ctx: RouteContext): Promise<RouteResult> {
  await resetState(ctx.state);
  return ok({ status: 'reset' });
}

const quirkCount = z.number({ error: 'expected a whole number' }).int({ error: 'expected a whole number' }).min(0, { error: 'expected a whole number' });
const quirksSchema = z.strictObject({
  unknown_values: z.boolean({ error: 'expected true or false' }).optional(),
  expired_upload_urls: quirkCount.optional(),
  expired_download_urls: quirkCount.optional(),
  failing_uploads: quirkCount.optional(),
  failing_requests: quirkCount.optional(),
  refused_requests: quirkCount.optional(),
  held_requests: quirkCount.optional(),
  spec_only: z.boolean({ error: 'expected true or false' }).optional(),
});

function setQuirks(ctx: RouteContext): RouteResult {
  const changes = validateBody(quirksSchema, ctx.json());
  Object.assign(ctx.state.quirks, changes);
  return ok({ quirks: ctx.state.quirks });
}

/** More faults at the end of the script: each entry is met by the requests it matches, after those before it. */
function addFaults(ctx: RouteContext): RouteResult {
  const { faults } = validateBody(scriptSchema, ctx.json());
  ctx.state.faultScript.push(...faults);
  return ok({ faults: ctx.state.faultScript });
}

function clearFaults(ctx: RouteContext): RouteResult {
  ctx.state.faultScript.length = 0;
  return ok({ faults: [] });
}

/** The /v1 requests being served now, the most at once since the start or the last reset, and how many of them are held. */
function inFlight(ctx: RouteContext): RouteResult {
  const { now, max, held } = ctx.state.inFlight;
  return ok({ in_flight: now, max_in_flight: max, held: held.length });
}

/** Answers the requests the held_requests quirk holds back. */
function release(ctx: RouteContext): RouteResult {
  return ok({ released: releaseHeld(ctx.state.inFlight) });
}

const referenceSetSchema = z.strictObject({
  set_id: z.string().min(1, { error: 'expected a non-empty set id' }),
  images: z
    .array(z.string().min(1, { error: 'expected base64 image bytes, raw or as a data URI' }))
    .min(1, { error: 'expected at least one image' }),
});

/** Adds images (by the SHA-256 of their bytes) to a reference set, creating the set when new. */
function addToReferenceSet(ctx: RouteContext): RouteResult {
  const request = validateBody(referenceSetSchema, ctx.json());
  const images = request.images.map((data, index) => ({ path: ['images', index], data }));
  const { digests, problems } = digestImages(images);
  if (problems.length > 0) throw invalidRequest(problems);
  const set = ctx.state.referenceSets.get(request.set_id) ?? new Set<string>();
  for (const digest of digests) set.add(digest);
  ctx.state.referenceSets.set(request.set_id, set);
  return ok({ set_id: request.set_id, images: set.size });
}
