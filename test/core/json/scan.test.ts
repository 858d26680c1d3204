import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastRecordLines, LineCheck } from '../../../src/core/input/jsonl-checker.js';
import { parseJsonAt } from '../../../src/core/json/position.js';
import { objectLineEnd, ObjectLines } from '../../../src/core/json/scan.js';
import { JsonLinesChecker } from '../../../src/core/input/jsonl-checker.js';
import { readJsonRecords, sourceLine } from '../../../src/core/input/json-records.js';
import { mulberry32 } from '../../../src/emulator/http/faults.js';
import { dataObjectProblem } from '../../../src/schemas/data.js';
import { samples } from '../../helpers/samples.js';

const ID = Buffer.from('id');

/** What data import's exact check (decode, JSON.parse, the zod schema) makes of a line that is not line 1: blank, valid, or its problem. */
function exact(line: Buffer): 'blank' | 'valid' | string {
  const { text } = sourceLine(line, 0, line.length, 2);
  if (text.trim() === '') return 'blank';
  const record = parseJsonAt(text, 2);
  return ('error' in record ? record.error : dataObjectProblem(record.value)) ?? 'valid';
}

const OBJECT_LINES = new ObjectLines('id');

/** The fast checks on the line followed by a line feed (the regular expression's, then the byte scan's): true when one is sure the line is valid. */
function fast(line: Buffer): boolean {
  const bytes = Buffer.concat([line, Buffer.from('\n')]);
  const end = objectLineEnd(bytes, 0, bytes.length, ID);
  OBJECT_LINES.next();
  const matched = OBJECT_LINES.accept(bytes, 0, bytes.length) > 0 ? OBJECT_LINES.acceptedEnd : -1;
  for (const sure of [end, matched]) if (sure !== -1) assert.equal(sure, line.length, `the line ends at its line feed: ${JSON.stringify(line.toString())}`);
  return end !== -1 || matched !== -1;
}

/** The fast check never accepts what the exact check refuses; `expected` says whether it must be sure. */
function agrees(line: Buffer, expected?: boolean): void {
  const verdict = exact(line);
  const accepted = fast(line);
  if (accepted) assert.equal(verdict, 'valid', `accepted by the fast check, refused by zod: ${JSON.stringify(line.toString('latin1'))}`);
  if (expected !== undefined) assert.equal(accepted, expected, `${JSON.stringify(line.toString('latin1'))} (${verdict})`);
}

const ACCEPTED = [
  '{"id":"a"}',
  '{"id":"a","title":"Road bike","price":12.5e-3,"tags":["x",{"y":[null,true,false]}],"n":-0}',
  '{ "id" : "x" }\t \r',
  '{"id":"\\u0000"}',
  '{"id":"\\""}',
  '{"a":{"id":""},"id":"b"}',
  '{"id":"é ✓ 𝄞"}',
  '{"id":"a","nested":[[[[{}]]]],"e":[],"o":{}}',
  '{"id":"a","big":123456789012345678901234567890,"exp":1E+400}',
  '{"id":"a","__proto__":{"id":""}}',
];

const REFUSED_OR_UNSURE = [
  '{"id":""}',
  '{"id":"a","id":""}',
  '{"id":7,"id":"later wins"}',
  '{"id":"a","t":1,"t":2}',
  '{"id":"a","o":[{"k":1,"k":2}]}',
  '{"id":7}',
  '{"id":null}',
  '{"title":"no id"}',
  '{"ID":"a"}',
  '{"\\u0069d":"a"}',
  '{"id":"a",}',
  '{"id":"a"',
  '{"id":"a"}}',
  '{"id":"a"} {"id":"b"}',
  '{"id":"a"}x',
  '[{"id":"a"}]',
  '"just text"',
  '{"id":"a\tb"}',
  '{"id":"a\\x"}',
  '{"id":"a\\u12G4"}',
  '{"id":"a","n":01}',
  '{"id":"a","n":1.}',
  '{"id":"a","n":.5}',
  '{"id":"a","n":1e}',
  '{"id":"a","n":-}',
  '{"id":"a","n":+1}',
  '{"id":"a","b":tru}',
  '{"id":"a","b":True}',
  '{"id":"a","n":NaN}',
  "{'id':'a'}",
  '{id:"a"}',
  '{"id" "a"}',
  '{"id":"a" "b":1}',
  '{"id":"a","x":[1,]}',
  '{"id":"a","x":[,1]}',
  '{"id":"a","x":{"k"}}',
  '\u00a0{"id":"a"}',
  '{"id":"a"}\u00a0',
  '{"id":"a","deep":' + '['.repeat(70) + ']'.repeat(70) + '}',
  '',
  '   ',
];

