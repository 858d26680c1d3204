import type { HttpClient } from '../core/http/client.js';
import { eventIdsOf, queuedEventsResponseSchema, syncEventsResponseSchema } from '../schemas/events.js';
import { UnexpectedResponseError } from '../core/errors.js';
import { parseResponse, readAnswerOf } from './responses.js';

/** How an ordered batch of events is sent: queued, or ingested at once with its event ids. */

const EVENTS_PATH = '/v1/async/events';
const SYNC_EVENTS_PATH = '/v1/events';

/** Events already serialised, joined into the ordered batch the endpoints take (a bare JSON array). */
export const encodeBatch = (events: readonly string[]) => Buffer.from(`[${events.join(',')}]`);

/**
 * Queues an ordered batch (POST /v1/async/events) under the one retry policy. The body is a
 * buffer the client re-sends as-is on each attempt.
 */
export async function sendEvents(http: HttpClient, batch: Buffer, replaySafe: boolean): Promise<void> {
  await postBatch(http, EVENTS_PATH, batch, replaySafe, (body) => parseResponse(queuedEventsResponseSchema, body, `POST ${EVENTS_PATH}`));
}

/**
 * Ingests an ordered batch of `count` events synchronously (POST /v1/events); returns the
 * service's event ids in request order.
 */
export async function ingestEvents(http: HttpClient, batch: Buffer, count: number, replaySafe: boolean): Promise<string[]> {
  return postBatch(http, SYNC_EVENTS_PATH, batch, replaySafe, (body) => {
    const eventIds = eventIdsOf(parseResponse(syncEventsResponseSchema, body, `POST ${SYNC_EVENTS_PATH}`));
    if (eventIds.length !== count) {
      throw new UnexpectedResponseError(`POST ${SYNC_EVENTS_PATH}: unexpected response from the service: ${eventIds.length} event ids for ${count} events`);
    }
    return eventIds;
  });
}

/**
 * `replaySafe`: every event of the batch carries an idempotency_key, so a batch whose answer was
 * lost (or not what `read` relies on) may be sent again; otherwise it is retried only when the
 * service cannot have processed it. After Ctrl-C or SIGTERM the answer still comes: without it
 * the run could not record the batch as delivered, and would send it again.
 */
const postBatch = <T>(http: HttpClient, path: string, batch: Buffer, replaySafe: boolean, read: (body: unknown) => T): Promise<T> =>
  readAnswerOf(http, { method: 'POST', path, body: { open: () => batch, length: batch.length, contentType: 'application/json' }, replaySafe, finishOnInterrupt: true }, read);
