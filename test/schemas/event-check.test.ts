import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { DATETIME_WITH_OFFSET, isValidEvent } from '../../src/schemas/event-check.js';
import { EVENT_EXAMPLES } from '../../src/schemas/event-examples.js';
import { EVENT_TYPES, eventProblems, explainedProblems } from '../../src/schemas/events.js';

// The fast check must accept exactly what the zod schema accepts: a table of edge cases, then
// seeded pseudo-random events (examples mutated field by field), each judged by both.

type Fields = Record<string, unknown>;
const zodAccepts = (value: unknown, allowUnknownTypes: boolean) => explainedProblems(value, { allowUnknownTypes }).length === 0;
const example = (type: keyof typeof EVENT_EXAMPLES): Fields => structuredClone(EVENT_EXAMPLES[type]) as Fields;
/** A JSON text parsed, so that `__proto__` is an own key as it is in a parsed input line. */
const parsed = (text: string): Fields => JSON.parse(text) as Fields;

function assertAgree(value: unknown, label: string): boolean {
  const verdicts = [false, true].map((allow) => [isValidEvent(value, allow), zodAccepts(value, allow)]);
  for (const [index, [fast, zod]] of verdicts.entries()) {
    assert.equal(fast, zod, `${label} (allowUnknownTypes ${index === 1}): fast check ${fast}, zod ${zod}: ${JSON.stringify(value)}`);
  }
  return verdicts[0]![1]!;
}

const contentUploaded = example('content_uploaded');
const product = example('product_changed');
const account = example('create_account');
const decision = example('moderation_decision');
const report = example('user_report');
const withField = (event: Fields, field: string, value: unknown): Fields => ({ ...event, [field]: value });
const withPath = (event: Fields, path: (string | number)[], value: unknown): Fields => {
  const copy = structuredClone(event);
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return copy;
};

