import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { mapInOrder } from '../../src/core/concurrency.js';
import { InputError } from '../../src/core/errors.js';
import { detectImageType, decodeText } from '../../src/core/input-files.js';
import { inputSource, readRecords } from '../../src/core/readers.js';
import { tempDir } from '../helpers/cli.js';

const collect = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

/** core/record-reader reads; readRecords opens the file or stdin and names it in what stops the read. */
describe('readRecords', () => {
  const dir = tempDir();
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return inputSource(path, Readable.from([]));
  };
  const refused = (message: string, hint?: string) => (error: unknown) => {
    assert.ok(error instanceof InputError, String(error));
    assert.equal(error.message, message);
    assert.equal(error.hint, hint);
    return true;
  };

  it('reads a file in any shape, or one record a line with jsonLines', async () => {
    const pretty = file('pretty.json', '{\n  "a": 1\n}\n');
    assert.deepEqual(await collect(readRecords(pretty)), [{ line: 1, value: { a: 1 } }]);
    assert.deepEqual((await collect(readRecords(pretty, { jsonLines: true }))).map((record) => 'error' in record), [true, true, true]);
  });

  it('names the input and the line of a line over the limit, with what to do', async () => {
    const source = file('long.jsonl', `{}\n{"a":"${'x'.repeat(10 * 1024 * 1024)}"}\n`);
    await assert.rejects(collect(readRecords(source)), refused(`${source.name}:2: line is longer than 10 MB`, 'each record must be one JSON object on its own line'));
  });

  it('names the input when it holds no record', async () => {
    const empty = file('empty.jsonl', '\n\n');
    await assert.rejects(collect(readRecords(empty, { jsonLines: true })), refused(`${empty.name}: is empty, expected at least one JSON record`));
    const none = file('none.json', '[]');
    await assert.rejects(collect(readRecords(none)), refused(`${none.name}: holds no records, expected at least one JSON record`));
  });

  it('names a missing file, and stdin as stdin', async () => {
    const missing = inputSource(join(dir, 'nope.json'), Readable.from([]));
    await assert.rejects(collect(readRecords(missing)), refused(`${missing.name}: no such file`));
    await assert.rejects(collect(readRecords(inputSource('-', Readable.from([])))), refused('stdin: is empty, expected at least one JSON record'));
  });
});

describe('input files', () => {
  it('detects images by magic bytes', () => {
    assert.equal(detectImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'image/png');
    assert.equal(detectImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
    assert.equal(detectImageType(Buffer.from('GIF89a')), 'image/gif');
    assert.equal(detectImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
    assert.equal(detectImageType(Buffer.from('hello')), undefined);
  });

  it('accepts UTF-8 text and refuses binary', () => {
    assert.equal(decodeText(Buffer.from('héllo')), 'héllo');
    assert.equal(decodeText(Buffer.from([0xff, 0xfe, 0x00])), undefined);
    assert.equal(decodeText(Buffer.from([0xc3, 0x28])), undefined);
  });
});

describe('mapInOrder', () => {
  it('yields in input order with at most `limit` in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const work = async (n: number) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, (7 - (n % 7)) * 2));
      inFlight--;
      if (n === 5) throw new Error('five');
      return n * 10;
    };
    const out = await collect(mapInOrder(Readable.from(Array.from({ length: 20 }, (_, i) => i)), 4, work));
    assert.deepEqual(out.map((o) => o.item), Array.from({ length: 20 }, (_, i) => i));
    assert.equal(out[5]!.outcome.ok, false);
    assert.deepEqual(out[6]!.outcome, { ok: true, value: 60 });
    assert.ok(peak <= 4, `peak ${peak}`);
  });
});