describe('objectLineEnd (the fast check of data import lines)', () => {
  it('is sure of plain valid objects with a non-empty string id', () => {
    for (const line of ACCEPTED) agrees(Buffer.from(line), true);
  });

  it('is sure by the byte scan alone of every escape, every hex digit, every form of number and a depth of 64; not of 65', () => {
    // An object in arrays in the object: each container, the deepest too, must be known for what it is.
    const deep = (levels: number) => `{"id":"a","d":${'['.repeat(levels - 2)}{"k":1,"j":2}${',0]'.repeat(levels - 2)}}`;
    const byteScan = (line: string) => {
      const bytes = Buffer.from(`${line}\n`);
      return objectLineEnd(bytes, 0, bytes.length, ID);
    };
    const sure = [
      String.raw`{"id":"a","s":"\" \\ \/ \b \f \n \r \t"}`,
      String.raw`{"id":"a\"\\","u":"\u0A9F\u0a9f\uFAfa\u0000","v":"x\u0041"}`,
      '{"id":"a","n":[0,-0,10,1.5,1e5,1E+5,1e-5,-12.34e+10,0.0,90,-9]}',
      '{"id":"a","l":[true,false,null],"o":{"k":{}},"e":[]}',
      deep(64),
    ];
    for (const line of sure) {
      assert.equal(exact(Buffer.from(line)), 'valid', line);
      assert.equal(byteScan(line), Buffer.byteLength(line), line);
    }
    for (const line of [deep(65), String.raw`{"id":"a","s":"\x"}`, String.raw`{"id":"a","s":"\u00G0"}`, String.raw`{"id":"a","s":"\u00"}`, '{"id":"a","n":1.}', '{"id":"a","n":1e}', '{"id":"a","n":-}', '{"id":"a","n":01}', '{"id":"a","l":nul}', '{"id":"a","l":tru}']) {
      assert.equal(byteScan(line), -1, line);
    }
  });

  it('is never sure of a line zod or JSON.parse refuses, nor of an escaped key', () => {
    for (const line of REFUSED_OR_UNSURE) agrees(Buffer.from(line), false);
  });

  it('agrees with JSON.parse and zod on bytes that are not UTF-8', () => {
    for (const bytes of [[0xff], [0xe2, 0x22], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x5c], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
      agrees(Buffer.concat([Buffer.from('{"id":"a'), Buffer.from(bytes), Buffer.from('","x":1}')]));
      agrees(Buffer.concat([Buffer.from('{"id":"'), Buffer.from(bytes), Buffer.from('"}')]));
      agrees(Buffer.concat([Buffer.from('{"id":"a",'), Buffer.from(bytes), Buffer.from('"x":1}')]));
    }
  });

  it('agrees with JSON.parse and zod on 20,000 seeded random lines, valid and mutated', () => {
    const random = mulberry32(14);
    let valid = 0;
    let accepted = 0;
    for (let n = 0; n < samples(20_000); n++) {
      const line = randomLine(random);
      agrees(line);
      if (exact(line) === 'valid' && line[0] === 0x7b) valid++;
      if (fast(line)) accepted++;
    }
    // Unsure only of short top-level keys with escapes (frequent in these lines, rare in real ones) and of deep nesting.
    assert.ok(valid > samples(1_000) && accepted > 0.6 * valid, `the fast check was sure of ${accepted} of ${valid} valid lines`);
  });
});

