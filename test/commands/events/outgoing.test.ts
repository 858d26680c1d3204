import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outgoingJson, withIdempotencyKey } from '../../../src/commands/events/send/placement.js';
import { EVENT_SPOOL, type OutgoingEvent } from '../../../src/commands/events/send/outgoing.js';
import { spoolRecords } from '../../../src/core/bulk/record-spool.js';
import { EVENT_EXAMPLES } from '../../../src/schemas/event-examples.js';

const parsed = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('the text each event is sent as', () => {
  const events: Record<string, unknown>[] = [
    ...Object.values(EVENT_EXAMPLES).map((event) => structuredClone(event) as Record<string, unknown>),
    { ...EVENT_EXAMPLES.create_account, idempotency_key: 'mine' },
    // Not a string: the derived key takes the field's place, as the copy with the key did.
    parsed('{"type":"eighth","idempotency_key":7,"user_id":"u1"}'),
    parsed('{"type":"eighth","__proto__":{"x":1},"user_id":"u1"}'),
    parsed('{"type":"eighth","user_id":"tab\\there","text":"é\\u2028"}'),
    {},
  ];

  it('is JSON.stringify(withIdempotencyKey(event)), or the event as it is without auto idempotency', () => {
    for (const event of events) {
      assert.equal(outgoingJson(event, true), JSON.stringify(withIdempotencyKey(event)), JSON.stringify(event));
      assert.equal(outgoingJson(event, false), JSON.stringify(event));
    }
  });

  it('carries the derived keys earlier runs sent', () => {
    const event = { type: 'content_uploaded', user_id: 'u1', timestamp: '2026-08-11T00:00:00.000Z', content: [{ type: 'text', text: 'héllo' }] };
    assert.equal(outgoingJson(event, true), `${JSON.stringify(event).slice(0, -1)},"idempotency_key":"csafe-5980faaf020e27dad2c091af0d6ac77b"}`);
  });
});

describe('the spool of events checked before any is sent', () => {
  it('gives back every event as it was kept, whatever its partition holds', async () => {
    const partitions = ['user_id:u1', 'user_id:a\tb', 'user_id:line\nbreak', 'user_id:"quoted"', 'user_id:back\\slash', 'user_id:é💡', 'unkeyed'];
    const events: OutgoingEvent[] = partitions.map((partition, index) => ({ position: index + 1, line: index * 2 + 1, partition, slot: index * 100, keyed: index % 2 === 0, json: JSON.stringify({ n: index, text: 'a\tb\nc' }) }));
    async function* groups() {
      yield events.slice(0, 3);
      yield [];
      yield events.slice(3);
    }
    // No memory to hold them in: written to the spool's file, and decoded back.
    const spool = await spoolRecords(groups(), EVENT_SPOOL, new AbortController().signal, 0);
    try {
      const back: OutgoingEvent[] = [];
      assert.ok(spool.path !== undefined);
      for await (const group of spool.records()) back.push(...group);
      assert.deepEqual(back, events);
    } finally {
      await spool.remove();
    }
  });
});