/** [what, value, valid] */
const EDGE_CASES: Array<[string, unknown, boolean]> = [
  ...EVENT_TYPES.map((type): [string, unknown, boolean] => [`the example ${type}`, example(type), true]),
  ['null', null, false],
  ['an array', [contentUploaded], false],
  ['a string', 'event', false],
  ['no type', withField(account, 'type', undefined), false],
  ['type null', withField(account, 'type', null), false],
  ['type empty', withField(account, 'type', ''), false],
  ['type unknown', withField(account, 'type', 'eighth_variant'), false],
  ['type a number', withField(account, 'type', 7), false],
  ['type "toString"', withField(account, 'type', 'toString'), false],
  ['type "__proto__"', withField(account, 'type', '__proto__'), false],
  ['an unknown field', withField(account, 'extra', 1), false],
  ['an own __proto__ field', parsed(JSON.stringify(account).replace('{', '{"__proto__":{},')), false],
  ['a field "constructor"', withField(account, 'constructor', 'x'), false],
  ['a field "toString"', withField(account, 'toString', 'x'), false],
  ['event_name not snake_case', withField(account, 'event_name', 'AccountCreated'), false],
  ['event_name with a double underscore', withField(account, 'event_name', 'a__b'), false],
  ['event_name one letter', withField(account, 'event_name', 'a'), true],
  ['event_name leading digit', withField(account, 'event_name', '1a'), false],
  ['timestamp with offset', withField(account, 'timestamp', '2026-08-11T09:30:00+02:00'), true],
  ['timestamp with fraction', withField(account, 'timestamp', '2026-08-11T09:30:00.123456Z'), true],
  ['timestamp without seconds', withField(account, 'timestamp', '2026-08-11T09:30Z'), false],
  ['timestamp without zone', withField(account, 'timestamp', '2026-08-11T09:30:00'), false],
  ['timestamp lower-case z', withField(account, 'timestamp', '2026-08-11T09:30:00z'), false],
  ['timestamp leap day', withField(account, 'timestamp', '2024-02-29T00:00:00Z'), true],
  ['timestamp not a leap day', withField(account, 'timestamp', '2026-02-29T00:00:00Z'), false],
  ['timestamp 24:00', withField(account, 'timestamp', '2026-08-11T24:00:00Z'), false],
  ['timestamp offset +24:00', withField(account, 'timestamp', '2026-08-11T09:30:00+24:00'), false],
  ['timestamp a number', withField(account, 'timestamp', 1_780_000_000), false],
  ['user_id empty', withField(account, 'user_id', ''), false],
  ['user_id a number', withField(account, 'user_id', 1), false],
  ['user_id a space', withField(account, 'user_id', ' '), true],
  ['idempotency_key empty', withField(account, 'idempotency_key', ''), false],
  ['idempotency_key given', withField(account, 'idempotency_key', 'k'), true],
  ['content_id empty', withField(account, 'content_id', ''), true],
  ['content empty where optional', withField(account, 'content', []), true],
  ['content empty where required', withField(contentUploaded, 'content', []), false],
  ['content part of another type', withPath(contentUploaded, ['content', 0, 'type'], 'video'), false],
  ['content part not an object', withPath(contentUploaded, ['content', 0], 'text'), false],
  ['content part with an extra field', withPath(contentUploaded, ['content', 0, 'extra'], 1), false],
  ['text part without key', withPath(contentUploaded, ['content', 0, 'key'], undefined), true],
  ['text part with a null key', withPath(contentUploaded, ['content', 0, 'key'], null), false],
  ['image part with a relative url', withPath(contentUploaded, ['content', 1, 'source', 'url'], '/x.jpg'), false],
  ['image source of type file', withPath(contentUploaded, ['content', 1, 'source', 'type'], 'file'), false],
  ['image source with an extra field', withPath(contentUploaded, ['content', 1, 'source', 'x'], 1), false],
  ['image part with a text field', withPath(contentUploaded, ['content', 1, 'text'], 'x'), false],
  ['metadata empty', withField(account, 'metadata', {}), true],
  ['metadata an array', withField(account, 'metadata', []), false],
  ['metadata null value', withField(account, 'metadata', { a: null }), false],
  ['metadata nested object', withField(account, 'metadata', { a: { b: 1 } }), false],
  ['metadata array of arrays', withField(account, 'metadata', { a: [[1]] }), false],
  ['metadata empty array', withField(account, 'metadata', { a: [] }), true],
  ['metadata Infinity (1e400 in JSON)', parsed(JSON.stringify(withField(account, 'metadata', { a: 1 })).replace('"a":1', '"a":1e400')), false],
  ['metadata an own __proto__ of null', parsed(JSON.stringify(withField(account, 'metadata', { a: 1 })).replace('"a":1', '"__proto__":null')), true],
  ['metadata a key "constructor"', withField(account, 'metadata', { constructor: 'x' }), true],
  ['client_info empty', withField(account, 'client_info', {}), true],
  ['client_info bad ip', withField(account, 'client_info', { ip: '999.0.0.1' }), false],
  ['client_info IPv6', withField(account, 'client_info', { ip: '::1' }), true],
  ['client_info extra field', withField(account, 'client_info', { ip: '::1', port: 1 }), false],
  ['resource id without namespace', withField(account, 'resources_used', [{ type: 'id', value: 'v' }]), false],
  ['resource email with namespace', withField(account, 'resources_used', [{ type: 'email', namespace: 'n', value: 'v' }]), false],
  ['resource url not a url', withField(account, 'resources_used', [{ type: 'url', value: 'nope' }]), false],
  ['resource type not snake_case', withField(account, 'resources_used', [{ type: 'E-mail', value: 'v' }]), false],
  ['resources empty', withField(account, 'resources_used', []), true],
  ['resources an object', withField(account, 'resources_used', {}), false],
  ['product_changed with a snake_case event_name of another kind', withField(product, 'event_name', 'product_deleted'), false],
  ['product_changed updated', withField(product, 'event_name', 'product_updated'), true],
  ['price amount with a sign', withPath(product, ['product', 'price', 'amount'], '-1.00'), false],
  ['price amount ending in a dot', withPath(product, ['product', 'price', 'amount'], '1.'), false],
  ['price currency lower-case', withPath(product, ['product', 'price', 'currency'], 'eur'), false],
  ['price currency unknown', withPath(product, ['product', 'price', 'currency'], 'XYZ'), false],
  ['product without price', withPath(product, ['product', 'price'], undefined), false],
  ['shipping_info empty', withPath(product, ['product', 'shipping_info'], {}), true],
  ['ships_to with a number', withPath(product, ['product', 'shipping_info', 'ships_to'], ['DE', 1]), false],
  ['moderation_decision with user_id', withField(decision, 'user_id', 'u1'), false],
  ['moderation_decision with user_id null', withField(decision, 'user_id', null), false],
  ['moderation_decision of an unknown source_type', withField(decision, 'source_type', 'robot'), false],
  ['moderation_decision labels empty', withField(decision, 'labels', []), true],
  ['moderation_decision labels a string', withField(decision, 'labels', 'spam'), false],
  ['user_report target_user_id empty', withField(report, 'target_user_id', ''), false],
  ['user_report target_content_id absent', withField(report, 'target_content_id', undefined), true],
  ['user_contact with product', withField(example('user_contact'), 'product', product.product), false],
];

