import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setOwnField } from '../../../src/core/json/own-field.js';

describe('setOwnField', () => {
  it('sets __proto__ as a field of its own, which JSON shows, and leaves the prototype alone', () => {
    const object: Record<string, unknown> = {};
    setOwnField(object, '__proto__', { polluted: true });
    assert.equal(Object.getPrototypeOf(object), Object.prototype);
    assert.equal(JSON.stringify(object), '{"__proto__":{"polluted":true}}');
    assert.deepEqual(Object.keys(object), ['__proto__']);
  });

  it('makes a field like one assigned: it can be set again, set anew and deleted', () => {
    const object: Record<string, unknown> = { a: 1 };
    setOwnField(object, 'b', 2);
    object.b = 3;
    assert.equal(object.b, 3);
    setOwnField(object, 'b', 4);
    assert.deepEqual(object, { a: 1, b: 4 });
    assert.equal(Reflect.deleteProperty(object, 'b'), true);
    assert.deepEqual(object, { a: 1 });
    assert.deepEqual(Object.getOwnPropertyDescriptor(setOwnField({}, 'k', 'v'), 'k'), { value: 'v', enumerable: true, writable: true, configurable: true });
  });
});
