import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonBody } from '../../src/emulator/http/body.js';
import type { RouteContext } from '../../src/emulator/http/router.js';
import { eventRoutes, listedEvents } from '../../src/emulator/events/routes.js';
import type { State } from '../../src/emulator/stores/state.js';

const event = (n: number) => ({ type: 'create_account', event_name: 'signed_up', timestamp: '2026-08-11T09:30:00Z', user_id: `u${n}`, idempotency_key: `k${n}`, metadata: { n } });

/** POST /v1/events with this body, straight to its handler. */
function send(state: Pick<State, 'events' | 'eventsByKey'>, payload: unknown) {
  const body = Buffer.from(JSON.stringify(payload));
  const route = eventRoutes.find((candidate) => candidate.pattern === '/v1/events')!;
  const ctx = { body, json: () => parseJsonBody(body), state, config: { now: () => Date.parse('2026-11-24T00:00:00Z') } } as unknown as RouteContext;
  return route.handle(ctx);
}

describe('emulator: how ingested events are kept', () => {
  it('as the bytes of their request and an index, no parsed event: listing parses them again, the same events', () => {
    const state = { events: [], eventsByKey: new Map() };
    send(state, [event(1), event(2), event(1)]);
    send(state, event(3));
    for (const stored of state.events) {
      assert.deepEqual(Object.keys(stored), ['seq', 'idempotency_key', 'received_at', 'duplicates', 'body', 'index']);
      const { body } = stored as { body: Buffer };
      // A small body is copied out of node's shared pool, which keeping it would keep whole.
      assert.equal(body.buffer.byteLength, body.length);
    }
    assert.deepEqual(
      listedEvents(state.events).map(({ event_id, duplicates, event: listed }) => ({ event_id, duplicates, listed })),
      [
        { event_id: 'evt_00000001', duplicates: 1, listed: event(1) },
        { event_id: 'evt_00000002', duplicates: 0, listed: event(2) },
        { event_id: 'evt_00000003', duplicates: 0, listed: event(3) },
      ],
    );
  });
});
