import { eventProblems } from '../../schemas/events.js';
import type { FieldProblem } from '../../schemas/issues.js';
import { invalidRequest } from '../http/errors.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import type { IngestedEvent, State } from '../stores/state.js';

/** The spec gives no size limit for an event batch; the emulator takes the 6 MB of POST /v1/content. */
const EVENTS_MAX_BODY_BYTES = 6_000_000;

export const eventRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/async/events', maxBodyBytes: EVENTS_MAX_BODY_BYTES, auth: true, handle: queueEvents },
  { method: 'POST', pattern: '/v1/events', maxBodyBytes: EVENTS_MAX_BODY_BYTES, auth: true, handle: ingestEvents },
];

/**
 * 202 {"status":"queued","queued_events":N}: one queue message per event of the request. The
 * emulator's queue is drained at once, so /_emulator/events shows them, de-duplicated, on return.
 */
function queueEvents(ctx: RouteContext): RouteResult {
  const { events } = ingestBody(ctx);
  return { status: 202, body: { status: 'queued', queued_events: events.length } };
}

/**
 * The synchronous endpoint: every event is ingested before the answer, 200 {"status":"ok","event_id"}
 * for a single event or {"status":"ok","event_ids":[…]} in request order for a batch. A repeated
 * idempotency_key answers with the id of the event it repeats.
 */
function ingestEvents(ctx: RouteContext): RouteResult {
  const { events, batch } = ingestBody(ctx);
  const ids = events.map(eventId);
  return { status: 200, body: batch ? { status: 'ok', event_ids: ids } : { status: 'ok', event_id: ids[0] } };
}

const eventId = (seq: number) => `evt_${String(seq).padStart(8, '0')}`;

/**
 * The body of either endpoint: one event as a bare object, or a batch as a bare JSON array of
 * them. All or nothing: any invalid event is a 400 naming its index and field, and none is
 * ingested. The seq of each event stored (or repeated), in request order.
 */
function ingestBody(ctx: RouteContext): { events: number[]; batch: boolean } {
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
  const source = ownBytes(ctx.body);
  const receivedAt = new Date(ctx.config.now()).toISOString();
  return { events: events.map((event, index) => ingest(ctx.state, event as Record<string, unknown>, { body: source, index: batch ? index : -1 }, receivedAt)), batch };
}

/** The bytes in a buffer of their own: a small body shares node's pool with others, which keeping it would keep too. */
const ownBytes = (bytes: Buffer) => (bytes.byteLength === bytes.buffer.byteLength ? bytes : Buffer.from(new Uint8Array(bytes).buffer));

/** Stores the event, or counts it as a duplicate of the earlier one with its idempotency_key; returns the stored one's seq. */
function ingest(state: State, event: Record<string, unknown>, source: Pick<IngestedEvent, 'body' | 'index'>, receivedAt: string): number {
  const key = typeof event.idempotency_key === 'string' ? event.idempotency_key : null;
  const earlier = key === null ? undefined : state.eventsByKey.get(key);
  if (earlier !== undefined) {
    earlier.duplicates++;
    return earlier.seq;
  }
  const seq = state.events.length + 1;
  const ingested: IngestedEvent = { seq, idempotency_key: key, received_at: receivedAt, duplicates: 0, body: source.body, index: source.index };
  state.events.push(ingested);
  if (key !== null) state.eventsByKey.set(key, ingested);
  return seq;
}

/** The events as GET /_emulator/events lists them, each parsed again from the request it came in (once per request). */
export function listedEvents(events: readonly IngestedEvent[]) {
  let body: Buffer | undefined;
  let parsed: unknown;
  return events.map(({ seq, idempotency_key, received_at, duplicates, ...source }) => {
    if (source.body !== body) {
      body = source.body;
      parsed = JSON.parse(body.toString('utf8'));
    }
    const event = source.index === -1 ? parsed : (parsed as unknown[])[source.index];
    return { seq, event_id: eventId(seq), idempotency_key, received_at, duplicates, event };
  });
}