/** mulberry32: a small seeded generator, so a failure is reproduced by its seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = [
  '', ' ', 'x', 'X', 'snake_case', 'Snake', 'a__b', '1abc', '_a', 'https://example.com/x', 'not a url', 'mailto:a@b.c', '203.0.113.7', '::1', '999.1.1.1',
  'EUR', 'eur', 'XYZ', 'JPY', '19.99', '19.', '.5', '-1', '0', '2026-08-11T09:30:00Z', '2026-08-11T09:30:00+02:00', '2026-08-11T09:30:00-23:59',
  '2026-08-11T09:30Z', '2024-02-29T00:00:00.5Z', '2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-08-11 09:30:00Z', 'id', 'url', 'email', 'text',
  'image', 'product_created', 'product_updated', 'automation', 'vendor', '__proto__', 'constructor', ...EVENT_TYPES,
];
const FIELDS = [
  'type', 'event_name', 'timestamp', 'user_id', 'target_user_id', 'target_content_id', 'content', 'content_id', 'idempotency_key', 'metadata',
  'resources_used', 'client_info', 'product', 'price', 'discounted_price', 'shipping_info', 'ships_from', 'ships_to', 'amount', 'currency', 'labels',
  'source_id', 'source_type', 'namespace', 'value', 'ip', 'key', 'text', 'source', 'url', 'unknown_field', 'toString', 'constructor', '__proto__',
];

function randomValue(next: () => number, depth = 0): unknown {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const roll = next();
  if (roll < 0.45) return pick(STRINGS);
  if (roll < 0.6) return pick([null, true, false, 0, -1, 1.5, 1e21, Infinity, NaN]);
  if (roll < 0.75 || depth > 1) return pick([{}, [], ['a'], [1, 'b', true], [[1]], { type: 'text', text: 'x' }, { type: 'url', url: 'https://a.example' }, { type: 'id', namespace: 'n', value: 'v' }, { amount: '1', currency: 'EUR' }, { ip: '::1' }]);
  if (roll < 0.88) return Array.from({ length: Math.floor(next() * 3) }, () => randomValue(next, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(next() * 3) }, () => [pick(FIELDS), randomValue(next, depth + 1)]));
}

/** Every object or array inside the event (itself included), to mutate one of them. */
function containers(value: unknown, found: Array<Fields | unknown[]> = []): Array<Fields | unknown[]> {
  if (value !== null && typeof value === 'object') {
    found.push(value as Fields | unknown[]);
    for (const child of Object.values(value)) containers(child, found);
  }
  return found;
}

/** An example of a random variant with 0–3 random changes: a field removed, replaced or added, at any depth. */
function randomEvent(next: () => number): unknown {
  const event = example(EVENT_TYPES[Math.floor(next() * EVENT_TYPES.length)]!);
  const changes = Math.floor(next() * 4);
  for (let change = 0; change < changes; change++) {
    const all = containers(event);
    const target = all[Math.floor(next() * all.length)]!;
    const keys = Object.keys(target);
    const key = next() < 0.3 || keys.length === 0 ? (Array.isArray(target) ? target.length : FIELDS[Math.floor(next() * FIELDS.length)]!) : keys[Math.floor(next() * keys.length)]!;
    if (next() < 0.25 && !Array.isArray(target)) delete (target as Fields)[key];
    else if (key === '__proto__') Object.defineProperty(target, key, { value: randomValue(next), enumerable: true, writable: true, configurable: true });
    else (target as Record<string | number, unknown>)[key] = randomValue(next);
  }
  return event;
}

describe('the fast event check agrees with the zod schema', () => {
  it('builds the datetime pattern zod uses for z.iso.datetime({ offset: true })', () => {
    assert.equal(DATETIME_WITH_OFFSET.source, z.core.regexes.datetime({ offset: true }).source);
  });

  for (const [what, value, valid] of EDGE_CASES) {
    it(`${valid ? 'accepts' : 'refuses'} ${what}, as zod does`, () => {
      assert.equal(assertAgree(value, what), valid, `zod ${valid ? 'refuses' : 'accepts'} it`);
    });
  }

  it('on 20,000 seeded random events, about half of them valid', () => {
    const next = random(14);
    let valid = 0;
    for (let n = 0; n < 20_000; n++) if (assertAgree(randomEvent(next), `random event ${n} (seed 14)`)) valid++;
    assert.ok(valid > 2_000 && valid < 18_000, `${valid} of 20,000 valid: the generator must give both kinds`);
  });

  it('leaves the explanation to zod: a refused event gets the messages it always got', () => {
    const event = withField(account, 'user_id', '');
    assert.deepEqual(eventProblems(event, { allowUnknownTypes: false }), explainedProblems(event, { allowUnknownTypes: false }));
    assert.deepEqual(eventProblems(account, { allowUnknownTypes: false }), []);
  });
});
