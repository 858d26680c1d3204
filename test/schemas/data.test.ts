import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../src/emulator/http/faults.js';
import { dataObjectProblem, dataObjectSchema, isDataObject } from '../../src/schemas/data.js';

describe('dataObjectProblem', () => {
  it('says the same of every value that is not an object', () => {
    for (const value of [[1], [{ id: 'a' }], 'x', 3, true, null, undefined]) {
      assert.equal(dataObjectProblem(value), 'expected a JSON object with a string "id"', JSON.stringify(value));
    }
  });

  it('names the id problem: missing, not a string, empty', () => {
    assert.equal(dataObjectProblem({ title: 'x' }), 'id: missing; every object needs its own "id", a non-empty string');
    assert.equal(dataObjectProblem({ id: 7 }), 'id: expected a string id');
    assert.equal(dataObjectProblem({ id: '' }), 'id: expected a non-empty string id');
  });

  it('passes an object with a string id, whatever else it holds', () => {
    assert.equal(dataObjectProblem({ id: 'a', any: [1], nested: { id: 3 } }), undefined);
    assert.equal(isDataObject({ id: 'a' }), true);
    assert.equal(isDataObject({ id: 3 }), false);
    assert.equal(isDataObject([{ id: 'a' }]), false);
  });
});

describe('isDataObject, the hand-written check, and dataObjectSchema', () => {
  const agree = (value: unknown) => {
    const text = JSON.stringify(value) ?? String(value);
    assert.equal(isDataObject(value), dataObjectSchema.safeParse(value).success, text);
    // A refusal is explained by zod, with its message; an acceptance has none.
    assert.equal(dataObjectProblem(value) === undefined, isDataObject(value), text);
  };

  it('agree on a table of edge cases', () => {
    const table: unknown[] = [
      ...[null, undefined, 0, 1, -1, '', 'id', true, false, [], [{ id: 'a' }], ['id']],
      ...[{}, { id: '' }, { id: ' ' }, { id: 'a' }, { id: '\u0000' }, { id: '\uFFFD' }, { id: '\uD800' }, { id: '😀' }],
      ...[{ id: 0 }, { id: 1 }, { id: null }, { id: true }, { id: [] }, { id: ['a'] }, { id: {} }, { id: { id: 'a' } }],
      ...[{ ID: 'a' }, { Id: 'a' }, { ' id': 'a' }, { 'id ': 'a' }, { text: 'a' }, { id: 'a', extra: { deep: [[[]]] } }],
      JSON.parse('{"__proto__": {"id": "a"}}'),
      JSON.parse('{"__proto__": null, "id": "a"}'),
      JSON.parse('{"constructor": "x", "id": "a"}'),
      JSON.parse('{"id": "a", "id": ""}'),
      JSON.parse('{"id": "", "id": "a"}'),
      JSON.parse('{"\\u0069d": "a"}'),
      Object.create(null),
      Object.assign(Object.create(null), { id: 'a' }),
    ];
    for (const value of table) agree(value);
  });

  it('agree on seeded random JSON values', () => {
    const random = mulberry32(14);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const scalars = () => pick<unknown>([null, 0, -1.5, 7, true, false, '', 'a', ' ', 'id', '\u00e9', '\uD83D']);
    const value = (depth: number): unknown => {
      const kind = depth > 2 ? 0 : Math.floor(random() * 4);
      if (kind === 0) return scalars();
      if (kind === 1) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      return record(depth + 1);
    };
    const record = (depth: number) => {
      const keys = ['id', 'ID', 'text', 'title', '__proto__', 'constructor', ''];
      const entries = Array.from({ length: Math.floor(random() * 4) }, () => `${JSON.stringify(pick(keys))}:${JSON.stringify(value(depth))}`);
      // Built as text and parsed, as an import line is: a "__proto__" key is then an own property.
      return JSON.parse(`{${entries.join(',')}}`) as unknown;
    };
    for (let i = 0; i < 5000; i++) agree(random() < 0.8 ? record(0) : value(0));
  });

  it('reads nothing but "id" of an object it accepts: zod, which looks at every key, does not run', () => {
    const looked: PropertyKey[] = [];
    const watched = new Proxy({ id: 'a', text: 'b' }, {
      get: (target, key) => (looked.push(key), Reflect.get(target, key)),
      ownKeys: (target) => (looked.push('(ownKeys)'), Reflect.ownKeys(target)),
    });
    assert.equal(dataObjectProblem(watched), undefined);
    assert.deepEqual([...new Set(looked)], ['id']);
  });
});
