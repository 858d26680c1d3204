import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { faultInjector, mulberry32 } from '../../src/emulator/http/faults.js';
import { EVENT_EXAMPLES } from '../../src/schemas/event-examples.js';
import { assertError, call, startTestEmulator, useTestEmulator } from './support.js';

interface EventsListing {
  total: number;
  duplicates: number;
  events: Array<{ seq: number; event_id: string; idempotency_key: string | null; duplicates: number; event: Record<string, unknown> }>;
}

const listing = async (emulator: RunningEmulator) => (await call(emulator, 'GET', '/_emulator/events')).body as EventsListing;
const contact = (key?: string) => ({ ...EVENT_EXAMPLES.user_contact, ...(key && { idempotency_key: key }) });

describe('emulator: POST /v1/async/events', () => {
  const emulator = useTestEmulator();

  test('queues one event, or an ordered array, one message each, answering as the service does', async () => {
    const single = await call(emulator, 'POST', '/v1/async/events', { json: contact() });
    assert.equal(single.status, 202);
    assert.deepEqual(single.body, { status: 'queued', queued_events: 1 });
    const batch = Object.values(EVENT_EXAMPLES);
    const reply = await call(emulator, 'POST', '/v1/async/events', { json: batch });
    assert.equal(reply.status, 202);
    assert.deepEqual(reply.body, { status: 'queued', queued_events: batch.length });
    const { total, events } = await listing(emulator);
    assert.equal(total, 1 + batch.length);
    assert.deepEqual(events.slice(1).map((e) => e.event.type), batch.map((e) => e.type), 'in request order');
  });

  test('de-duplicates by idempotency_key, counting the repeats', async () => {
    await call(emulator, 'POST', '/v1/async/events', { json: [contact('k1'), contact('k2')] });
    const again = await call(emulator, 'POST', '/v1/async/events', { json: [contact('k1'), contact('k1'), contact('k3')] });
    assert.deepEqual(again.body, { status: 'queued', queued_events: 3 }, 'each event of the request is one queue message');
    const { total, duplicates, events } = await listing(emulator);
    assert.equal(total, 3);
    assert.equal(duplicates, 2);
    assert.equal(events.find((e) => e.idempotency_key === 'k1')!.duplicates, 2);
  });

  test('takes a batch only as a bare JSON array, an event only as a bare object', async () => {
    for (const body of [{ events: [contact()] }, { data: [contact()] }, [[contact()]], 'x', 7, null]) {
      for (const path of ['/v1/async/events', '/v1/events']) {
        assertError(await call(emulator, 'POST', path, { json: body }), 400);
      }
    }
    assert.equal((await listing(emulator)).total, 0);
  });

  test('answers 400 naming the index and field, and queues nothing of the batch', async () => {
    const { target_user_id: _missing, ...invalid } = EVENT_EXAMPLES.user_contact;
    const reply = await call(emulator, 'POST', '/v1/async/events', { json: [contact(), invalid] });
    const error = assertError(reply, 400, '[1].target_user_id');
    assert.match(error.message, /is required/);
    assert.equal((await listing(emulator)).total, 0);
    assertError(await call(emulator, 'POST', '/v1/async/events', { json: [] }), 400);
  });

  test('needs a credential', async () => {
    assertError(await call(emulator, 'POST', '/v1/async/events', { json: contact(), key: null }), 401);
    assertError(await call(emulator, 'POST', '/v1/events', { json: contact(), key: null }), 401);
  });
});

describe('emulator: POST /v1/events (synchronous)', () => {
  const emulator = useTestEmulator();

  test('ingests one event before answering, with its event_id', async () => {
    const reply = await call(emulator, 'POST', '/v1/events', { json: contact() });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { status: 'ok', event_id: 'evt_00000001' });
    assert.deepEqual((await listing(emulator)).events.map((e) => e.event_id), ['evt_00000001']);
  });

  test('answers a batch with the event_ids in request order; a repeated idempotency_key gets the first event id', async () => {
    await call(emulator, 'POST', '/v1/events', { json: contact('k1') });
    const reply = await call(emulator, 'POST', '/v1/events', { json: [contact('k2'), contact('k1'), contact()] });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { status: 'ok', event_ids: ['evt_00000002', 'evt_00000001', 'evt_00000003'] });
    const { total, duplicates } = await listing(emulator);
    assert.deepEqual([total, duplicates], [3, 1]);
  });

  test('an array of one event is still a batch', async () => {
    const reply = await call(emulator, 'POST', '/v1/events', { json: [contact()] });
    assert.deepEqual(reply.body, { status: 'ok', event_ids: ['evt_00000001'] });
  });

  test('refuses an invalid batch whole, naming the index and field', async () => {
    const { target_user_id: _missing, ...invalid } = EVENT_EXAMPLES.user_contact;
    assertError(await call(emulator, 'POST', '/v1/events', { json: [contact(), invalid] }), 400, '[1].target_user_id');
    assertError(await call(emulator, 'POST', '/v1/events', { json: [] }), 400);
    assertError(await call(emulator, 'POST', '/v1/events'), 400);
    assert.equal((await listing(emulator)).total, 0);
  });
});

