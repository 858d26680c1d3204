import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { CsvError } from 'csv-parse';
import fc from 'fast-check';
import { readCaptions } from '../../src/core/input/captions.js';
import { CsvNotUtf8Error, csvRecords } from '../../src/core/input/csv.js';
import { readJsonRecords } from '../../src/core/input/json-records.js';
import { JsonLinesChecker } from '../../src/core/input/jsonl-checker.js';
import { RecordReadError } from '../../src/core/input/lines.js';
import { ObjectLines } from '../../src/core/json/scan.js';
import { JsonLinesReader } from '../../src/emulator/storage/jsonl-file.js';
import { dataObjectProblem } from '../../src/schemas/data.js';
import { cuts, fileBytes, fuzz, fuzzAsync, inChunks } from '../helpers/fuzz.js';

// Every reader of input, fed generated files (valid ones, changed ones and any bytes at all) cut
// into chunks anywhere: it throws nothing but the project's read error, every problem it reports
// has a line within the input, what is valid is read whole and as written, and csafe's check of an
// import file and the emulator's reading of it give the same verdict.

const LINE_ENDS = ['\n', '\r\n'] as const;

/** Lines a JSON Lines file may hold, good and bad: objects with and without a usable id, any JSON, text, edge cases. */
const jsonLine = fc.oneof(
  fc.record({ id: fc.oneof(fc.string({ minLength: 1 }), fc.constant(''), fc.integer()), title: fc.string() }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', '  ', '{"id":"a","id":"b"}', '{"id":"a"', ']', '[{"id":"a"}]', '{"id":"é\\u0000"}', '{"id":"a","n":1e400}', '\uFEFF{"id":"x"}', '{"id":"a"}\r'),
);

const jsonLinesText = fc
  .tuple(fc.array(jsonLine, { maxLength: 6 }), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean(), fc.boolean())
  .map(([lines, end, bom, endsWithEnd]) => `${bom ? '\uFEFF' : ''}${lines.join(end)}${endsWithEnd ? end : ''}`);

/** The lines a reader can name: one more than its line feeds. */
const linesIn = (bytes: Uint8Array) => bytes.reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 1);

async function readAll(chunks: Buffer[], jsonLines: boolean) {
  const records = [];
  for await (const record of readJsonRecords(Readable.from(chunks), { jsonLines })) records.push(record);
  return records;
}

/** Nothing thrown but a RecordReadError, and that with a line in the input when it names one. */
function onlyReadErrors(error: unknown, bytes: Uint8Array): void {
  if (!(error instanceof RecordReadError)) throw error;
  if (error.line !== undefined) assert.ok(error.line >= 1 && error.line <= linesIn(bytes), `line ${error.line}`);
}

describe('fuzzing the JSON readers', () => {
  for (const jsonLines of [false, true]) {
    it(`${jsonLines ? 'JSON Lines, a record a line' : 'any of the three shapes'}: only read errors, every record on a line of the input`, async () => {
      await fuzzAsync(fc.tuple(fileBytes(jsonLinesText), cuts), async ([bytes, at]) => {
        try {
          for (const record of await readAll(inChunks(bytes, at), jsonLines)) {
            assert.ok(Number.isInteger(record.line) && record.line >= 1 && record.line <= linesIn(bytes), `line ${record.line}`);
            if ('error' in record) assert.ok(record.error.length > 0);
          }
        } catch (error) {
          onlyReadErrors(error, bytes);
        }
      });
    });
  }

  it('valid JSON Lines are read whole: each line one record, the value JSON.parse gives', async () => {
    const validLines = fc.array(fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)), { minLength: 1, maxLength: 6 });
    await fuzzAsync(fc.tuple(validLines, fc.constantFrom(...LINE_ENDS), cuts), async ([lines, end, at]) => {
      const records = await readAll(inChunks(Buffer.from(lines.join(end) + end), at), true);
      assert.deepEqual(records, lines.map((line, index) => ({ line: index + 1, value: JSON.parse(line) as unknown })));
    });
  });

  it('a JSON array: only read errors; a valid one is read element by element', async () => {
    const elements = fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 5 });
    const arrayText = fc.tuple(elements, fc.constantFrom('', '\n', ' ')).map(([values, space]) => `[${space}${values.map((value) => JSON.stringify(value, null, space === '\n' ? 1 : 0)).join(`,${space}`)}${space}]`);
    await fuzzAsync(fc.tuple(fileBytes(arrayText), cuts), async ([bytes, at]) => {
      try {
        for (const record of await readAll(inChunks(bytes, at), false)) assert.ok(record.line >= 1 && record.line <= linesIn(bytes));
      } catch (error) {
        onlyReadErrors(error, bytes);
      }
    });
    await fuzzAsync(fc.tuple(arrayText, cuts), async ([text, at]) => {
      const values = (await readAll(inChunks(Buffer.from(text), at), false)).map((record) => ('value' in record ? record.value : record));
      assert.deepEqual(values, JSON.parse(text));
    });
  });
});

