import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_JSON_DEPTH, nestingProblem } from '../../src/emulator/http/body.js';

test('nesting is counted by a scan of the text: brackets in strings and escaped quotes do not count', () => {
  assert.equal(MAX_JSON_DEPTH, 64);
  assert.equal(nestingProblem(`${'['.repeat(64)}${']'.repeat(64)}`), undefined);
  assert.match(nestingProblem(`${'['.repeat(65)}${']'.repeat(65)}`)!, /nested deeper than 64 levels/);
  assert.match(nestingProblem(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`)!, /nested deeper than 64 levels/);
  assert.equal(nestingProblem(`["${'['.repeat(100)}"]`), undefined);
  assert.equal(nestingProblem(`["\\"${'['.repeat(100)}"]`), undefined, 'an escaped quote does not end the string');
  assert.match(nestingProblem(`["\\\\"${'['.repeat(100)}`)!, /nested deeper/, 'an escaped backslash does');
  assert.match(nestingProblem('['.repeat(1_000_000))!, /nested deeper/, 'a million levels, no stack overflow');
});