describe('emulator: fault injection', () => {
  test('the same seed gives the same faults', () => {
    const settings = { rate: 0.5, kinds: ['429', '503', 'reset', 'timeout'] as const, seed: 42, delayMs: 10 };
    const draw = (seed: number) => {
      const next = faultInjector({ ...settings, seed }, () => 0);
      return Array.from({ length: 50 }, () => next()?.kind ?? 'none');
    };
    assert.deepEqual(draw(42), draw(42));
    assert.notDeepEqual(draw(42), draw(43));
    assert.notEqual(mulberry32(1)(), mulberry32(2)());
  });

  test('429 carries Retry-After in seconds and as an HTTP date; faults never touch /_emulator', async () => {
    const emulator = await startTestEmulator({ faults: { rate: 1, kinds: ['429'], seed: 1, delayMs: 0 } });
    try {
      const forms = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const reply = await call(emulator, 'POST', '/v1/async/events', { json: contact() });
        assert.equal(reply.status, 429);
        const retryAfter = reply.headers.get('retry-after')!;
        forms.add(/^\d+$/.test(retryAfter) ? 'seconds' : 'date');
        if (!/^\d+$/.test(retryAfter)) assert.ok(Date.parse(retryAfter) > Date.now() - 1000);
      }
      assert.deepEqual([...forms].sort(), ['date', 'seconds']);
      assert.equal((await listing(emulator)).total, 0, 'a 429 is not processed');
    } finally {
      await emulator.close();
    }
  });

  test('408, 502 and drop leave the request unprocessed; 500 and garbage process it, then answer a failure or a page no client can read', async () => {
    const cases = [
      ['408', 408, 0],
      ['502', 502, 0],
      ['drop', undefined, 0],
      ['500', 500, 1],
      ['garbage', 200, 1],
    ] as const;
    for (const [kind, status, ingested] of cases) {
      const emulator = await startTestEmulator({ faults: { rate: 1, kinds: [kind], seed: 1, delayMs: 0 } });
      try {
        const answer = fetch(`${emulator.baseUrl}/v1/async/events`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${emulator.apiKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(contact(kind)),
        });
        if (status === undefined) await assert.rejects(answer, kind);
        else {
          const response = await answer;
          assert.equal(response.status, status, kind);
          const text = await response.text();
          if (kind === '502' || kind === 'garbage') assert.match(text, /^<html>/, kind);
          else assert.equal((JSON.parse(text) as { error: { type: string } }).error.type, kind === '408' ? 'request_timeout' : 'internal_error');
        }
        assert.equal((await listing(emulator)).total, ingested, `${kind}: processed or not`);
        const [logged] = (await emulator.requests()) as Array<{ status: number; fault: string }>;
        assert.deepEqual([logged!.status, logged!.fault], [status ?? 0, kind]);
      } finally {
        await emulator.close();
      }
    }
  });

  test('reset processes the request, then cuts the response; timeout holds it', async () => {
    const reset = await startTestEmulator({ faults: { rate: 1, kinds: ['reset'], seed: 1, delayMs: 0 } });
    try {
      await assert.rejects(call(reset, 'POST', '/v1/async/events', { json: contact('r1') }));
      assert.equal((await listing(reset)).total, 1, 'ingested before the cut');
    } finally {
      await reset.close();
    }
    const slow = await startTestEmulator({ faults: { rate: 1, kinds: ['timeout'], seed: 1, delayMs: 400 } });
    try {
      const started = Date.now();
      const reply = await call(slow, 'POST', '/v1/async/events', { json: contact('t1') });
      assert.equal(reply.status, 202);
      assert.ok(Date.now() - started >= 350);
    } finally {
      await slow.close();
    }
  });
});