describe('ObjectLines (the regular expression first, then objectLineEnd)', () => {
  it('finds the end of each line of a chunk, lines that cross a window and lines longer than one among them', () => {
    const lines = Array.from({ length: 3_000 }, (_, n) => `{"id":"d-${n}","t":"${'x'.repeat(n % 97)}","n":${n}}`);
    lines.splice(1_000, 0, `{"id":"long","t":"${'y'.repeat(40_000)}"}`, '{"id":""}', `{"id":"deep","x":[[[${'1'}]]]}`);
    const chunk = Buffer.from(`${lines.join('\n')}\n`);
    const check = new ObjectLines('id');
    check.next();
    const ends: number[] = [];
    for (let start = 0; start < chunk.length; start = chunk.indexOf(0x0a, start) + 1) ends.push(check.accept(chunk, start, chunk.length) === 1 ? check.acceptedEnd : -1);
    const expected: number[] = [];
    for (let start = 0; start < chunk.length; start = chunk.indexOf(0x0a, start) + 1) expected.push(chunk.indexOf(0x0a, start));
    expected[1_001] = -1;
    assert.deepEqual(ends, expected, 'every line certain, but the one with an empty id');
  });

  it('leaves the first chunk to the byte scan until the exact check gives it a record: the general pattern is compiled only when a line needs it', () => {
    const line = (text: string) => Buffer.from(`${text}\n`);
    const untaught = new ObjectLines('id');
    untaught.next();
    assert.equal(untaught.accept(line('{"id":"a","n":1}'), 0, 18), 1, 'sure of the line all the same');
    assert.equal(untaught.usedGeneralPattern, false);
    untaught.learn({ id: 'a', n: 1 });
    untaught.next();
    assert.equal(untaught.accept(line('{"id":"b","n":2}'), 0, 18), 1);
    assert.equal(untaught.usedGeneralPattern, false, 'a line of the shape learned');
    const other = line('{"id":"c","tags":["x"]}');
    untaught.next();
    assert.equal(untaught.accept(other, 0, other.length), 1);
    assert.equal(untaught.usedGeneralPattern, true, 'a line of another shape');
    const neverTaught = new ObjectLines('id');
    neverTaught.next();
    neverTaught.next();
    assert.equal(neverTaught.accept(line('{"id":"a","n":1}'), 0, 18), 1);
    assert.equal(neverTaught.usedGeneralPattern, true, 'past the first chunk, with no record given');
  });

  it('is not sure of a line that has no line feed before the limit', () => {
    const check = new ObjectLines('id');
    const bytes = Buffer.from('{"id":"a"}\n');
    check.next();
    assert.equal(check.accept(bytes, 0, bytes.length - 1), 0);
    check.next();
    assert.equal(check.accept(bytes, 0, bytes.length), 1);
    assert.equal(check.acceptedEnd, bytes.length - 1);
  });
});

/** objectLineEnd alone, as a fast check of one line at a time. */
function byteScan(): FastRecordLines {
  return {
    acceptedEnd: -1,
    accept(bytes, start, limit) {
      this.acceptedEnd = objectLineEnd(bytes, start, limit, ID);
      return this.acceptedEnd === -1 ? 0 : 1;
    },
  };
}

/** A model record: keys a shape can spell and some it cannot, values of every kind. */
function randomModel(random: () => number): Record<string, unknown> {
  const model: Record<string, unknown> = {};
  if (random() < 0.9) model.id = 'x';
  for (let n = Math.floor(random() * 5); n > 0; n--) {
    const key = pick(random, ['t', 'n', 'a.b', '$x', '(y)', '__proto__', 'x y', '', 'é', 'q"', 'b\\', '1', 'id']);
    model[key] = pick(random, ['s', 3, true, null, [1, 'a'], { k: [] }, '']);
  }
  return model;
}

