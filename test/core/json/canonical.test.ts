import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { canonicalJson, contentKey, jsonString } from '../../../src/core/json/canonical.js';

/** JSON.stringify with the keys of every object sorted: what canonicalJson must equal. */
function sortedStringify(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.keys(inner).sort().map((key) => [key, (inner as Record<string, unknown>)[key]])) : inner,
  );
}

const STRINGS = ['', 'plain text', 'quote " and backslash \\', 'line\nbreak\ttab\u0000nul\u001f', 'lone \ud800 surrogate', '"', '\\', '\n', '\udfff', 'pair \ud83d\ude00 emoji', 'é ü 日本', '\u007f\u0080\u009f', '</script>'];

describe('canonicalJson', () => {
  it('writes objects with their keys sorted at every level, arrays in their order, everything else as JSON.stringify does', () => {
    const value = { b: 1, a: [3, { z: null, y: true }, 'x'], c: { e: -0.5, d: 'text' }, '': 1e21 };
    assert.equal(canonicalJson(value), '{"":1e+21,"a":[3,{"y":true,"z":null},"x"],"b":1,"c":{"d":"text","e":-0.5}}');
    assert.equal(canonicalJson(value), sortedStringify(value));
    assert.equal(canonicalJson({}), '{}');
    assert.equal(canonicalJson([]), '[]');
    assert.equal(canonicalJson([[], {}]), '[[],{}]');
    for (const scalar of [0, 1.5, -3, true, false, null]) assert.equal(canonicalJson(scalar), JSON.stringify(scalar));
  });

  it('gives equal text for equal values whatever their key order, and different text for different values', () => {
    assert.equal(canonicalJson({ a: 1, b: { c: 2, d: 3 } }), canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
    assert.notEqual(canonicalJson({ a: 1, b: 2 }), canonicalJson({ a: 2, b: 1 }));
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
  });

  it('leaves out the omitted key at the top level only', () => {
    assert.equal(canonicalJson({ id: 'x', a: 1, n: { id: 'inner' } }, 'id'), '{"a":1,"n":{"id":"inner"}}');
    assert.equal(canonicalJson({ id: 'x' }, 'id'), '{}');
    assert.equal(canonicalJson({ b: 2, id: 'x', a: 1 }, 'id'), '{"a":1,"b":2}', 'no comma left where the key was');
  });

  it('escapes strings and keys exactly as JSON.stringify does, and parses back to the same value', () => {
    for (const text of STRINGS) {
      assert.equal(jsonString(text), JSON.stringify(text), JSON.stringify(text));
      assert.equal(canonicalJson({ [text]: text }), `{${JSON.stringify(text)}:${JSON.stringify(text)}}`);
    }
    const value = Object.fromEntries(STRINGS.map((text, i) => [text, [i, text]]));
    assert.deepEqual(JSON.parse(canonicalJson(value)), value);
  });

  it('names keys right past the number it keeps written out', () => {
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`key-${String(i).padStart(4, '0')}`, i]));
    assert.equal(canonicalJson(wide), sortedStringify(wide));
    assert.equal(canonicalJson(wide), sortedStringify(wide), 'the second time, with the names kept');
  });
});

describe('contentKey', () => {
  it('is csafe- and 32 hex digits of the SHA-256 of the canonical JSON without the key field', () => {
    const key = contentKey({ user_id: 'u-1', type: 'login', idempotency_key: 'ignored' }, 'idempotency_key');
    assert.equal(key, `csafe-${createHash('sha256').update('{"type":"login","user_id":"u-1"}').digest('hex').slice(0, 32)}`);
    assert.equal(key, contentKey({ type: 'login', user_id: 'u-1' }, 'idempotency_key'), 'key order and the key field do not matter');
    assert.notEqual(key, contentKey({ type: 'login', user_id: 'u-2' }, 'idempotency_key'));
    assert.notEqual(contentKey({ a: 1, b: 2 }, 'b'), contentKey({ a: 1, b: 2 }, 'a'));
  });
});
