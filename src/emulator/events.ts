import { eventProblems } from '../schemas/events.js';
import type { FieldProblem } from '../schemas/issues.js';
import { invalidRequest } from './errors.js';
import type { Route, RouteContext, RouteResult } from './router.js';
import type { IngestedEvent, State } from './state.js';

/** The spec gives no size limit for an event batch; the emulator takes the 6 MB of POST /v1/content. */
export const EVENTS_MAX_BODY_BYTES = 6_000_000;

export const eventRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/async/events', maxBodyBytes: EVENTS_MAX_BODY_BYTES, auth: true, handle: queueEvents },
];

/**
 * One event or an ordered array of them. All or nothing: any invalid event is a 400 naming its
 * index and field, and none is queued. Each valid event becomes one queued message, unless its
 * idempotency_key was seen before: then it is counted as a duplicate of the first.
 *
 * 202 {"status":"queued","queued":<new>,"duplicates":<repeats>,"events":[{"event_id","duplicate"}…]}
 * in request order. (The spec does not show the response body; this one is the emulator's.)
 */
function queueEvents(ctx: RouteContext): RouteResult {
  const body = ctx.json();
  if (body === undefined) throw invalidRequest([{ path: [], message: 'the request body is empty; expected an event or an array of events' }]);
  const batch: unknown[] = Array.isArray(body) ? body : [body];
  if (batch.length === 0) throw invalidRequest([{ path: [], message: 'expected at least one event' }]);
  // The eighth variant is not shown in the spec, so types it does not list are queued unchecked.
  const problems: FieldProblem[] = batch.flatMap((event, index) =>
    eventProblems(event, { allowUnknownTypes: true }).map((p) => ({ path: Array.isArray(body) ? [index, ...p.path] : p.path, message: p.message })),
  );
  if (problems.length > 0) throw invalidRequest(problems);
  const receivedAt = new Date(ctx.config.now()).toISOString();
  const results = batch.map((event) => ingest(ctx.state, event as Record<string, unknown>, receivedAt));
  const duplicates = results.filter((r) => r.duplicate).length;
  return { status: 202, body: { status: 'queued', queued: results.length - duplicates, duplicates, events: results } };
}

function ingest(state: State, event: Record<string, unknown>, receivedAt: string): { event_id: string; duplicate: boolean } {
  const key = typeof event.idempotency_key === 'string' ? event.idempotency_key : null;
  const earlier = key === null ? undefined : state.eventsByKey.get(key);
  if (earlier !== undefined) {
    earlier.duplicates++;
    return { event_id: earlier.event_id, duplicate: true };
  }
  const seq = state.events.length + 1;
  const ingested: IngestedEvent = { seq, event_id: `evt_${String(seq).padStart(8, '0')}`, idempotency_key: key, received_at: receivedAt, duplicates: 0, event };
  state.events.push(ingested);
  if (key !== null) state.eventsByKey.set(key, ingested);
  return { event_id: ingested.event_id, duplicate: false };
}