/** A compact line with the model's keys in its order, each with a random value, sometimes mutated. */
function lineLike(model: Record<string, unknown>, random: () => number): Buffer {
  const members = Object.keys(model).map((key) => `${JSON.stringify(key)}:${key === 'id' && random() < 0.8 ? randomString(random) : randomValue(random, 1)}`);
  return mutated(Buffer.from(`{${members.join(',')}}`), random);
}

describe('ObjectLines on a line that fails late', () => {
  // Each value has one way to match: with two, giving up would take 2^n tries for n values, and this test would outlive its file's time limit.
  it('gives up a line of many small arrays and objects without trying every way to match them', () => {
    const members = Array.from({ length: 60 }, (_, i) => `"k${i}":${i % 2 === 0 ? '[1]' : '{"a":[]}'}`).join(',');
    const check = new ObjectLines('id');
    const line = Buffer.from(`{"id":"a",${members},"x":tru}\n`);
    check.next();
    assert.equal(check.accept(line, 0, line.length), 0);
  });
});

describe('ObjectLines with the shape of a record it learned', () => {
  const tiny = (n: number, id = `"d-${n}"`) => `{"id":${id},"t":"t\\"${n}","n":${n}.5e3,"ok":false,"none":null}`;
  const learned = () => {
    const check = new ObjectLines('id');
    check.learn({ id: 'd-1', t: 'title', n: 1, ok: true, none: null });
    check.next();
    return check;
  };

  it('accepts many lines of that shape at once, up to the first it is not sure of', () => {
    const lines = [...Array.from({ length: 100 }, (_, n) => tiny(n)), tiny(100, '""'), tiny(101)];
    const chunk = Buffer.from(`${lines.join('\n')}\r\n`);
    const check = learned();
    assert.equal(check.accept(chunk, 0, chunk.length), 100);
    assert.equal(check.acceptedEnd, chunk.indexOf(tiny(100, '""')) - 1);
    assert.equal(check.accept(chunk, check.acceptedEnd + 1, chunk.length), 0, 'an empty id');
    assert.equal(check.accept(chunk, chunk.indexOf(tiny(101)), chunk.length), 1);
    assert.equal(check.acceptedEnd, chunk.length - 1, 'a CR before the last line feed');
  });

  it('takes a line of another shape one at a time, and one cut by the limit not at all', () => {
    const chunk = Buffer.from(`{"id":"a", "n":1}\n{"n":1,"id":"b"}\n${tiny(1)}\n${tiny(2)}\n`);
    const check = learned();
    assert.equal(check.accept(chunk, 0, chunk.length), 1);
    assert.equal(check.accept(chunk, check.acceptedEnd + 1, chunk.length), 1);
    const third = check.acceptedEnd + 1;
    assert.equal(check.accept(chunk, third, chunk.length), 2);
    check.next();
    assert.equal(check.accept(chunk, third, chunk.length - 1), 1, 'the last line feed is past the limit');
  });

  it('matches no part of a line cut by the window or the chunk: a file of one shape never needs the general pattern', () => {
    const lines = Array.from({ length: 2_000 }, (_, n) => tiny(n));
    const text = `${lines.join('\n')}\n`;
    // Cut in the middle of a line, past the first window: its start comes again with the next chunk.
    const limit = text.indexOf(tiny(1_500)) + 20;
    const chunk = Buffer.from(text);
    const check = learned();
    const ends: number[] = [];
    for (let start = 0, accepted = 1; accepted > 0; start = check.acceptedEnd + 1) {
      accepted = check.accept(chunk, start, limit);
      if (accepted > 0) ends.push(check.acceptedEnd);
    }
    assert.equal(ends.at(-1), text.indexOf(tiny(1_500)) - 1, 'every whole line before the cut, across windows');
    assert.equal(check.usedGeneralPattern, false);
  });

  it('learns no shape from a record it cannot spell or that holds an array or object, and keeps the one it had', () => {
    const chunk = Buffer.from(`{"id":"a","é":1}\n{"id":"b","é":2}\n${tiny(1)}\n${tiny(2)}\n`);
    const check = learned();
    for (const record of [{ id: 'a', é: 1 }, { id: 'a', 'q"': 1 }, [{ id: 'a' }], { title: 'no id' }, { id: 'a', tags: [] }, { id: 'a', o: {} }]) {
      check.learn(record);
      check.next();
    }
    assert.equal(check.accept(chunk, 0, chunk.length), 1);
    assert.equal(check.accept(chunk, check.acceptedEnd + 1, chunk.length), 1);
    assert.equal(check.accept(chunk, check.acceptedEnd + 1, chunk.length), 2);
  });

  it('learns once a chunk, and goes back to a shape it learned before', () => {
    const chunk = Buffer.from(`${tiny(1)}\n${tiny(2)}\n{"id":"a","n":1}\n{"id":"b","n":2}\n`);
    const second = chunk.indexOf('{"id":"a"');
    const check = learned();
    check.learn({ id: 'a', n: 1 });
    check.learn({ id: 'd-1', t: 'title', n: 1, ok: true, none: null });
    assert.equal(check.accept(chunk, 0, chunk.length), 1, 'the second record of the chunk was not learned');
    assert.equal(check.accept(chunk, second, chunk.length), 2);
    check.next();
    check.learn({ id: 'd-1', t: 'title', n: 1, ok: true, none: null });
    assert.equal(check.accept(chunk, 0, chunk.length), 2);
  });

  it('never accepts what JSON.parse and zod refuse, on 2,000 seeded random models and lines like them', () => {
    const random = mulberry32(21);
    let valid = 0;
    let accepted = 0;
    for (let n = 0; n < samples(2_000); n++) {
      const model = randomModel(random);
      const check = new ObjectLines('id');
      check.learn(model);
      for (let k = 0; k < 10; k++) {
        const line = lineLike(model, random);
        const bytes = Buffer.concat([line, Buffer.from('\n'), line, Buffer.from('\n')]);
        check.next();
        const lines = check.accept(bytes, 0, bytes.length);
        const verdict = exact(line);
        if (lines > 0) assert.equal(verdict, 'valid', `accepted ${lines} lines of ${JSON.stringify(line.toString('latin1'))} after learning ${JSON.stringify(model)}`);
        if (verdict === 'valid') valid++;
        if (lines === 2) accepted++;
      }
    }
    assert.ok(valid > samples(2_000) && accepted > 0.2 * valid, `sure of both lines for ${accepted} of ${valid} valid ones`);
  });
});

