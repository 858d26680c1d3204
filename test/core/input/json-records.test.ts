import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, it } from 'node:test';
import { notUtf8Problem, readJsonRecordBatches, readJsonRecords, sourceLine, type RecordReadOptions } from '../../../src/core/input/json-records.js';
import { RecordReadError } from '../../../src/core/input/lines.js';
import { ObjectLines } from '../../../src/core/json/scan.js';

const collect = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};
async function* chunksOf(...pieces: Array<string | Buffer>) {
  for (const piece of pieces) yield Buffer.from(piece);
}
const records = (text: string, options?: RecordReadOptions) => collect(readJsonRecords(chunksOf(text), options));
const stoppedAt = (line: number | undefined, reason: RegExp | string) => (error: unknown) => {
  assert.ok(error instanceof RecordReadError, String(error));
  assert.equal(error.line, line);
  if (typeof reason === 'string') assert.equal(error.message, reason);
  else assert.match(error.message, reason);
  return true;
};

describe('readJsonRecords', () => {
  it('reads a JSON array of UTF-8 text however the chunks cut its characters, and stops at a byte that is not UTF-8', async () => {
    const inPieces = (bytes: Buffer, size: number) => collect(readJsonRecords((async function* () {
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
    })()));
    const good = Buffer.from('[{"t":"café 😀 日本"},\n"ü"]');
    const latin1 = Buffer.concat([Buffer.from('[{"t":"ok"},\n{"t":"caf'), Buffer.from([0xe9]), Buffer.from('"}]')]);
    const cut = Buffer.concat([Buffer.from('["a"]'), Buffer.from([0xe2, 0x82])]);
    const NOT_UTF8 = 'csafe reads UTF-8 text; convert the file, e.g. iconv -f latin1 -t utf-8';
    for (const size of [1, 2, 3, 5, 64]) {
      assert.deepEqual(await inPieces(good, size), [{ line: 1, value: { t: 'café 😀 日本' } }, { line: 2, value: 'ü' }], `pieces of ${size}`);
      assert.deepEqual(await inPieces(latin1, size), [{ line: 1, value: { t: 'ok' } }, { line: 2, text: '', error: `not UTF-8: ${NOT_UTF8}` }], `pieces of ${size}`);
      assert.deepEqual((await inPieces(cut, size)).at(-1), { line: 1, text: '', error: `not UTF-8 (a character cut short at the end of the input): ${NOT_UTF8}` }, `pieces of ${size}`);
    }
  });

  it('reads JSON Lines with their line numbers', async () => {
    assert.deepEqual(await records('\uFEFF{"a":1}\r\n\r\n[2]\r\n"s"'), [
      { line: 1, value: { a: 1 } },
      { line: 3, value: [2] },
      { line: 4, value: 's' },
    ]);
  });

  it('streams the elements of a JSON array with the line each starts on, whatever the chunks', async () => {
    const text = '\uFEFF  [\n  {"a": 1},\n  {"b":\n    "x,]"}, 3,\n  "s"\n]\n';
    const expected = [
      { line: 2, value: { a: 1 } },
      { line: 3, value: { b: 'x,]' } },
      { line: 4, value: 3 },
      { line: 5, value: 's' },
    ];
    assert.deepEqual(await records(text), expected);
    assert.deepEqual(await collect(readJsonRecords(chunksOf(...text.split('')))), expected, 'one character a chunk');
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

  it('reports invalid JSON with its line and column, without the text, and goes on', async () => {
    assert.deepEqual(await records('{"a":1}\n{"a":1 "b":2}\n{"c":3}\n'), [
      { line: 1, value: { a: 1 } },
      { line: 2, text: '{"a":1 "b":2}', error: 'invalid JSON at column 8: Expected \',\' or \'}\' after property value' },
      { line: 3, value: { c: 3 } },
    ]);
  });

  it('locates an error inside an array element and inside a pretty-printed object by its own line', async () => {
    const [, element] = await records('[\n{"a":1},\n{"a":1 "b":2}\n]');
    assert.equal(element!.line, 3);
    assert.match((element as { error: string }).error, /^invalid JSON at column 8: /);
    const [object] = await records('{\n  "a": 1,\n  "b": tru\n}');
    assert.equal(object!.line, 3);
    assert.match((object as { error: string }).error, /^invalid JSON at column 11: /);
  });

  it('judges each line of an object never closed on its own (a truncated line of JSON Lines)', async () => {
    const out = await records('{"a":1}\n{"b":\n{"c":3}');
    assert.deepEqual(out.map((record) => [record.line, 'error' in record]), [[1, false], [2, true], [3, false]]);
    assert.deepEqual((await records('{"b":')).map((record) => [record.line, 'error' in record]), [[1, true]], 'the only record');
  });

  it('reports an unclosed array, a trailing comma and text after the array', async () => {
    assert.deepEqual((await records('[1, {"a":2}'))[1], { line: 1, text: '{"a":2}', error: 'unexpected end of input: the JSON array is not closed with ]' });
    assert.deepEqual((await records('[1,]'))[1], { line: 1, text: ']', error: 'expected an element after the last comma, found ]' });
    assert.deepEqual((await records('[1]\n x'))[1], { line: 2, text: 'x', error: 'unexpected text after the closing ] of the JSON array' });
    const notClosed = 'unexpected end of input: the JSON array is not closed with ]';
    assert.deepEqual((await records('[1,\n'))[1], { line: 2, text: '', error: notClosed }, 'ended after a comma');
    assert.deepEqual(await records('[\n\n'), [{ line: 3, text: '', error: notClosed }], 'ended before an element');
    assert.deepEqual((await records('[1,\n\n  {"a":\n2'))[1], { line: 3, text: '{"a":\n2', error: notClosed }, 'ended in an element: the line it starts on');
  });

  it('ends an element at a comma or bracket of its own level only, and keeps a U+FEFF that does not open the input', async () => {
    assert.deepEqual(await records('[[1,2],{"a":[3,{"b":4}]},"x,]"]'), [
      { line: 1, value: [1, 2] },
      { line: 1, value: { a: [3, { b: 4 }] } },
      { line: 1, value: 'x,]' },
    ]);
    const inside = [{ line: 1, value: 'a\uFEFFb' }, { line: 1, value: '\uFEFF' }];
    assert.deepEqual(await records('\uFEFF["a\uFEFFb","\uFEFF"]'), inside);
    assert.deepEqual(await records('["a\uFEFFb","\uFEFF"]'), inside, 'with no byte order mark before them');
    assert.deepEqual(await collect(readJsonRecords(chunksOf('["a', '\uFEFFb","', '\uFEFF"]'))), inside, 'a chunk that opens with one');
  });

  it('reports an array element over the limit and stops', async () => {
    const out = await collect(readJsonRecords(chunksOf('[1,\n"', 'x'.repeat(40), '"]'), { maxLineBytes: 16 }));
    assert.deepEqual(out.slice(1), [{ line: 2, text: '', error: 'record is longer than 0 MB' }]);
  });

  it('stops at a line over the limit in every shape but the array', async () => {
    const long = `{"a":"${'x'.repeat(20)}"}`;
    await assert.rejects(records(`{}\n${long}\n`, { maxLineBytes: 16 }), stoppedAt(2, /longer than/));
    await assert.rejects(records(`{}\n${long}\n`, { maxLineBytes: 16, jsonLines: true }), stoppedAt(2, /longer than/));
  });

  it('reads chunks given as text as it reads bytes', async () => {
    async function* texts() {
      yield '{"a":1}\n';
      yield '{"b":"é"}\n';
    }
    assert.deepEqual(await collect(readJsonRecords(texts())), [{ line: 1, value: { a: 1 } }, { line: 2, value: { b: 'é' } }]);
  });

  it('drops a byte order mark only where the input starts, and takes the bytes of another character there as the record they open', async () => {
    const twoChunks = await collect(readJsonRecords(chunksOf(' \n', '\uFEFF[1]\n')));
    assert.deepEqual(twoChunks, await records(' \n\uFEFF[1]\n'));
    assert.equal(twoChunks.length, 1);
    assert.ok('error' in twoChunks[0]!, 'a BOM on line 2 is no white space');
    const [opening] = await records('\uF000\n');
    assert.equal(opening!.line, 1);
    assert.ok('error' in opening!, 'U+F000 opens with the BOM\'s first byte, and is no BOM');
    await assert.rejects(records('\uFEFF'), stoppedAt(undefined, 'is empty, expected at least one JSON record'));
  });

  it('counts the blank lines before the first record without holding them against the limit of its line', async () => {
    assert.deepEqual(await collect(readJsonRecords(chunksOf('\n'.repeat(10) + '   ', '{}\n'), { maxLineBytes: 8 })), [{ line: 11, value: {} }]);
  });

  it('gives the records a chunk completed before a line over the limit, ahead of the error', async () => {
    for (const jsonLines of [false, true]) {
      const read: unknown[] = [];
      const reading = (async () => {
        for await (const batch of readJsonRecordBatches(chunksOf(`{"a":1}\n{"b":2}\n{"c":"${'x'.repeat(20)}"}\n`), { maxLineBytes: 16, jsonLines })) read.push(...batch);
      })();
      await assert.rejects(reading, stoppedAt(3, /longer than/));
      assert.deepEqual(read, [{ line: 1, value: { a: 1 } }, { line: 2, value: { b: 2 } }], `jsonLines: ${jsonLines}`);
    }
  });

  it('refuses white space before the first record once it is longer than a line may be, naming its line, reading no further', async () => {
    let pulled = 0;
    async function* blankLinesThenEndlessSpaces() {
      yield Buffer.from('\n\n  \n');
      // Far more than the limit: a reader that holds the white space to find the first record would read it all.
      for (; pulled < 1000; pulled++) yield Buffer.alloc(64, ' ');
    }
    for (const options of [{}, { jsonLines: true }]) {
      pulled = 0;
      await assert.rejects(collect(readJsonRecords(blankLinesThenEndlessSpaces(), { ...options, maxLineBytes: 256 })), stoppedAt(4, /longer than/));
      assert.ok(pulled <= 6, `read ${pulled} chunks of spaces`);
    }
  });

  it('counts the blank lines before the first record without holding them: line numbers stay right, memory stays flat', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    async function* manyBlankLines() {
      for (let i = 0; i < 16; i++) yield Buffer.alloc(1 << 20, '\n');
      yield Buffer.from('  {"a":1}\n[1]\n');
    }
    /** The bytes of buffers still held once garbage is collected: V8 frees them on another thread, so it is asked a few times. */
    const heldBytes = async () => {
      let held = Infinity;
      for (let attempt = 0; attempt < 20 && held >= 8 << 20; attempt++) {
        gc();
        await new Promise((resolve) => setImmediate(resolve));
        held = process.memoryUsage().arrayBuffers;
      }
      return held;
    };
    let heldAtFirstRecord: number | undefined;
    const read: unknown[] = [];
    for await (const record of readJsonRecords(manyBlankLines())) {
      heldAtFirstRecord ??= await heldBytes();
      read.push(record);
    }
    assert.deepEqual(read, [{ line: 16 * (1 << 20) + 1, value: { a: 1 } }, { line: 16 * (1 << 20) + 2, value: [1] }]);
    assert.ok(heldAtFirstRecord! < 8 << 20, `${heldAtFirstRecord} bytes of buffers held`);
    assert.deepEqual(await collect(readJsonRecords(chunksOf('\n\n', '\n  [1,\n2]'))), [{ line: 4, value: 1 }, { line: 5, value: 2 }], 'an array after blank lines');
  });

  it('measured: gives each valid record the length of the text it was parsed from, in every shape', async () => {
    const measured = (text: string, options: RecordReadOptions = {}) => records(text, { ...options, measured: true });
    assert.deepEqual(await measured('{"a": 1}\n{\n  "b": 2\n}\nnot json\n'), [
      { line: 1, value: { a: 1 }, chars: 8 },
      { line: 2, value: { b: 2 }, chars: 12 },
      { line: 5, text: 'not json', error: 'invalid JSON at column 2: Unexpected token \'o\'' },
    ]);
    assert.deepEqual(await measured('[ {"a": 1} ,\n "é" ]'), [{ line: 1, value: { a: 1 }, chars: 8 }, { line: 2, value: 'é', chars: 3 }]);
    assert.deepEqual(await measured('{"a":1}\n', { jsonLines: true }), [{ line: 1, value: { a: 1 }, chars: 7 }]);
  });

  it('judges each line of an object on its own once its lines together pass the limit, and reads on', async () => {
    const text = '{\n"a":"0123456789",\n"b":"0123456789",\n"c":1}\n{"d":1}\n';
    const read = await records(text, { maxLineBytes: 30 });
    assert.deepEqual(read.map((record) => [record.line, 'error' in record]), [[1, true], [2, true], [3, true], [4, true], [5, false]]);
    assert.deepEqual(await records(text, { maxLineBytes: 40 }), [{ line: 1, value: { a: '0123456789', b: '0123456789', c: 1 } }, { line: 5, value: { d: 1 } }]);
  });

  it('refuses empty input and an empty array, unless empty is allowed', async () => {
    await assert.rejects(records(' \r\n\n'), stoppedAt(undefined, 'holds only blank lines, expected at least one JSON record'));
    await assert.rejects(records('\uFEFF'), stoppedAt(undefined, 'is empty, expected at least one JSON record'));
    await assert.rejects(records('[ ]'), stoppedAt(undefined, 'holds no records, expected at least one JSON record'));
    assert.deepEqual(await records('\n', { allowEmpty: true }), []);
    assert.deepEqual(await records('[]', { allowEmpty: true }), []);
  });

  it("a blank line holds nothing but JSON's white space: one of no-break spaces or a BOM is a bad line, as JSON.parse has it", async () => {
    const read = await records('{"id":"a"}\n \t\r\n\u00a0\n\uFEFF\n\u2028\n{"id":"b"}\n', { jsonLines: true });
    assert.deepEqual(read.map((record) => [record.line, 'error' in record]), [[1, false], [3, true], [4, true], [5, true], [6, false]]);
  });

  describe('with jsonLines (an import file: one record a line)', () => {
    it('reads an array line as one value, and each line of a pretty-printed object as a bad line', async () => {
      assert.deepEqual(await records('[{"id":"a"}]\n', { jsonLines: true }), [{ line: 1, value: [{ id: 'a' }] }]);
      const out = await records('{\n  "id": "a"\n}\n', { jsonLines: true });
      assert.deepEqual(out.map((record) => [record.line, 'error' in record]), [[1, true], [2, true], [3, true]]);
    });
  });
});

describe('the reader and the JSON position helper', () => {
  it('import only Node built-ins and each other, so the emulator shares them without the client', () => {
    for (const module of ['input/json-records', 'input/lines', 'json/position', 'json/scan', 'json/nesting', 'json/repeated-keys', 'input/utf8']) {
      const source = readFileSync(new URL(`../../../../src/core/${module}.ts`, import.meta.url), 'utf8');
      const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]!);
      const shared = (name: string) => /^(\.\.\/json\/|\.\/)(position|scan|nesting|lines|repeated-keys|utf8)\.js$/.test(name);
      assert.deepEqual(imports.filter((name) => !name.startsWith('node:') && !shared(name)), [], module);
    }
  });
});

