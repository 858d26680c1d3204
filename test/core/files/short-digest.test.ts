import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fnv1a } from '../../../src/core/files/short-digest.js';

describe('fnv1a, the short digest in the names of code caches and spools', () => {
  it("gives FNV-1a's published 32-bit values for ASCII text, as an unsigned number", () => {
    assert.equal(fnv1a(''), 0x811c9dc5);
    assert.equal(fnv1a('a'), 0xe40c292c);
    assert.equal(fnv1a('foobar'), 0xbf9cf968);
  });

  it('tells apart names that differ in one character, and is the same every time', () => {
    const names = ['data add', 'data import', 'classify', '', 'data adD'];
    assert.equal(new Set(names.map(fnv1a)).size, names.length);
    assert.equal(fnv1a('data add'), fnv1a('data add'));
  });
});