describe('JsonLinesChecker', () => {
  const check = (fast?: LineCheck['fast']): LineCheck => ({ problemOf: dataObjectProblem, hint: '', fast });
  const checked = (text: Buffer, chunkBytes: number, fast?: LineCheck['fast']) => {
    const problems: string[] = [];
    const checker = new JsonLinesChecker(check(fast), (line, problem) => problems.push(`${line}: ${problem}`));
    try {
      for (let at = 0; at < text.length; at += chunkBytes) checker.feed(Buffer.from(text.subarray(at, at + chunkBytes)));
      checker.end();
    } catch (error) {
      problems.push(`stopped: ${(error as Error).message}`);
    }
    return problems;
  };
  /** The reader and zod, as `data import` checked a file before the upload overlapped the check. */
  const reference = async (text: Buffer) => {
    const problems: string[] = [];
    try {
      for await (const record of readJsonRecords((async function* () { yield text; })(), { jsonLines: true })) {
        const problem = 'error' in record ? record.error : dataObjectProblem(record.value);
        if (problem !== undefined) problems.push(`${record.line}: ${problem}`);
      }
    } catch (error) {
      problems.push(`stopped: ${(error as Error).message}`);
    }
    return problems;
  };

  it('finds what the reader and zod find, line for line, however the file is cut into chunks', async () => {
    const random = mulberry32(7);
    for (let file = 0; file < samples(200); file++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 30) }, () => (random() < 0.1 ? Buffer.from(['', ' ', '\r', '\u00a0'][Math.floor(random() * 4)]!) : randomLine(random)));
      const text = Buffer.concat([random() < 0.1 ? Buffer.from('\uFEFF') : Buffer.alloc(0), ...lines.flatMap((line, i) => (i < lines.length - 1 || random() < 0.7 ? [line, Buffer.from(random() < 0.2 ? '\r\n' : '\n')] : [line]))]);
      const expected = await reference(text);
      for (const chunkBytes of [1, 7, 64, text.length + 1]) {
        assert.deepEqual(checked(text, chunkBytes, byteScan()), expected, JSON.stringify(text.toString('latin1')));
        assert.deepEqual(checked(text, chunkBytes, new ObjectLines('id')), expected, JSON.stringify(text.toString('latin1')));
        assert.deepEqual(checked(text, chunkBytes), expected);
      }
    }
  });

  it('finds what the reader and zod find in files of one shape with other lines among them, line for line', async () => {
    const random = mulberry32(9);
    const model = { id: 'd-0', t: 'title', n: 1, tags: 'a' };
    for (let file = 0; file < samples(40); file++) {
      const lines = Array.from({ length: 50 + Math.floor(random() * 300) }, (_, n) => {
        const kind = random();
        if (kind < 0.85) return Buffer.from(`{"id":"d-${n}","t":"title ${n}","n":${n},"tags":${n % 3 === 0 ? 'null' : '"a"'}}`);
        if (kind < 0.9) return lineLike(model, random);
        return Buffer.from(pick(random, ['', '\r', ' ', `{"id":"","t":"","n":0,"tags":"a"}`, `{ "id":"d-${n}", "t":"t", "n":1, "tags":[] }`]));
      });
      const text = Buffer.concat(lines.flatMap((line) => [line, Buffer.from(random() < 0.1 ? '\r\n' : '\n')]));
      const expected = await reference(text);
      for (const chunkBytes of [7, 100, 1_000, text.length + 1]) assert.deepEqual(checked(text, chunkBytes, new ObjectLines('id')), expected, `file ${file}, chunks of ${chunkBytes}`);
    }
  });

  it('refuses a line that is not UTF-8 as the reader does, also among lines the fast check would accept', async () => {
    const lines = Array.from({ length: 400 }, (_, n) => Buffer.from(`{"id":"d-${n}","t":"title ${n}"}\n`));
    lines[250] = Buffer.from('{"id":"d-250","t":"caf\xe9"}\n', 'latin1');
    lines[399] = Buffer.concat([Buffer.from('{"id":"d-399","t":"'), Buffer.from([0xf0, 0x9f]), Buffer.from('"}\n')]);
    const text = Buffer.concat(lines);
    const expected = await reference(text);
    assert.deepEqual(expected, [
      '251: not UTF-8 at column 23: csafe reads UTF-8 text; convert the file, e.g. iconv -f latin1 -t utf-8',
      '400: not UTF-8 at column 20: csafe reads UTF-8 text; convert the file, e.g. iconv -f latin1 -t utf-8',
    ]);
    for (const chunkBytes of [7, 1_000, text.length + 1]) {
      assert.deepEqual(checked(text, chunkBytes, new ObjectLines('id')), expected, `chunks of ${chunkBytes}`);
      assert.deepEqual(checked(text, chunkBytes, byteScan()), expected, `chunks of ${chunkBytes}`);
    }
  });

  it('refuses an empty, a blank and a record-less input, and a line over the limit, as the reader does', async () => {
    for (const text of ['', '\uFEFF', ' \n\r\n', '\u00a0\n']) assert.deepEqual(checked(Buffer.from(text), 4), await reference(Buffer.from(text)));
    const long = Buffer.from(`{"id":"a"}\n{"id":"${'x'.repeat(40)}"}\n`);
    const problems: string[] = [];
    const checker = new JsonLinesChecker(check(), (line, problem) => problems.push(`${line}: ${problem}`), 20);
    assert.throws(() => {
      checker.feed(long.subarray(0, 30));
      checker.feed(long.subarray(30));
    }, /line is longer than/);
  });
});

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const STRING_PIECES = ['a', 'id', 'é', '𝄞', '\\n', '\\"', '\\\\', '\\u0041', '\\ud800', ' ', '\\/', '"', '\\', '\t', '\\x'];

