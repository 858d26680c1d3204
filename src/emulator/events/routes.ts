import { Readable } from 'node:stream';
import { eventProblems } from '../../schemas/events.js';
import type { FieldProblem } from '../../schemas/issues.js';
import { control } from '../control/routes.js';
import { invalidRequest } from '../http/errors.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import type { EventStore } from '../stores/event-store.js';
import { REQUEST_BYTES } from '../../schemas/names.js';

/** How the emulator answers the event endpoints, and lists what it ingested (GET /_emulator/events). */


export const eventRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/async/events', maxBodyBytes: REQUEST_BYTES, auth: true, handle: queueEvents },
  { method: 'POST', pattern: '/v1/events', maxBodyBytes: REQUEST_BYTES, auth: true, handle: ingestEvents },
  control('GET', '/_emulator/events', listEvents),
  control('DELETE', '/_emulator/events', clearEvents),
];

/**
 * 202 {"status":"queued","queued_events":N}: one queue message per event of the request. The
 * emulator's queue is drained at once, so /_emulator/events shows them, de-duplicated, on return.
 */
async function queueEvents(ctx: RouteContext): Promise<RouteResult> {
  const { events } = await ingestBody(ctx);
  return { status: 202, body: { status: 'queued', queued_events: events.length } };
}

/**
 * The synchronous endpoint: every event is ingested before the answer, 200 {"status":"ok","event_id"}
 * for a single event or {"status":"ok","event_ids":[…]} in request order for a batch. A repeated
 * idempotency_key answers with the id of the event it repeats.
 */
async function ingestEvents(ctx: RouteContext): Promise<RouteResult> {
  const { events, batch } = await ingestBody(ctx);
  const ids = events.map(eventId);
  return { status: 200, body: batch ? { status: 'ok', event_ids: ids } : { status: 'ok', event_id: ids[0] } };
}

const eventId = (seq: number) => `evt_${String(seq).padStart(8, '0')}`;

/**
 * The body of either endpoint: one event as a bare object, or a batch as a bare JSON array of
 * them. All or nothing: any invalid event is a 400 naming its index and field, and none is
 * ingested. The seq of each event stored (or repeated), in request order.
 */
async function ingestBody(ctx: RouteContext): Promise<{ events: number[]; batch: boolean }> {
  const body = ctx.json();
  if (body === undefined) throw invalidRequest([{ path: [], message: 'the request body is empty; expected an event or an array of events' }]);
  const batch = Array.isArray(body);
  const events: unknown[] = batch ? body : [body];
  if (events.length === 0) throw invalidRequest([{ path: [], message: 'expected at least one event' }]);
  // The eighth variant is not shown in the spec, so types it does not list are taken unchecked.
  const problems: FieldProblem[] = events.flatMap((event, index) =>
    eventProblems(event, { allowUnknownTypes: true }).map((p) => ({ path: batch ? [index, ...p.path] : p.path, message: p.message })),
  );
  if (problems.length > 0) throw invalidRequest(problems);
  return { events: await ctx.state.events.ingest(ctx.body, events as Record<string, unknown>[], batch, ctx.config.now()), batch };
}

/** Page parameters of GET /_emulator/events: whole numbers, `limit` at least 1. */
const PAGE_PARAMETERS = { after: { least: 0, what: 'the seq of the last event already listed' }, limit: { least: 1, what: 'how many events to list' } } as const;

function pageOf(ctx: RouteContext): { after: number; limit: number | undefined } {
  const query = new URL(ctx.req.url ?? '/', 'http://localhost').searchParams;
  const [after, limit] = (['after', 'limit'] as const).map((name) => {
    const text = query.get(name);
    if (text === null) return undefined;
    const { least, what } = PAGE_PARAMETERS[name];
    if (!/^\d{1,15}$/.test(text) || Number(text) < least) throw invalidRequest([{ path: [name], message: `expected a whole number of at least ${least} (${what}), got ${JSON.stringify(text)}` }]);
    return Number(text);
  });
  return { after: after ?? 0, limit };
}

/**
 * GET /_emulator/events[?after=SEQ&limit=N]: `{"total", "duplicates", "next", "events": […]}`, the
 * events in arrival order from seq after+1, at most `limit` of them (all by default). Streamed
 * from disk as it is sent, however many there are; `next` is the `after` of the next page, or
 * null when this one reaches the last event. Events arriving meanwhile are left for the next look.
 */
function listEvents(ctx: RouteContext): RouteResult {
  const { after, limit } = pageOf(ctx);
  const { total, duplicates } = ctx.state.events.counts();
  const last = limit === undefined ? total : Math.min(total, after + limit);
  const next = last < total ? last : null;
  const head = `{"total":${total},"duplicates":${duplicates},"next":${next},"events":[`;
  return { status: 200, raw: { contentType: 'application/json; charset=utf-8', content: () => Readable.from(listingText(ctx.state.events, head, after, last)) } };
}

async function* listingText(store: EventStore, head: string, after: number, last: number): AsyncGenerator<string> {
  let separator = '';
  yield head;
  for await (const events of store.list(after, last)) {
    yield separator + events.map(({ seq, ...event }) => JSON.stringify({ seq, event_id: eventId(seq), ...event })).join(',');
    separator = ',';
  }
  yield ']}';
}

async function clearEvents(ctx: RouteContext): Promise<RouteResult> {
  await ctx.state.events.clear();
  return { status: 200, body: { total: 0, duplicates: 0, next: null, events: [] } };
}
