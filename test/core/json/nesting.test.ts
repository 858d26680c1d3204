import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_JSON_NESTING, MAX_REQUEST_NESTING, nestingProblem, parseDocument, parseRecordAt } from '../../../src/core/json/nesting.js';
import { JsonLinesChecker } from '../../../src/core/input/jsonl-checker.js';

test('nesting is counted by a scan of the text: brackets in strings and escaped quotes do not count', () => {
  assert.equal(MAX_JSON_NESTING, 64);
  assert.equal(MAX_REQUEST_NESTING, 66, 'a record at the limit inside the envelope of a request');
  assert.equal(nestingProblem(`${'['.repeat(64)}${']'.repeat(64)}`), undefined);
  assert.match(nestingProblem(`${'['.repeat(65)}${']'.repeat(65)}`)!, /nested deeper than 64 levels/);
  assert.match(nestingProblem(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`)!, /nested deeper than 64 levels/);
  assert.equal(nestingProblem(`["${'['.repeat(100)}"]`), undefined);
  assert.equal(nestingProblem(`["\\"${'['.repeat(100)}"]`), undefined, 'an escaped quote does not end the string');
  assert.match(nestingProblem(`["\\\\"${'['.repeat(100)}`)!, /nested deeper/, 'an escaped backslash does');
  assert.match(nestingProblem('['.repeat(1_000_000))!, /nested deeper/, 'a million levels, no stack overflow');
});

test('a record is parsed up to the limit, and refused one level deeper, with its line', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  assert.deepEqual(parseRecordAt(nested(MAX_JSON_NESTING), 3), { line: 3, value: JSON.parse(nested(MAX_JSON_NESTING)) });
  assert.deepEqual(parseRecordAt(nested(MAX_JSON_NESTING + 1), 3), { line: 3, text: nested(MAX_JSON_NESTING + 1), error: 'nested deeper than 64 levels of arrays and objects' });
});

test("a document of several lines (a flag's @FILE) is parsed up to the limit, and refused past it naming the line where it first goes too deep", () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  assert.deepEqual(parseDocument(`{\n  "a": ${nested(MAX_JSON_NESTING - 1)}\n}\n`), { line: 1, value: { a: JSON.parse(nested(MAX_JSON_NESTING - 1)) } });
  const deep = `{\n  "note": "[[[[ not counted",\n  "a": ${nested(MAX_JSON_NESTING)}\n}\n`;
  assert.deepEqual(parseDocument(deep), { line: 3, text: deep, error: 'nested deeper than 64 levels of arrays and objects' });
  const deepFirst = `${nested(MAX_JSON_NESTING + 1)}\n\n\n`;
  assert.deepEqual(parseDocument(deepFirst), { line: 1, text: deepFirst, error: 'nested deeper than 64 levels of arrays and objects' });
  const sixtyFourThenDeeper = `${'['.repeat(63)}\n[\n[\n`;
  assert.equal(parseDocument(sixtyFourThenDeeper).line, 3, 'the line of the 65th level, not of the 64th');
  const deepLater = `[\n[\n${'['.repeat(200_000)}\n\n`;
  assert.equal(parseDocument(deepLater).line, 3, 'counted up to where it goes too deep, not to the end');
});

test('a record 100,000 deep is refused before anything walks it, valid JSON or not', () => {
  for (const text of [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, '['.repeat(100_000), `{"a":${'{"a":'.repeat(100_000)}`]) {
    assert.match((parseRecordAt(text, 7) as { error: string }).error, /^nested deeper than 64 levels/);
  }
});

test('the JSON Lines checker refuses a deep line with its number, as the reader does', () => {
  const problems: Array<[number, string]> = [];
  const checker = new JsonLinesChecker({ problemOf: () => undefined, hint: '' }, (line, problem) => problems.push([line, problem]));
  checker.feed(Buffer.from(`{"a":1}\n\n{"b":${'['.repeat(5_000)}${']'.repeat(5_000)}}\n`));
  checker.end();
  assert.deepEqual(problems, [[3, 'nested deeper than 64 levels of arrays and objects']]);
});
