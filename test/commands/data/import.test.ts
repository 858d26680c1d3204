import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importRun, type ImportOptions } from '../../../src/commands/data/import/import.js';
import { ExitCode, InputError, WaitTimeoutError } from '../../../src/core/errors.js';
import { commandTest, exitCodeOf, type CommandTest } from '../../helpers/context.js';

const FILE = ['{"id":"o1","text":"hello there"}', '{"id":"o2","text":"general kenobi"}'].map((line) => `${line}\n`).join('');
const UPLOAD = /^\/_storage\/imports\/listings\/req_\w+\.jsonl$/;
const RECORD = /^\/v1\/data\/listings\/requests\/req_\w+$/;

const options = (overrides: Partial<ImportOptions> = {}): ImportOptions => ({ wait: false, timeoutMs: Infinity, validate: true, ...overrides });

function inputFile(run: CommandTest, content = FILE): string {
  const path = join(run.dir, 'dump.jsonl');
  writeFileSync(path, content);
  return path;
}

test('data import asks for an upload address, then PUTs the file there byte for byte, and prints the summary', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  const path = inputFile(run);
  run.expect({ method: 'POST', path: '/v1/data/listings/import' }, { method: 'PUT', path: UPLOAD, body: (text) => text === FILE });

  assert.equal(await exitCodeOf(importRun(run.ctx, 'listings', path, options())), ExitCode.ok);

  const summary = JSON.parse(run.stdout()) as Record<string, unknown>;
  assert.equal(summary.namespace, 'listings');
  assert.match(String(summary.request_id), /^req_\w+$/);
  assert.equal(summary.bytes, Buffer.byteLength(FILE));
  assert.equal(run.emulator.requests()[1]!.path, `/_storage/imports/listings/${String(summary.request_id)}.jsonl`);
});

test('data import refuses a file with an invalid line before sending anything, naming file:line', async (t) => {
  const run = await commandTest(t);
  const path = inputFile(run, `${FILE}{"text":"no id"}\n`);

  await assert.rejects(importRun(run.ctx, 'listings', path, options()), InputError);

  assert.equal(run.stdout(), '');
  assert.match(run.stderr(), new RegExp(`^${path}:3: `));
});

test('data import --wait polls until the import has succeeded and prints its record', async (t) => {
  const run = await commandTest(t, { flags: { json: true }, emulator: { processingDelayMs: 0 } });
  const path = inputFile(run);
  // How many polls it takes depends on the emulator's worker, which runs in real time.
  run.expect({ method: 'POST', path: '/v1/data/listings/import' }, { method: 'PUT', path: UPLOAD }, { method: 'GET', path: RECORD, times: 'many' });

  assert.equal(await exitCodeOf(importRun(run.ctx, 'listings', path, options({ wait: true }))), ExitCode.ok);

  const record = JSON.parse(run.stdout()) as { status: string; data_count: number };
  assert.equal(record.status, 'succeeded');
  assert.equal(record.data_count, 2);
});

test('data import --wait gives up at the timeout of the fixed clock, naming the pending import', async (t) => {
  const run = await commandTest(t, { emulator: { processingDelayMs: 3_600_000 } });
  const path = inputFile(run);
  // Polls at 0, 1, 3, 7 and 10 s (the deadline).
  run.expect({ method: 'POST', path: '/v1/data/listings/import' }, { method: 'PUT', path: UPLOAD }, { method: 'GET', path: RECORD, times: 5 });
  const started = run.clock.now();

  await assert.rejects(importRun(run.ctx, 'listings', path, options({ wait: true, timeoutMs: 10_000 })), WaitTimeoutError);

  assert.equal(run.clock.now() - started, 10_000);
  assert.equal(run.stdout(), '');
  assert.match(run.stderr(), /1 request still pending; check on it with:\n {2}csafe data status listings req_\w+ --wait\n$/);
});