function randomString(random: () => number): string {
  let text = '';
  for (let n = Math.floor(random() * 4); n > 0; n--) text += pick(random, STRING_PIECES.slice(0, random() < 0.95 ? 11 : STRING_PIECES.length));
  return `"${text}"`;
}

function randomValue(random: () => number, depth: number): string {
  const kind = Math.floor(random() * (depth > 3 ? 5 : 7));
  if (kind === 0) return randomString(random);
  if (kind === 1) return pick(random, ['0', '-1', '12.5', '1e9', '-0.0E-2', '01', '1.', '.5', '-', '1e']);
  if (kind === 2) return pick(random, ['true', 'false', 'null', 'tru', 'nul']);
  if (kind === 3) return randomString(random);
  if (kind === 4) return pick(random, ['""', '"x"']);
  if (kind === 5) return `[${Array.from({ length: Math.floor(random() * 3) }, () => randomValue(random, depth + 1)).join(',')}]`;
  return randomObject(random, depth + 1);
}

function randomObject(random: () => number, depth: number): string {
  const members = Array.from({ length: Math.floor(random() * 4) }, () => {
    const key = random() < 0.4 ? '"id"' : random() < 0.1 ? '"\\u0069d"' : randomString(random);
    const space = () => pick(random, ['', '', '', ' ', '\t', '\r']);
    return `${space()}${key}${space()}:${space()}${randomValue(random, depth)}${space()}`;
  });
  return `{${members.join(',')}}`;
}

