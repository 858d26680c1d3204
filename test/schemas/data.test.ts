import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dataObjectProblem, isDataObject } from '../../src/schemas/data.js';

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