describe('sourceLine', () => {
  const line = (bytes: number[] | string, number = 1) => {
    const buffer = Buffer.concat([Buffer.from('x\n'), Buffer.from(bytes as never), Buffer.from('\ny')]);
    return sourceLine(buffer, 2, buffer.length - 2, number);
  };

  it('tells a U+FFFD the file holds from one standing for bytes that are not UTF-8, and names the column', () => {
    assert.deepEqual(line('{"a":"\uFFFD"}'), { line: 1, text: '{"a":"\uFFFD"}' });
    const bad = line([0x7b, 0x22, 0xff, 0x22, 0x7d]);
    assert.deepEqual(bad, { line: 1, text: '{"\uFFFD"}', notUtf8: true });
    assert.equal(notUtf8Problem(bad), 'not UTF-8 at column 3: csafe reads UTF-8 text; convert the file, e.g. iconv -f latin1 -t utf-8');
  });

  it('says UTF-16 when line 1 opens with either of its byte order marks, and only then', () => {
    const UTF16 = 'not UTF-8 but UTF-16 (it opens with its byte order mark): csafe reads UTF-8 text; convert the file, e.g. iconv -f utf-16 -t utf-8';
    for (const mark of [[0xff, 0xfe], [0xfe, 0xff]]) {
      const first = line([...mark, 0x7b, 0x00]);
      assert.deepEqual(first, { line: 1, text: first.text, notUtf8: true, utf16: true }, String(mark));
      assert.equal(notUtf8Problem(first), UTF16);
      assert.equal(line([...mark, 0x7b, 0x00], 2).utf16, undefined, 'not on line 2');
    }
    for (const other of [[0xff, 0xff], [0xfe, 0xfe], [0xff, 0x7b], [0x7b, 0xfe]]) {
      const first = line([...other, 0x7b]);
      assert.deepEqual([first.notUtf8, first.utf16], [true, undefined], String(other));
      assert.match(notUtf8Problem(first), /^not UTF-8 at column \d/);
    }
  });
});