/** A valid-looking object line, sometimes with an id, sometimes mutated (a byte dropped, doubled, or replaced, also by one that is not UTF-8). */
function randomLine(random: () => number): Buffer {
  let line = randomObject(random, 0);
  if (random() < 0.5) line = `{"id":${randomValue(random, 1)}${line.length > 2 ? ',' : ''}${line.slice(1)}`;
  return mutated(Buffer.from(line), random);
}

/** The line as it is, or with a byte or two dropped, doubled, or replaced (also by one that is not UTF-8), or cut short; no line feed in it. */
function mutated(bytes: Buffer, random: () => number): Buffer {
  const mutations = random() < 0.6 ? 0 : 1 + Math.floor(random() * 2);
  for (let m = 0; m < mutations && bytes.length > 0; m++) {
    const at = Math.floor(random() * bytes.length);
    const what = Math.floor(random() * 4);
    const byte = pick(random, [0x22, 0x5c, 0x2c, 0x7b, 0x7d, 0x5b, 0x5d, 0x3a, 0x20, 0x00, 0xff, 0xc3, 0xe2, 0x80, 0x75, 0x30]);
    if (what === 0) bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
    else if (what === 1) bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([bytes[at]!]), bytes.subarray(at)]);
    else if (what === 2) bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([byte]), bytes.subarray(at + 1)]);
    else bytes = bytes.subarray(0, at);
  }
  return Buffer.from(bytes.toString('latin1').replaceAll('\n', ' '), 'latin1');
}
