import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { mapInOrder } from '../../src/core/concurrency.js';
import { detectImageType, decodeText } from '../../src/core/input-files.js';
import { readJsonLines, readLines, type InputSource } from '../../src/core/readers.js';

const source = (text: string | Buffer, name = 'items.jsonl'): InputSource => ({ name, open: () => Readable.from([Buffer.from(text)]) });
const collect = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

describe('readers', () => {
  it('numbers lines, tolerating a BOM, CRLF and blank lines', async () => {
    const lines = await collect(readLines(source('\uFEFF{"a":1}\r\n\r\n{"b":2}\r\n')));
    assert.deepEqual(lines, [{ line: 1, text: '{"a":1}' }, { line: 3, text: '{"b":2}' }]);
  });

  it('reports invalid JSON with its line and column, and goes on', async () => {
    const records = await collect(readJsonLines(source('{"a":1}\n{"a": tru}\n{"c":3}')));
    assert.equal(records.length, 3);
    assert.deepEqual(records[0], { line: 1, value: { a: 1 } });
    assert.equal(records[1]!.line, 2);
    assert.match((records[1] as { error: string }).error, /invalid JSON at column \d+/);
    assert.deepEqual(records[2], { line: 3, value: { c: 3 } });
  });

  it('refuses a line longer than the bound instead of buffering it', async () => {
    const text = '{"a":1}\n' + 'x'.repeat(5000) + '\n';
    await assert.rejects(collect(readLines(source(text), 1024)), /items\.jsonl:2: line is longer than/);
  });

  it('calls empty input an error', async () => {
    await assert.rejects(collect(readJsonLines(source('\n\n'))), /items\.jsonl: is empty/);
  });

  it('names a missing file', async () => {
    const missing: InputSource = { name: 'nope.jsonl', open: () => Readable.from((async function* () { throw Object.assign(new Error('x'), { code: 'ENOENT' }); })()) };
    await assert.rejects(collect(readLines(missing)), /nope\.jsonl: no such file/);
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

describe('jsonErrorOffset', () => {
  it('finds the offset of the first syntax error, and none for valid JSON', async () => {
    const { jsonErrorOffset } = await import('../../src/core/json-position.js');
    assert.equal(jsonErrorOffset('{"a": tru}'), 9);
    assert.equal(jsonErrorOffset('{"a":1,}'), 7);
    assert.equal(jsonErrorOffset('{"a":1} x'), 8);
    assert.equal(jsonErrorOffset('[1, 2'), 5);
    assert.equal(jsonErrorOffset('"bad \\q"'), 6);
    for (const valid of ['{"a":[1,-2.5e3,true,false,null,"x\\u00e9"]}', ' [] ', '"s"', '0']) assert.equal(jsonErrorOffset(valid), undefined, valid);
  });
});

describe('parseJsonAt', () => {
  it('locates an error in a multi-line text by its own line and column, without echoing the text', async () => {
    const { parseJsonAt } = await import('../../src/core/json-scan.js');
    const record = parseJsonAt('{\n  "a": 1,\n  "b": tru\n}', 7);
    assert.equal(record.line, 9);
    assert.equal((record as { error: string }).error, "invalid JSON at column 11: Unexpected token '\\n'");
    assert.deepEqual(parseJsonAt('{"a":1}', 3), { line: 3, value: { a: 1 } });
  });
});
