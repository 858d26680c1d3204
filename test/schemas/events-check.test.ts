import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../src/emulator/http/faults.js';
import { backendEventSchema, EVENT_TYPES, eventProblems } from '../../src/schemas/events.js';
import { problemsFromZod } from '../../src/schemas/issues.js';

/** What eventProblems said before the hand-written check: zod alone, for the seven known types. */
const zodProblems = (value: unknown) => {
  const parsed = backendEventSchema.safeParse(value);
  return parsed.success ? [] : problemsFromZod(parsed.error, { schema: backendEventSchema, value });
};

const BASE = {
  type: 'user_contact',
  event_name: 'message_sent',
  timestamp: '2026-08-11T09:30:00Z',
  user_id: 'user_123',
  target_user_id: 'user_456',
  content: [{ type: 'text', text: 'Hi', key: 'message_body' }],
  client_info: { ip: '203.0.113.7' },
};

/** One valid event of each type, as `csafe events example` shows them. */
const VALID: Record<string, Record<string, unknown>> = {
  user_contact: BASE,
  content_uploaded: {
    type: 'content_uploaded', event_name: 'post_published', timestamp: '2026-08-11T09:30:00.123+02:00', user_id: 'u', content_id: 'p',
    content: [{ type: 'text', text: 'My new bike!', key: 'title' }, { type: 'image', source: { type: 'url', url: 'https://cdn.example.com/1.jpg' }, key: 'photo' }],
    metadata: { community: 'cycling', tags: ['bike', 'sale'], draft: false, n: 3 },
    idempotency_key: 'csafe-0123',
  },
  product_changed: {
    type: 'product_changed', event_name: 'product_created', timestamp: '2026-08-11T09:30:00Z', user_id: 'u', content: [{ type: 'text', text: 'Bike' }],
    product: { price: { amount: '19.99', currency: 'EUR' } },
  },
  create_account: { type: 'create_account', event_name: 'signed_up', timestamp: '2026-08-11T09:30:00Z', user_id: 'u' },
  update_account: { type: 'update_account', event_name: 'email_changed', timestamp: '2026-08-11T09:30:00Z', user_id: 'u', resources_used: [{ type: 'email', value: 'a@b.c' }] },
  user_report: { type: 'user_report', event_name: 'user_reported', timestamp: '2026-08-11T09:30:00Z', user_id: 'u', labels: ['spam'], target_user_id: 'v', target_content_id: 'c' },
  moderation_decision: { type: 'moderation_decision', event_name: 'post_removed', timestamp: '2026-08-11T09:30:00Z', labels: [], source_id: 'mod_1', source_type: 'human_moderator' },
};

/** Values a field may be given: valid ones of every field and the near misses around them. */
const SAMPLES: unknown[] = [
  '', 'a', 'user_1', 'Not_Snake', 'snake_case', '_x', 'x_', 'a__b', '2026-08-11T09:30:00Z', '2026-08-11T09:30:00', '2026-08-11T09:30:00z',
  '2026-02-29T00:00:00Z', '2024-02-29T00:00:00Z', '2026-08-11T24:00:00Z', '2026-08-11T09:30:00.5-23:59', '2026-08-11T09:30:00+24:00', '2026-08-11 09:30:00Z',
  '203.0.113.7', '::1', '1.2.3', 'https://x.example/a', 'not a url', 'human_moderator', 'robot', 'url', 'text', 'image', 'product_created',
  0, 1.5, -1, true, false, null, [], ['a'], [1], [['a']], {}, { a: 1 }, { ip: '::1' }, { ip: 'x' }, { ip: '::1', port: 1 },
  [{ type: 'text', text: 'x' }], [{ type: 'text' }], [{ type: 'text', text: 'x', extra: 1 }], [{ type: 'image', source: { type: 'url', url: 'https://a.b/c' } }],
  [{ type: 'image', source: { type: 'url', url: 'relative/path' } }], [{ type: 'image', source: { type: 'file', url: 'https://a.b/c' } }], [{ type: 'video' }], ['text'],
  { n: 1, s: 'x', b: true, l: [1, 'a', false] }, { nested: { a: 1 } }, { deep: [[1]] }, { nothing: null },
  [{ type: 'email', value: 'a@b.c' }], [{ type: 'id', namespace: 'ns', value: 'x' }],
];
const FIELDS = ['type', 'event_name', 'timestamp', 'user_id', 'target_user_id', 'content', 'content_id', 'client_info', 'metadata', 'idempotency_key',
  'labels', 'source_id', 'source_type', 'target_content_id', 'resources_used', 'product', 'extra', '__proto__'];

/** As a JSON line would hold it: parsed from text, so a "__proto__" key is an own property, and 1e400 is Infinity. */
const asParsed = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"__infinity__"', '1e400')) as Record<string, unknown>;

const agree = (value: Record<string, unknown>) => {
  const text = JSON.stringify(value);
  assert.deepEqual(eventProblems(value, { allowUnknownTypes: true }), EVENT_TYPES.includes(value.type as never) ? zodProblems(value) : eventProblems(value, { allowUnknownTypes: true }), text);
};

describe('eventProblems (schemas/event-check, then zod) and backendEventSchema', () => {
  it('agree on each valid example and on every field of it replaced, removed or added', () => {
    for (const valid of Object.values(VALID)) {
      agree(asParsed(valid));
      for (const field of FIELDS) {
        const { [field]: _dropped, ...without } = valid;
        agree(asParsed(without));
        for (const sample of [...SAMPLES, '__infinity__', { x: '__infinity__' }]) agree(asParsed({ ...valid, [field]: sample }));
      }
    }
  });

  it('agree on seeded random events', () => {
    const random = mulberry32(2026);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    for (let i = 0; i < 20_000; i++) {
      const event: Record<string, unknown> = { ...pick(Object.values(VALID)) };
      for (let changes = Math.floor(random() * 3); changes > 0; changes--) {
        const field = pick(FIELDS);
        if (random() < 0.3) delete event[field];
        else event[field] = random() < 0.5 ? pick(SAMPLES) : pick(Object.values(VALID))[field];
      }
      agree(asParsed(event));
    }
  });

  it('does not ask zod about the valid events of the common types', () => {
    const safeParse = backendEventSchema.safeParse;
    let asked = 0;
    backendEventSchema.safeParse = ((...args: Parameters<typeof safeParse>) => (asked++, safeParse(...args))) as typeof safeParse;
    try {
      for (const type of ['user_contact', 'content_uploaded', 'create_account', 'user_report', 'moderation_decision']) {
        assert.deepEqual(eventProblems(asParsed(VALID[type]), { allowUnknownTypes: false }), [], type);
      }
      assert.equal(asked, 0);
      assert.notDeepEqual(eventProblems(asParsed({ ...BASE, user_id: '' }), { allowUnknownTypes: false }), []);
      assert.equal(asked, 1, 'a refusal is explained by zod');
    } finally {
      backendEventSchema.safeParse = safeParse;
    }
  });
});
