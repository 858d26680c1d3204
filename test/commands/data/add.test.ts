import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { Command } from 'commander';
import type { App } from '../../../src/commands/app.js';
import { dataAdd } from '../../../src/commands/data/add/add-command.js';
import { dataGroup } from '../../../src/commands/data/index.js';
import { addNode } from '../../../src/commands/program.js';
import { checkRecord, checkRecords, problemOfRecord } from '../../../src/core/bulk/checked-records.js';
import { parseFlags } from '../../../src/core/cli/options.js';
import { readAcceptedRecordBatches, readRecords } from '../../../src/core/input/sources.js';
import { fastObjectLines, objectCheck } from '../../../src/commands/data/shared/objects.js';
import { randomJsonTexts } from '../../helpers/random-json.js';

const collect = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

/** The options `data add` hands its run for these arguments, parsed as the command parses them. */
async function addOptions(args: string[]) {
  let raw: unknown;
  const app: App = { action: () => async (...params) => void (raw = (params.at(-1) as Command).opts()) };
  const program = new Command().exitOverride();
  addNode(program, dataGroup, app);
  await program.parseAsync(['data', 'add', 'ns', 'items.jsonl', ...args], { from: 'user' });
  return parseFlags(dataAdd.flags, raw);
}

const textSource = (text: string) => ({ name: 'items.jsonl', open: () => Readable.from([Buffer.from(text)]) });

const checked = (text: string, cap = 5_000_000) => collect(checkRecords(readRecords(textSource(text)), objectCheck(cap)));

/** The check before sending, as data add runs it on a record of another shard: without serialising it. */
async function problems(text: string, cap = 5_000_000): Promise<Array<{ line: number; problem: string }>> {
  const found: Array<{ line: number; problem: string }> = [];
  for await (const record of readRecords(textSource(text), { measured: true })) {
    const problem = problemOfRecord(record, objectCheck(cap));
    if (problem !== undefined) found.push({ line: record.line, problem });
  }
  return found;
}

/**
 * The records of `text` as data add's check reads them, each value counting the times it is
 * serialised: JSON.stringify calls a value's toJSON (here not enumerable, so not itself written).
 */
async function countingRecords(text: string) {
  const serialised = { count: 0 };
  const records = await collect(readRecords(textSource(text), { measured: true }));
  for (const record of records) {
    if (!('value' in record)) continue;
    Object.defineProperty(record.value, 'toJSON', {
      value(this: object) {
        serialised.count++;
        return { ...this };
      },
    });
  }
  return { records, serialised };
}

describe('data add: argv → options', () => {
  it('has the documented defaults', async () => {
    assert.deepEqual(await addOptions([]), { dryRun: false, batchSize: 100, flushInterval: '1s', maxBatchBytes: 5_000_000, concurrency: 4, maxConsecutiveFailures: 5, wait: false });
  });

  it('reads every flag', async () => {
    const options = await addOptions(['--dry-run', '--batch-size', '500', '--flush-interval', '250ms', '--max-batch-bytes', '2000', '--concurrency', '8', '--failed', 'f.jsonl', '--skip-invalid', 's.jsonl', '--wait', '--timeout', '10m', '--max-consecutive-failures', '0']);
    assert.deepEqual(options, { dryRun: true, batchSize: 500, flushInterval: '250ms', maxBatchBytes: 2000, concurrency: 8, failed: 'f.jsonl', skipInvalid: 's.jsonl', maxConsecutiveFailures: 0, wait: true, timeout: '10m' });
  });

  it('names the flag of a bad value', async () => {
    await assert.rejects(addOptions(['--batch-size', '0']), /--batch-size: expected a whole number ≥ 1/);
    await assert.rejects(addOptions(['--max-batch-bytes', '7000000']), /--max-batch-bytes: expected at most 6000000/);
    await assert.rejects(addOptions(['--concurrency', 'many']), /--concurrency: expected a whole number ≥ 1/);
  });
});