describe('readJsonRecordBatches with a fast check', () => {
  const read = async (text: string | Buffer, cut = Infinity) => {
    const bytes = Buffer.from(text);
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += cut) pieces.push(bytes.subarray(at, at + cut));
    return (await collect(readJsonRecordBatches(chunksOf(...pieces), {}, new ObjectLines('id')))).flat();
  };

  it('gives each line it accepts as written, numbered, without the white space ending it, and its size in UTF-8', async () => {
    const text = '{"id":"a"}\n{"id":"b","n":1}\r\n\n{ "id" : "café" , "t":"😀"}  \r\n{"id":"d"}\n';
    const expected = [
      // Line 1 is always read the exact way (it may open with a BOM).
      { line: 1, value: { id: 'a' } },
      { line: 2, accepted: '{"id":"b","n":1}', bytes: 16 },
      { line: 4, accepted: '{ "id" : "café" , "t":"😀"}', bytes: Buffer.byteLength('{ "id" : "café" , "t":"😀"}') },
      { line: 5, accepted: '{"id":"d"}', bytes: 10 },
    ];
    assert.deepEqual(await read(text), expected);
    for (const cut of [1, 3, 7, 16]) {
      const records = await read(text, cut);
      // However the chunks cut the lines, every line comes, as written or read the exact way, never changed.
      assert.deepEqual(records.map((r) => r.line), [1, 2, 4, 5], `pieces of ${cut}`);
      assert.deepEqual(records.map((r) => ('accepted' in r ? JSON.parse(r.accepted) : 'value' in r ? r.value : r)), [{ id: 'a' }, { id: 'b', n: 1 }, { id: 'café', t: '😀' }, { id: 'd' }], `pieces of ${cut}`);
    }
  });

  it('accepts no line of a value open over lines, and reads every line it is not sure of the exact way', async () => {
    const errorOf = async (line: string) => ((await records(line))[0] as { error: string }).error;
    const text = '{"id":"a"}\n{"items":[\n{"id":"inner"}\n]}\n{"id":""}\n{"id":"x","id":"y"}\nnot json\n{"id":"z"}\n';
    assert.deepEqual(await read(text), [
      { line: 1, value: { id: 'a' } },
      { line: 2, value: { items: [{ id: 'inner' }] } },
      { line: 5, value: { id: '' } },
      { line: 6, text: '{"id":"x","id":"y"}', error: await errorOf('{"id":"x","id":"y"}') },
      { line: 7, text: 'not json', error: await errorOf('not json') },
      { line: 8, accepted: '{"id":"z"}', bytes: 10 },
    ]);
  });

  it('reads a JSON array the exact way', async () => {
    assert.deepEqual(await read('[\n{"id":"a"},\n{"id":"b"}\n]\n'), [
      { line: 2, value: { id: 'a' } },
      { line: 3, value: { id: 'b' } },
    ]);
  });
});
