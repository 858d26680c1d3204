import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { dataAddRun } from '../../../src/commands/data/add/add.js';
import { dataAdd } from '../../../src/commands/data/add/add-command.js';
import { objectCheck } from '../../../src/commands/data/shared/objects.js';
import { checkRecord, problemOfRecord } from '../../../src/core/bulk/checked-records.js';
import type { JsonRecord } from '../../../src/core/json/position.js';
import { ExitCode, WaitTimeoutError } from '../../../src/core/errors.js';
import { parseFlags } from '../../../src/core/cli/options.js';
import { commandTest, exitCodeOf, jsonBody, type CommandTest } from '../../helpers/context.js';

const OBJECTS = [1, 2, 3, 4, 5].map((n) => ({ id: `o${n}`, text: `object ${n}` }));

/** The options `data add` parses from its flags (strings, as commander hands them over). */
const addOptions = (flags: Record<string, unknown> = {}) => parseFlags(dataAdd.flags, flags);

function inputFile(run: CommandTest, lines: readonly string[]): string {
  const path = join(run.dir, 'items.jsonl');
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
  return path;
}

const ndjson = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

test('data add sends the objects in batches of --batch-size, exactly as read, and prints each accepted request', async (t) => {
  const run = await commandTest(t);
  const path = inputFile(run, OBJECTS.map((object) => JSON.stringify(object)));
  run.expect(
    { method: 'POST', path: '/v1/data/listings', body: jsonBody({ data: OBJECTS.slice(0, 2) }) },
    { method: 'POST', path: '/v1/data/listings', body: jsonBody({ data: OBJECTS.slice(2, 4) }) },
    { method: 'POST', path: '/v1/data/listings', body: jsonBody({ data: OBJECTS.slice(4) }) },
  );

  const code = await exitCodeOf(dataAddRun(run.ctx, 'listings', path, addOptions({ batchSize: '2', concurrency: '1' })));

  assert.equal(code, ExitCode.ok);
  const printed = ndjson(run.stdout());
  assert.deepEqual(
    printed.map(({ status, objects, first_line, last_line }) => ({ status, objects, first_line, last_line })),
    [
      { status: 'accepted', objects: 2, first_line: 1, last_line: 2 },
      { status: 'accepted', objects: 2, first_line: 3, last_line: 4 },
      { status: 'accepted', objects: 1, first_line: 5, last_line: 5 },
    ],
  );
  assert.deepEqual(new Set(printed.map((request) => request.request_id)).size, 3);
  assert.equal(run.stderr(), 'added 5 objects to listings in 3 requests\n');
});

/**
 * An object whose serialisations are counted without touching JSON.stringify: it calls the
 * object's toJSON (hidden from the schema check, which sees own enumerable keys only) each time.
 */
function countedObject(object: Record<string, unknown>): { value: Record<string, unknown>; serialised: () => number } {
  let calls = 0;
  const value = { ...object };
  Object.defineProperty(value, 'toJSON', { value: () => (calls++, object) });
  return { value, serialised: () => calls };
}

/** The records a reader yields for OBJECTS, one a line, each with the length of the text it was read from. */
async function* recordsOf(values: readonly unknown[]): AsyncGenerator<JsonRecord> {
  for (const [index, value] of values.entries()) yield { line: index + 1, value, chars: JSON.stringify(OBJECTS[index]).length };
}

test('data add serialises each object at most once: a record of another shard is checked without it (problemOfRecord), its own once (checkRecord), then kept as text', async () => {
  const { maxBatchBytes } = addOptions();
  const objects = OBJECTS.map(countedObject);
  const values = objects.map(({ value }) => value);

  for await (const record of recordsOf(values)) assert.equal(problemOfRecord(record, objectCheck(maxBatchBytes)), undefined);
  assert.deepEqual(objects.map(({ serialised }) => serialised()), [0, 0, 0, 0, 0], 'the check of another shard\'s record measures the text read, serialising nothing');

  const sent: string[] = [];
  for await (const record of recordsOf(values)) {
    const checked = checkRecord(record, objectCheck(maxBatchBytes));
    assert.ok('json' in checked, JSON.stringify(checked));
    sent.push(checked.json);
  }
  assert.deepEqual(sent, OBJECTS.map((object) => JSON.stringify(object)));
  assert.deepEqual(objects.map(({ serialised }) => serialised()), [1, 1, 1, 1, 1]);
});

test('data add sends nothing when a record is invalid, and names it by file:line', async (t) => {
  const run = await commandTest(t);
  const path = inputFile(run, [JSON.stringify(OBJECTS[0]), '{"text":"no id"}']);

  const code = await exitCodeOf(dataAddRun(run.ctx, 'listings', path, addOptions()));

  assert.equal(code, ExitCode.usage);
  assert.equal(run.stdout(), '');
  assert.match(run.stderr(), new RegExp(`^${path}:2: .*\nnothing was sent: fix the 1 invalid record, or pass --skip-invalid FILE to send the rest\n$`));
});