describe('data add: checking objects', () => {
  it('names the line and the field path of each problem, keeps the record text, and makes valid objects compact', async () => {
    const objects = await checked('{"id": "a", "text": "hi"}\n{"id": ""}\n{"name": "x"}\n[1]\n{"id": 3}\n{"id": "b", oops}\n');
    assert.deepEqual(objects.map((o) => ('json' in o ? o.json : `${o.line}: ${o.problem}`)).slice(0, 5), [
      '{"id":"a","text":"hi"}',
      '2: id: expected a non-empty string id',
      '3: id: missing; every object needs its own "id", a non-empty string',
      '4: expected a JSON object with a string "id"',
      '5: id: expected a string id',
    ]);
    assert.match((objects[5] as { problem: string }).problem, /^invalid JSON at column 13/);
    assert.deepEqual(objects[2], { line: 3, text: '{"name":"x"}', problem: 'id: missing; every object needs its own "id", a non-empty string' });
  });

  it('gives the line of each element of a JSON array', async () => {
    const objects = await checked('[\n  {"id": "a"},\n  {"id": ""},\n  {"id": "c"}\n]\n');
    assert.deepEqual(objects.map((o) => [o.line, 'json' in o]), [[2, true], [3, false], [4, true]]);
  });

  it('refuses an object that alone is over the byte cap per request, naming its line', async () => {
    const big = JSON.stringify({ id: 'big', text: 'x'.repeat(2000) });
    const objects = await checked(`{"id":"a"}\n${big}\n`, 1024);
    assert.equal('json' in objects[0]!, true);
    assert.match((objects[1] as { problem: string }).problem, /the object alone makes a request of 20\d\d bytes, over the cap of 1024 \(--max-batch-bytes\)/);
  });

  it('finds, before sending, exactly the problems of the sending pass, at any byte cap (seeded random records)', async () => {
    // The first record is an object: a file that opens with `[` is read as one JSON array.
    const text = ['{"id":"first"}', ...randomJsonTexts(7, 2_000), JSON.stringify({ id: 'n', n: Array(30).fill(1e20) })].join('\n') + '\n';
    for (const cap of [40, 120, 400, 2_000, 5_000_000]) {
      const expected = (await checked(text, cap)).flatMap((o) => ('problem' in o ? [{ line: o.line, problem: o.problem }] : []));
      assert.deepEqual(await problems(text, cap), expected, `cap ${cap}`);
    }
  });

  it('reads as data add does, lines taken by the fast check as written: the same verdicts and objects as the exact way, each sized as it goes', async () => {
    const lines = ['{"id":"first"}', ...randomJsonTexts(11, 1_000).map((value, i) => `{"id":"o${i}", "v": ${value}}`), ...randomJsonTexts(12, 300), '{"id":"" }', '{"id":"x","id":7}'];
    const text = lines.join('\n') + '\n';
    // As JSON has them: a number past double precision keeps its digits as written, and the exact way rounds them; both are read as one double.
    const verdicts = (records: Array<ReturnType<typeof checkRecord>>) => records.map((o) => ('json' in o ? [o.line, JSON.parse(JSON.stringify(JSON.parse(o.json)))] : [o.line, o.problem]));
    const read = (await collect(readAcceptedRecordBatches(textSource(text), fastObjectLines(), { measured: true }))).flat();
    const accepted = read.filter((record) => 'accepted' in record).length;
    assert.ok(accepted > 500, `the fast check took ${accepted} lines`);
    const fast = read.map((record) => checkRecord(record, objectCheck(5_000_000)));
    assert.deepEqual(verdicts(fast), verdicts(await checked(text)));
    for (const object of fast) if ('json' in object) assert.equal(object.bytes, Buffer.byteLength(object.json) + 1, `line ${object.line}: sized as it is sent`);
    // A record of another shard is checked without being made ready: the same problems, also at a byte cap that refuses some.
    for (const cap of [60, 5_000_000]) {
      const sending = read.map((record) => checkRecord(record, objectCheck(cap))).flatMap((o) => ('problem' in o ? [[o.line, o.problem]] : []));
      assert.ok(cap > 1_000 || sending.some(([line]) => 'accepted' in read.find((r) => r.line === line)!), 'some line read fast is over the small cap');
      assert.deepEqual(read.flatMap((record) => { const problem = problemOfRecord(record, objectCheck(cap)); return problem === undefined ? [] : [[record.line, problem]]; }), sending, `cap ${cap}`);
    }
  });

  it('checks every object before sending without serialising one that cannot be near the byte cap (one serialisation per object)', async () => {
    const text = Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: `o${i}`, text: 'x'.repeat(i) })).join('\n') + '\n';
    const beforeSending = await countingRecords(text);
    assert.deepEqual(beforeSending.records.map((record) => problemOfRecord(record, objectCheck(5_000_000))).filter(Boolean), []);
    assert.equal(beforeSending.serialised.count, 0);
    const sending = await countingRecords(text);
    const ready = sending.records.map((record) => checkRecord(record, objectCheck(5_000_000)));
    assert.deepEqual(ready.map((object) => ('json' in object ? JSON.parse(object.json) : object)), JSON.parse(`[${text.trim().split('\n').join(',')}]`));
    assert.equal(sending.serialised.count, 200);
  });
});