/** The first problem csafe's upload check finds in an import file, as `line N: why`, or what stops it; undefined when it passes. */
function clientVerdict(chunks: Buffer[]): string | undefined {
  const problems: string[] = [];
  const checker = new JsonLinesChecker({ problemOf: dataObjectProblem, fast: new ObjectLines('id'), hint: '' }, (line, problem) => problems.push(`line ${line}: ${problem}`));
  try {
    for (const chunk of chunks) checker.feed(chunk);
    checker.end();
  } catch (error) {
    if (!(error instanceof RecordReadError)) throw error;
    if (problems.length === 0) return error.line === undefined ? `(input) ${error.message}` : `line ${error.line}: ${error.message}`;
  }
  return problems[0];
}

/** The emulator's verdict on the same file: its first problem, or `(input) …` for a file with no record, as csafe says it. */
function emulatorVerdict(chunks: Buffer[]): string | undefined {
  const reader = new JsonLinesReader(dataObjectProblem, new ObjectLines('id'));
  for (const chunk of chunks) {
    const problem = reader.push(chunk);
    if (problem !== undefined) return problem;
  }
  return reader.end() ?? (reader.count === 0 ? 'no record' : undefined);
}

describe('fuzzing the import check: csafe and the emulator agree', () => {
  it('on every generated file, however it is cut into chunks, the first problem is the same line and words', () => {
    fuzz(fc.tuple(fileBytes(jsonLinesText), cuts, cuts), ([bytes, clientCuts, emulatorCuts]) => {
      const client = clientVerdict(inChunks(bytes, clientCuts));
      const emulator = emulatorVerdict(inChunks(bytes, emulatorCuts));
      if (client?.startsWith('(input) ')) assert.equal(emulator, 'no record', client);
      else assert.equal(emulator, client);
    });
  });
});

describe('fuzzing the CSV reader (csafe and the emulator read batches with it alike)', () => {
  const field = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('a,b', 'say "hi"', 'two\nlines', 'cr\rlf', ' padded ', 'é✓'));
  const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  const csv = fc.tuple(fc.integer({ min: 2, max: 4 }), fc.array(fc.array(field, { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 5 }), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean());
  const csvText = csv.map(([width, rows, end, bom]) => `${bom ? '\uFEFF' : ''}${rows.map((row) => row.slice(0, width).map(quoted).join(',')).join(end)}${end}`);

  const read = async (chunks: Buffer[]) => {
    const rows = [];
    for await (const row of csvRecords(Readable.from(chunks))) rows.push(row);
    return rows;
  };

  it("only csv-parse's own errors and bytes that are not UTF-8 stop it; rows start on lines of the input", async () => {
    await fuzzAsync(fc.tuple(fileBytes(csvText), cuts), async ([bytes, at]) => {
      try {
        for (const row of await read(inChunks(bytes, at))) assert.ok(row.line >= 1 && row.line <= linesIn(bytes) + bytes.filter((byte) => byte === 0x0d).length);
      } catch (error) {
        if (!(error instanceof CsvError) && !(error instanceof CsvNotUtf8Error)) throw error;
      }
    });
  });

  it('a valid CSV is read row for row, field for field', async () => {
    await fuzzAsync(fc.tuple(csv, cuts), async ([[width, rows, end, bom], at]) => {
      const text = `${bom ? '\uFEFF' : ''}${rows.map((row) => row.slice(0, width).map(quoted).join(',')).join(end)}${end}`;
      assert.deepEqual((await read(inChunks(Buffer.from(text), at))).map((row) => row.fields), rows.map((row) => row.slice(0, width)));
    });
  });
});

describe('fuzzing the caption reader', () => {
  const time = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 999 }));
  const clock = ([h, m, s, ms]: [number, number, number, number], comma: boolean) =>
    `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${comma ? ',' : '.'}${String(ms).padStart(3, '0')}`;
  const cue = fc.tuple(time, time, fc.stringMatching(/^[a-z ]{1,12}[a-z]$/));
  const captions = fc.tuple(fc.boolean(), fc.array(cue, { minLength: 1, maxLength: 4 })).map(([vtt, cues]) =>
    (vtt ? 'WEBVTT\n\n' : '') + cues.map(([start, end, text], index) => `${vtt ? '' : `${index + 1}\n`}${clock(start, !vtt)} --> ${clock(end, !vtt)}\n${text}\n`).join('\n'));

  const read = async (chunks: Buffer[]) => {
    const records = [];
    for await (const record of readCaptions(Readable.from(chunks))) records.push(record);
    return records;
  };

  it('only read errors; every cue or malformed cue on a line of the input; valid files read cue for cue', async () => {
    await fuzzAsync(fc.tuple(fileBytes(captions), cuts), async ([bytes, at]) => {
      try {
        for (const record of await read(inChunks(bytes, at))) assert.ok(record.line >= 1 && record.line <= linesIn(bytes));
      } catch (error) {
        onlyReadErrors(error, bytes);
      }
    });
    await fuzzAsync(fc.tuple(captions, cuts), async ([text, at]) => {
      const records = await read(inChunks(Buffer.from(text), at));
      assert.equal(records.filter((record) => 'problem' in record && !/end.*before|after its start/i.test(record.problem)).length, 0, JSON.stringify(records));
    });
  });
});