test('data add --skip-invalid sends the valid objects, writes the invalid record to the file, and exits partial', async (t) => {
  const run = await commandTest(t);
  const path = inputFile(run, [JSON.stringify(OBJECTS[0]), '[1]', JSON.stringify(OBJECTS[1])]);
  const skipped = join(run.dir, 'invalid.jsonl');
  run.expect({ method: 'POST', path: '/v1/data/listings', body: jsonBody({ data: OBJECTS.slice(0, 2) }) });

  assert.equal(await exitCodeOf(dataAddRun(run.ctx, 'listings', path, addOptions({ skipInvalid: skipped }))), ExitCode.partial);

  const [written, ...more] = ndjson(readFileSync(skipped, 'utf8'));
  assert.deepEqual(more, []);
  assert.equal(written!.line, 2);
  assert.equal(written!.record, '[1]');
});

test('data add writes the objects of a batch the service kept refusing to --failed, after its retries', async (t) => {
  const run = await commandTest(t, { emulator: { faults: { rate: 1, kinds: ['503'], seed: 1, delayMs: 0 } } });
  const path = inputFile(run, OBJECTS.slice(0, 2).map((object) => JSON.stringify(object)));
  const failed = join(run.dir, 'failed.jsonl');
  // The first attempt and the two retries, their backoff passed on the fixed clock (a 503 fault is answered unread: no body logged).
  run.expect({ method: 'POST', path: '/v1/data/listings', body: (text) => text === null, times: 3 });

  const code = await exitCodeOf(dataAddRun(run.ctx, 'listings', path, addOptions({ failed })));

  assert.equal(code, ExitCode.failure);
  assert.deepEqual(ndjson(readFileSync(failed, 'utf8')), OBJECTS.slice(0, 2));
  assert.match(run.stderr(), new RegExp(`2 objects of failed batches written to ${failed}: resend them with \`csafe data add listings ${failed}\`\n$`));
});

test('data add --wait polls on the fixed clock until every request has ended, then prints each request as data status does', async (t) => {
  const run = await commandTest(t, { flags: { output: 'ndjson' }, emulator: { processingDelayMs: 1_000 } });
  const path = inputFile(run, OBJECTS.slice(0, 2).map((object) => JSON.stringify(object)));
  const started = run.clock.now();
  run.expect(
    { method: 'POST', path: '/v1/data/listings', body: jsonBody({ data: OBJECTS.slice(0, 2) }) },
    // queued at 0 s, done at 1 s.
    { method: 'GET', path: /^\/v1\/data\/listings\/requests\/req_\w+$/, times: 2 },
  );

  assert.equal(await exitCodeOf(dataAddRun(run.ctx, 'listings', path, addOptions({ wait: true }))), ExitCode.ok);

  assert.equal(run.clock.now() - started, 1_000);
  const records = ndjson(run.stdout()) as unknown as { status: string; data: { id: string }[] }[];
  assert.deepEqual(records.flatMap((record) => record.data.map((object) => [object.id, record.status])), [['o1', 'succeeded'], ['o2', 'succeeded']]);
});

test('data add --wait --timeout gives up at the timeout of the fixed clock and lists the request still pending', async (t) => {
  const run = await commandTest(t, { emulator: { processingDelayMs: 3_600_000 } });
  const path = inputFile(run, [JSON.stringify(OBJECTS[0])]);
  const started = run.clock.now();
  run.expect(
    { method: 'POST', path: '/v1/data/listings' },
    // Polls at 0, 1, 3 and 5 s (the deadline).
    { method: 'GET', path: /^\/v1\/data\/listings\/requests\/req_\w+$/, times: 4 },
  );

  await assert.rejects(dataAddRun(run.ctx, 'listings', path, addOptions({ wait: true, timeout: '5s' })), WaitTimeoutError);

  assert.equal(run.clock.now() - started, 5_000);
  assert.match(run.stderr(), /1 request still pending; check on it with:\n {2}csafe data status listings req_\w+ --wait\n$/);
});

test('data add --wait prints a request once it and those before it have ended, before the last status lookup, keeping none (flat memory)', async (t) => {
  const run = await commandTest(t, { flags: { output: 'ndjson' }, emulator: { processingDelayMs: 1_000 } });
  const path = inputFile(run, OBJECTS.slice(0, 4).map((object) => JSON.stringify(object)));
  const lookups = () => run.emulator.requests().filter((entry) => entry.method === 'GET').length;
  let lookupsAtFirstPrint: number | undefined;
  const write = run.ctx.io.stdout.write.bind(run.ctx.io.stdout);
  run.ctx.io.stdout.write = ((...args: Parameters<typeof write>) => {
    lookupsAtFirstPrint ??= lookups();
    return write(...args);
  }) as typeof write;
  run.expect(
    { method: 'POST', path: '/v1/data/listings', times: 4 },
    // Each of the 4 requests queued at 0 s, ended at 1 s.
    { method: 'GET', path: /^\/v1\/data\/listings\/requests\/req_\w+$/, times: 8 },
  );

  assert.equal(await exitCodeOf(dataAddRun(run.ctx, 'listings', path, addOptions({ wait: true, batchSize: '1', concurrency: '1' }))), ExitCode.ok);

  assert.ok(lookupsAtFirstPrint! < 8, `the first request printed after ${lookupsAtFirstPrint} of 8 status lookups`);
  const records = ndjson(run.stdout()) as unknown as { status: string; data: { id: string }[] }[];
  assert.deepEqual(records.flatMap((record) => record.data.map((object) => object.id)), ['o1', 'o2', 'o3', 'o4']);
});
