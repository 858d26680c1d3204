import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { readJsonRecords } from '../../src/core/input/json-records.js';
import { MAX_LINE_BYTES, RecordReadError } from '../../src/core/input/lines.js';
import { mulberry32 } from '../../src/emulator/http/faults.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkImportFile } from '../../src/emulator/data/import-file.js';
import { JsonLinesReader } from '../../src/emulator/storage/jsonl-file.js';
import { tempDir } from '../helpers/cli.js';

const problemOf = (value: unknown) => (typeof value === 'object' && value !== null && 'bad' in value ? 'bad record' : undefined);

/** What the emulator's import check said before JsonLinesReader: core/input/json-records, one record a line (its parse checks the nesting limit). */
async function reference(bytes: Buffer): Promise<string> {
  let count = 0;
  try {
    const records = readJsonRecords(Readable.from([bytes]), { jsonLines: true, allowEmpty: true });
    for await (const record of records) {
      const problem = 'error' in record ? record.error : problemOf(record.value);
      if (problem !== undefined) return `line ${record.line}: ${problem}`;
      count++;
    }
  } catch (error) {
    if (error instanceof RecordReadError) return `line ${error.line}: ${error.message}`;
    throw error;
  }
  return `${count} records`;
}

/** JsonLinesReader over the bytes cut into pieces of `size`, each piece in a buffer that is overwritten once pushed. */
function readInPieces(bytes: Buffer, size: number): string {
  const reader = new JsonLinesReader(problemOf);
  const reused = Buffer.alloc(size);
  for (let at = 0; at < bytes.length; at += size) {
    const length = bytes.copy(reused, 0, at, at + size);
    const problem = reader.push(reused.subarray(0, length));
    reused.fill(0x7b);
    if (problem !== undefined) return problem;
  }
  return reader.end() ?? `${reader.count} records`;
}

const CASES: Record<string, string | Buffer> = {
  empty: '',
  'blank lines only': '\n \n\t\r\n',
  'objects, no final newline': '{"id":"a"}\n{"id":"b"}',
  'BOM, CRLF, blank lines keep their numbers': '\uFEFF{"id":"a"}\r\n\r\n  \n{"id":"b"}\r\n',
  'a BOM on a later line is not dropped': '{"id":"a"}\n\uFEFF{"id":"b"}\n',
  'unicode spaces are no blank line (JSON.parse refuses them)': '{"id":"a"}\n\u00A0\u2028\uFEFF\n{"id":"b"}\n',
  'invalid JSON names its line': '{"id":"a"}\n\n{"id": }\n{"id":"c"}\n',
  'a record refused by the check': '{"id":"a"}\n{"bad":1}\n',
  'too deep': `{"id":"a"}\n${'['.repeat(65)}${']'.repeat(65)}\n`,
  'too deep and not JSON: the depth is named': `${'['.repeat(65)}\n`,
  'deep inside a string is not deep': `["${'['.repeat(100)}"]\n`,
  'escaped quotes': '["\\"[[[", "\\\\"]\n{"id":"\\\\\\""}\n',
  'multi-byte text': '{"id":"é😀ü","text":"日本語"}\n{"id":"x"}\n',
  'a lone CR is part of the line': '{"id":"a"}\r\r\n{"id":"b"}\r',
  'not UTF-8': Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xff, 0xc3]), Buffer.from('"}\n{"id":"b"}\n')]),
  'not UTF-8 outside a string': Buffer.concat([Buffer.from('{"id":"a"}'), Buffer.from([0xe2, 0x82]), Buffer.from('\n')]),
  'a pretty-printed object is several bad lines': '{\n  "id": "a"\n}\n',
};

