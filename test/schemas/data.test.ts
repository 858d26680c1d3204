import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addDataRequestSchema, dataObjectProblem, isDataObject } from '../../src/schemas/data.js';
import { randomJsonTexts } from '../helpers/random-json.js';

/** zod's own verdict on a value as one data object, through the request schema that embeds the object schema. */
const zodAccepts = (value: unknown) => addDataRequestSchema.safeParse({ data: [value] }).success;

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

  it('accepts exactly what the zod schema accepts: a table of edge cases', () => {
    const table = [
      '{"id":"a"}', '{"id":""}', '{"id":" "}', '{"id":"\\u0000"}', '{"id":0}', '{"id":null}', '{"id":true}', '{"id":[]}', '{"id":{}}', '{"id":["a"]}',
      '{}', '{"ID":"a"}', '{"id ":"a"}', '{"id":"a","id":""}', '{"id":"","id":"a"}', '{"__proto__":{"id":"a"}}', '{"__proto__":"a","id":"b"}',
      '{"constructor":"a"}', '{"toString":"x","id":"😀"}', '{"id":"\\ud800"}', '[{"id":"a"}]', '[]', '"a"', '1', 'null', 'true',
    ];
    for (const text of table) {
      const value: unknown = JSON.parse(text);
      assert.equal(dataObjectProblem(value) === undefined, zodAccepts(value), text);
    }
  });

  it('accepts exactly what the zod schema accepts: 5,000 seeded random records', () => {
    let valid = 0;
    for (const text of randomJsonTexts(14, 5_000)) {
      const value: unknown = JSON.parse(text);
      const accepted = dataObjectProblem(value) === undefined;
      assert.equal(accepted, zodAccepts(value), text);
      if (accepted) valid++;
    }
    assert.ok(valid > 500 && valid < 4_500, `both verdicts are common (${valid} valid)`);
  });

  it('tells a valid object without zod, which would walk every key of it (issue 14: the check of every bulk record)', () => {
    let walked = 0;
    const watched = new Proxy({ id: 'a', text: 'hi', more: [1] }, {
      ownKeys: (target) => (walked++, Reflect.ownKeys(target)),
      getOwnPropertyDescriptor: (target, key) => (walked++, Reflect.getOwnPropertyDescriptor(target, key)),
    });
    assert.equal(dataObjectProblem(watched), undefined);
    assert.equal(walked, 0);
  });
});
