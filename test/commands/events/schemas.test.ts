import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENT_EXAMPLES } from '../../../src/schemas/event-examples.js';
import { EVENT_TYPES, eventProblems, type EventType } from '../../../src/schemas/events.js';
import { formatPath } from '../../../src/schemas/issues.js';

/** The fields the spec makes required, per variant. */
const REQUIRED_FIELDS: Record<EventType, string[]> = {
  user_contact: ['type', 'event_name', 'timestamp', 'user_id', 'target_user_id'],
  content_uploaded: ['type', 'event_name', 'timestamp', 'user_id', 'content'],
  product_changed: ['type', 'event_name', 'timestamp', 'user_id', 'content', 'product'],
  create_account: ['type', 'event_name', 'timestamp', 'user_id'],
  update_account: ['type', 'event_name', 'timestamp', 'user_id'],
  user_report: ['type', 'event_name', 'timestamp', 'user_id', 'labels'],
  moderation_decision: ['type', 'event_name', 'timestamp', 'labels', 'source_id', 'source_type'],
};

const strict = { allowUnknownTypes: false };
const problems = (event: unknown) => eventProblems(event, strict).map((p) => `${formatPath(p.path)}: ${p.message}`);
const example = <T extends EventType>(type: T) => structuredClone(EVENT_EXAMPLES[type]) as Record<string, unknown>;
const without = (event: Record<string, unknown>, field: string) => {
  const { [field]: _removed, ...rest } = event;
  return rest;
};

describe('event schemas', () => {
  for (const type of EVENT_TYPES) {
    it(`accepts the example ${type}`, () => assert.deepEqual(problems(EVENT_EXAMPLES[type]), []));

    for (const field of REQUIRED_FIELDS[type]) {
      it(`${type}: a missing ${field} is named`, () => {
        const found = problems(without(example(type), field));
        assert.equal(found.length, 1, found.join('\n'));
        assert.match(found[0]!, new RegExp(`^${field}: is required`));
      });
    }
  }

  it('rejects user_id on moderation_decision', () => {
    assert.deepEqual(problems({ ...example('moderation_decision'), user_id: 'u1' }), ['user_id: must not be sent for moderation_decision']);
  });

  it('checks event_name: snake_case, and the product_changed enum', () => {
    assert.match(problems({ ...example('create_account'), event_name: 'AccountCreated' })[0]!, /^event_name: expected snake_case/);
    assert.match(problems({ ...example('product_changed'), event_name: 'product_deleted' })[0]!, /^event_name: expected product_created or product_updated/);
  });

  it('checks timestamp, price, currency, metadata values, client_info.ip', () => {
    const product = example('product_changed');
    const bad = {
      ...product,
      timestamp: '2026-08-11 09:30',
      product: { price: { amount: '1,50', currency: 'EURO' }, discounted_price: { amount: 3, currency: 'EUR' } },
      metadata: { ok: ['a', 1, true], nested: { no: 1 } },
      client_info: { ip: '300.1.1.1' },
    };
    assert.deepEqual(problems(bad).sort(), [
      'client_info.ip: expected an IPv4 or IPv6 address',
      'metadata.nested: expected a string, number, boolean, or an array of those',
      'product.discounted_price.amount: expected a decimal string such as "19.99"',
      'product.price.amount: expected a decimal string such as "19.99"',
      'product.price.currency: expected an ISO 4217 currency code such as "EUR"',
      'timestamp: expected an ISO 8601 datetime with a time zone, e.g. 2026-08-11T09:30:00Z',
    ]);
  });

  it('checks resources_used in both shapes, and URLs', () => {
    const event = {
      ...example('create_account'),
      resources_used: [
        { type: 'id', value: 'd1' },
        { type: 'email', namespace: 'x', value: 'a@b.c' },
        { type: 'url', value: 'not a url' },
        { type: 'id', namespace: 'device', value: 'd1' },
      ],
      content: [{ type: 'image', source: { type: 'url', url: 'nope' } }],
    };
    assert.deepEqual(problems(event).sort(), [
      'content[0].source.url: expected a valid absolute URL',
      'resources_used[0].namespace: is required when type is "id"',
      'resources_used[1].namespace: is only allowed when type is "id"',
      'resources_used[2].value: expected a valid absolute URL when type is "url"',
    ]);
  });

  it('rejects unknown fields and unknown types, unless unknown types are allowed', () => {
    assert.deepEqual(problems({ ...example('create_account'), userId: 'x' }), ['userId: unknown field; did you mean "user_id"?']);
    // The field meant is one of the event's own type: user_contact has target_user_id, create_account has not.
    assert.deepEqual(problems({ ...example('user_contact'), target_user: 'u2' }).at(-1), 'target_user: unknown field; did you mean "target_user_id"?');
    assert.deepEqual(problems({ ...example('create_account'), target_user: 'u2' }), ['target_user: unknown field']);
    assert.match(problems({ type: 'eighth_variant' })[0]!, /^type: unknown event type "eighth_variant": expected one of user_contact/);
    assert.deepEqual(eventProblems({ type: 'eighth_variant', anything: 1 }, { allowUnknownTypes: true }), []);
    assert.deepEqual(problems([1]), ['(body): expected a JSON object (one event)']);
  });
});