describe('JsonLinesReader (the emulator reading an upload)', () => {
  it('says what core/input/json-records says, whatever the chunks the file is read in', async () => {
    for (const [name, input] of Object.entries(CASES)) {
      const bytes = Buffer.isBuffer(input) ? input : Buffer.from(input);
      const expected = await reference(bytes);
      for (const size of [1, 2, 3, 5, 7, 64, 1 << 20]) assert.equal(readInPieces(bytes, size), expected, `${name}, pieces of ${size}`);
    }
  });

  it('agrees with core/input/json-records on seeded random files', async () => {
    const random = mulberry32(14);
    const pieces = ['{"id":"a"}', '{"bad":1}', '{"id":', '"', '\\', '[', ']', '{', '}', ' ', '\r', '\n', '\n', '\n', '\uFEFF', 'é', '1', ','];
    for (let i = 0; i < 400; i++) {
      const text = Array.from({ length: Math.floor(random() * 40) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const bytes = Buffer.from(random() < 0.5 ? text : `${'['.repeat(60)}${text}`);
      const expected = await reference(bytes);
      assert.equal(readInPieces(bytes, 1 + Math.floor(random() * 16)), expected, JSON.stringify(text));
    }
  });

  it('refuses a line over the limit as core/input/json-records does, at either end of a chunk', async () => {
    const long = Buffer.from(`{"id":"a"}\n{"id":"${'x'.repeat(MAX_LINE_BYTES - 9)}"}\r\n{"id":"${'x'.repeat(MAX_LINE_BYTES)}"}`);
    const expected = await reference(long);
    assert.equal(expected, 'line 3: line is longer than 10 MiB');
    for (const size of [1 << 20, 3 << 20, 12 << 20]) assert.equal(readInPieces(long, size), expected);
    const last = Buffer.from(`{"id":"${'x'.repeat(MAX_LINE_BYTES - 9)}"}`);
    assert.equal(readInPieces(last, 1 << 20), await reference(last));
  });

  it('checks every line of a chunk in one synchronous loop: the records are visited before push returns', () => {
    const seen: number[] = [];
    const reader = new JsonLinesReader((_value, line) => void seen.push(line));
    assert.equal(reader.push(Buffer.from('{"id":"a"}\n\n{"id":"b"}\n{"id":')), undefined);
    assert.deepEqual(seen, [1, 3]);
    assert.equal(reader.push(Buffer.from('"c"}')), undefined);
    assert.equal(reader.end(), undefined);
    assert.deepEqual(seen, [1, 3, 4]);
  });

  it("counts the lines csafe's fast check is sure of unparsed, with the outcome of parsing every line", () => {
    const dir = tempDir();
    const random = mulberry32(22);
    const odd = ['', '\r', ' ', '{"id":""}', '{"id":7}', '{ "id":"spaced", "n":1 }', '{"id":"a","n":01}', '{"id":"x","deep":' + '['.repeat(70) + ']'.repeat(70) + '}', '{"id":"é","n":1}', '[{"id":"a"}]', '{"id":"a"'];
    const files = [...Object.values(CASES).map((input) => (Buffer.isBuffer(input) ? input : Buffer.from(input)))];
    for (let file = 0; file < 30; file++) {
      const lines = Array.from({ length: 500 + Math.floor(random() * 3_000) }, (_, n) =>
        random() < (file % 2 === 0 ? 0.999 : 0.97) ? `{"id":"d-${n}","title":"listing ${n}","n":${n % 7},"ok":${n % 2 === 0}}` : odd[Math.floor(random() * odd.length)]!,
      );
      files.push(Buffer.from(`${lines.join(random() < 0.2 ? '\r\n' : '\n')}\n`));
    }
    let counted = 0;
    files.forEach((bytes, n) => {
      const path = join(dir, `upload-${n}.jsonl`);
      writeFileSync(path, bytes);
      const exact = checkImportFile(path, () => undefined);
      assert.deepEqual(checkImportFile(path, undefined), exact, `file ${n}`);
      if ('data_count' in exact) counted += exact.data_count;
    });
    assert.ok(counted > 10_000, `only ${counted} records in files that passed`);
  });

  it("checks an import file in the worker's thread without an await: the outcome is there when the call returns", () => {
    const path = join(tempDir(), 'upload.jsonl');
    writeFileSync(path, '{"id":"a"}\n{"id":"b","photo":"x"}\n');
    assert.deepEqual(checkImportFile(path, () => undefined), { data_count: 2 });
    assert.deepEqual(checkImportFile(path, (object) => (object.id === 'b' ? 'no' : undefined)), { error: 'line 2: no' });
  });
});
