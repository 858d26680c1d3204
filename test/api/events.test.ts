import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseResponse } from '../../src/api/responses.js';
import { UnexpectedResponseError } from '../../src/core/errors.js';
import { eventIdsOf, queuedEventsResponseSchema, syncEventsResponseSchema } from '../../src/schemas/events.js';

const what = 'POST /v1/events';

describe('events responses are read strictly where it matters, tolerantly elsewhere', () => {
  it('reads the queued answer, keeping fields it does not know', () => {
    assert.deepEqual(parseResponse(queuedEventsResponseSchema, { status: 'queued', queued_events: 3, region: 'eu' }, what), { status: 'queued', queued_events: 3, region: 'eu' });
  });

  it('reads the ids of the synchronous answer, for one event or a batch', () => {
    assert.deepEqual(eventIdsOf(parseResponse(syncEventsResponseSchema, { status: 'ok', event_id: 'e1' }, what)), ['e1']);
    assert.deepEqual(eventIdsOf(parseResponse(syncEventsResponseSchema, { status: 'ok', event_ids: ['e1', 'e2'], extra: true }, what)), ['e1', 'e2']);
  });

  it('refuses a 2xx body it cannot read, naming the endpoint', () => {
    for (const body of ['<html>ok</html>', null, undefined, { status: 'ok' }, { status: 'ok', event_ids: 'e1' }, [{ status: 'ok' }]]) {
      assert.throws(() => parseResponse(syncEventsResponseSchema, body, what), (error: unknown) => error instanceof UnexpectedResponseError && /^POST \/v1\/events: unexpected response/.test(error.message));
    }
    for (const body of ['<html>ok</html>', { status: 'queued' }, { status: 'queued', queued_events: '3' }]) {
      assert.throws(() => parseResponse(queuedEventsResponseSchema, body, what), UnexpectedResponseError);
    }
  });
});
