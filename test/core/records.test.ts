import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { inputSource, readRecords } from '../../src/core/readers.js';
import { tempDir } from '../helpers/cli.js';

const dir = tempDir();
let files = 0;

async function records(text: string | Buffer, maxRecordBytes?: number) {
  const path = join(dir, `input-${files++}`);
  writeFileSync(path, text);
  const out = [];
  for await (const record of readRecords(inputSource(path, Readable.from([])), maxRecordBytes)) out.push(record);
  return out;
}

describe('readRecords', () => {
  it('reads JSON Lines with their line numbers, skipping blank lines, tolerating a BOM and CRLF', async () => {
    assert.deepEqual(await records('\uFEFF{"a":1}\r\n\r\n{"b":2}\r\n'), [
      { line: 1, value: { a: 1 } },
      { line: 3, value: { b: 2 } },
    ]);
  });

  it('streams the elements of a JSON array with the line each starts on', async () => {
    const text = '\uFEFF  [\n  {"a": 1},\n  {"b":\n    "x,]"}, 3,\n  "s"\n]\n';
    assert.deepEqual(await records(text), [
      { line: 2, value: { a: 1 } },
      { line: 3, value: { b: 'x,]' } },
      { line: 4, value: 3 },
      { line: 5, value: 's' },
    ]);
  });

  it('reads a minified array on one line', async () => {
    assert.deepEqual(await records('[{"a":1},{"a":2}]'), [
      { line: 1, value: { a: 1 } },
      { line: 1, value: { a: 2 } },
    ]);
  });

  it('reads one object spread over several lines, and a stream of pretty-printed objects', async () => {
    assert.deepEqual(await records('{\n  "a": 1,\n  "b": [1, 2]\n}\n'), [{ line: 1, value: { a: 1, b: [1, 2] } }]);
    assert.deepEqual(await records('{\n "a": 1\n}\n{\n "b": 2\n}\n'), [
      { line: 1, value: { a: 1 } },
      { line: 4, value: { b: 2 } },
    ]);
  });

  it('reports invalid JSON with its line and column, and goes on', async () => {
    const out = await records('{"a":1}\n{"a":1 "b":2}\n{"c":3}\n');
    assert.deepEqual(out[0], { line: 1, value: { a: 1 } });
    assert.equal(out[1]!.line, 2);
    assert.match((out[1] as { error: string }).error, /^invalid JSON at column 8: /);
    assert.deepEqual(out[2], { line: 3, value: { c: 3 } });
  });

  it('judges a truncated last line of JSON Lines on its own', async () => {
    const out = await records('{"a":1}\n{"b":');
    assert.equal(out.length, 2);
    assert.equal(out[1]!.line, 2);
    assert.ok('error' in out[1]!);
  });

  it('locates an error inside an array element on its own line', async () => {
    const out = await records('[\n{"a":1},\n{"a":1 "b":2}\n]');
    assert.equal(out[1]!.line, 3);
    assert.match((out[1] as { error: string }).error, /column 8/);
  });

  it('reports an unclosed array, a trailing comma and text after the array', async () => {
    assert.match(JSON.stringify(await records('[1, {"a":2}')), /not closed/);
    assert.match(JSON.stringify(await records('[1,]')), /after the last comma/);
    assert.match(JSON.stringify(await records('[1] x')), /after the closing \]/);
  });

  it('refuses a line longer than the limit instead of buffering it', async () => {
    await assert.rejects(records(`{"a":"${'x'.repeat(2000)}"}\n`, 1000), /:1: line is longer than/);
  });

  it('refuses empty input and an empty array', async () => {
    await assert.rejects(records('  \n\n'), /is empty/);
    await assert.rejects(records('[ ]'), /no records/);
  });

  it('names a missing file', async () => {
    await assert.rejects(async () => {
      for await (const _ of readRecords(inputSource(join(dir, 'nope.json'), Readable.from([])))) void _;
    }, /nope\.json: no such file/);
  });
});
