import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonLinesChecker, toJsonLines } from '../../../src/core/input/jsonl-checker.js';
import { RecordReadError } from '../../../src/core/input/lines.js';
import { ObjectLines } from '../../../src/core/json/scan.js';

const ARRAY_HINT = "make it JSON Lines with `jq -c '.[]' objects.json > objects.jsonl`";

/** The problems a checker reports for the chunks, and what it threw, if anything. */
function check(chunks: string[], arrayHint?: string): { problems: Array<[number, string]>; thrown?: unknown } {
  const problems: Array<[number, string]> = [];
  const checker = new JsonLinesChecker({ problemOf: (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'expected an object'), hint: '', arrayHint }, (line, problem) =>
    problems.push([line, problem]),
  );
  try {
    for (const chunk of chunks) checker.feed(Buffer.from(chunk));
    checker.end();
    return { problems };
  } catch (thrown) {
    return { problems, thrown };
  }
}

describe('JsonLinesChecker and a file that is a JSON array', () => {
  it('refuses it at once, with the hint, when its first byte past white space and a BOM is [', () => {
    for (const chunks of [['[{"id":"d-1"},\n{"id":"d-2"}]\n'], ['\n  \n', '\t[', '{"id":"d-1"}]'], ['\uFEFF[\n{"id":"d-1"}\n]']]) {
      const { problems, thrown } = check(chunks, ARRAY_HINT);
      assert.ok(thrown instanceof RecordReadError, `${JSON.stringify(chunks)}: ${String(thrown)}`);
      assert.equal(thrown.message, 'is a JSON array, expected JSON Lines: one JSON object per line');
      assert.equal(thrown.hint, ARRAY_HINT);
      assert.equal(thrown.line, undefined);
      assert.deepEqual(problems, [], 'no error a line');
    }
  });

  it('checks it a line at a time when the command gave no hint, and a [ on a later line is a line like any other', () => {
    assert.deepEqual(check(['[1]\n{"id":"d-1"}\n']).problems, [[1, 'expected an object']]);
    const later = check(['{"id":"d-1"}\n', '[1]\n'], ARRAY_HINT);
    assert.equal(later.thrown, undefined);
    assert.deepEqual(later.problems, [[2, 'expected an object']]);
  });
});

describe('toJsonLines', () => {
  it('says how to make the file JSON Lines with jq, quoting a name the shell would split, or to pipe stdin through jq', () => {
    assert.equal(toJsonLines('objects.json', 'objects.jsonl'), "make it JSON Lines with `jq -c '.[]' objects.json > objects.jsonl`");
    assert.equal(toJsonLines('my objects.json', 'my-objects.jsonl'), "make it JSON Lines with `jq -c '.[]' 'my objects.json' > my-objects.jsonl`");
    assert.equal(toJsonLines('stdin', 'x.jsonl'), "pipe it through `jq -c '.[]'` first");
  });
});

describe('JsonLinesChecker with a fast check', () => {
  const withId = (value: unknown) => (typeof (value as { id?: unknown } | null)?.id === 'string' ? undefined : 'expected an id');

  it('counts the lines the fast check accepted as records: a file of them is not empty', () => {
    const problems: Array<[number, string]> = [];
    const checker = new JsonLinesChecker({ problemOf: withId, hint: '', fast: new ObjectLines('id') }, (line, problem) => problems.push([line, problem]));
    assert.equal(checker.anyRecordSeen, false);
    checker.feed(Buffer.from('{"id":"a"}\n{"id":"b"}\n'));
    assert.equal(checker.anyRecordSeen, true);
    assert.equal(checker.lines, 2);
    checker.end();
    assert.deepEqual(problems, []);
  });

  it('has seen no record in blank lines, and refuses them at the end', () => {
    const checker = new JsonLinesChecker({ problemOf: withId, hint: '', fast: new ObjectLines('id') }, () => undefined);
    checker.feed(Buffer.from('\n  \n\t\n'));
    assert.equal(checker.anyRecordSeen, false);
    assert.equal(checker.lines, 3);
    assert.throws(() => checker.end(), RecordReadError);
  });
});
