import type { HttpClient } from '../core/http.js';

export const EVENTS_PATH = '/v1/async/events';

/** Events already serialised, joined into the ordered batch the endpoint takes (a JSON array). */
export const encodeBatch = (events: readonly string[]) => Buffer.from(`[${events.join(',')}]`);

/**
 * Queues an ordered batch (POST /v1/async/events) under the one retry policy. The body is a
 * buffer the client re-sends as-is on each attempt; returns the retries it took.
 */
export async function sendEvents(http: HttpClient, batch: Buffer): Promise<{ retries: number }> {
  const response = await http.request({
    method: 'POST',
    path: EVENTS_PATH,
    body: { open: () => batch, length: batch.length, contentType: 'application/json' },
  });
  return { retries: response.retries };
}
