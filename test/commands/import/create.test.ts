import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importCreateRun } from '../../../src/commands/import/create.js';
import type { WaitOptions } from '../../../src/core/cli/wait.js';
import { ExitCode, InputError, WaitTimeoutError } from '../../../src/core/errors.js';
import { commandTest, exitCodeOf, type CommandTest } from '../../helpers/context.js';

const RECORDS = readFileSync(new URL('../../../../examples/records.jsonl', import.meta.url), 'utf8');
const UPLOAD = /^\/_storage\//;
const IMPORT = /^\/v1\/import\/[\w-]+$/;

const options = (overrides: Partial<WaitOptions> = {}): WaitOptions => ({ wait: false, timeoutMs: Infinity, ...overrides });

function inputFile(run: CommandTest, content = RECORDS): string {
  const path = join(run.dir, 'records.jsonl');
  writeFileSync(path, content);
  return path;
}

test('import create makes an import, then PUTs the file byte for byte as application/jsonl with its length and no key, and prints the import', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  const path = inputFile(run);
  run.expect({ method: 'POST', path: '/v1/import', body: (text) => text === null }, { method: 'PUT', path: UPLOAD, body: (text) => text === RECORDS });

  assert.equal(await exitCodeOf(importCreateRun(run.ctx, path, options())), ExitCode.ok);

  const summary = JSON.parse(run.stdout()) as Record<string, unknown>;
  assert.equal(summary.status, 'uploaded');
  assert.equal(summary.bytes, Buffer.byteLength(RECORDS));
  const put = run.emulator.requests()[1]!;
  assert.equal(put.content_type, 'application/jsonl');
  assert.equal(put.content_length, Buffer.byteLength(RECORDS));
  assert.equal(put.auth, 'missing');
  assert.ok(String(summary.import_id).length > 0);
});

test('import create refuses every invalid line before sending anything, each as file:line: field: expected …', async (t) => {
  const run = await commandTest(t);
  const lines = [
    '{"type":"text","data":{"text":"fine"}}',
    '{"type":"","data":{}}',
    '{"type":"text","data":"hello"}',
    '{"data":{}}',
    'not json',
    '["type","data"]',
  ];
  const path = inputFile(run, lines.join('\n') + '\n');
  // No request is expected: the strict request log fails the test on any.

  await assert.rejects(importCreateRun(run.ctx, path, options()), (error: unknown) => error instanceof InputError && /5 invalid lines; nothing was sent/.test(error.message));

  assert.equal(run.stdout(), '');
  const problems = run.stderr().trim().split('\n');
  assert.deepEqual(problems.map((line) => line.slice(path.length + 1, line.indexOf(':', path.length + 1))), ['2', '3', '4', '5', '6']);
  assert.match(problems[0]!, /:2: type: expected a non-empty string/);
  assert.match(problems[1]!, /:3: data: expected a JSON object/);
  assert.match(problems[2]!, /:4: type: is required/);
  assert.match(problems[4]!, /:6: expected a JSON object \{"type"/);
});

test('import create refuses an empty file, sending nothing', async (t) => {
  const run = await commandTest(t);
  const path = inputFile(run, '');
  await assert.rejects(importCreateRun(run.ctx, path, options()), (error: unknown) => error instanceof InputError && /is empty, expected at least one JSON record/.test(error.message));
});

test('import create reads stdin (`-`), checks it and uploads all of it', async (t) => {
  const run = await commandTest(t, { flags: { json: true }, stdin: { text: RECORDS } });
  run.expect({ method: 'POST', path: '/v1/import' }, { method: 'PUT', path: UPLOAD, body: (text) => text === RECORDS });
  assert.equal(await exitCodeOf(importCreateRun(run.ctx, '-', options())), ExitCode.ok);
  assert.equal(JSON.parse(run.stdout()).bytes, Buffer.byteLength(RECORDS));
});

test('import create --wait polls until the import is COMPLETE and prints it', async (t) => {
  const run = await commandTest(t, { flags: { json: true }, emulator: { processingDelayMs: 0 } });
  const path = inputFile(run);
  run.expect({ method: 'POST', path: '/v1/import' }, { method: 'PUT', path: UPLOAD }, { method: 'GET', path: IMPORT, times: 'many' });

  assert.equal(await exitCodeOf(importCreateRun(run.ctx, path, options({ wait: true }))), ExitCode.ok);

  const record = JSON.parse(run.stdout()) as Record<string, unknown>;
  assert.equal(record.import_status, 'COMPLETE');
  assert.match(run.stderr(), new RegExp(`to import ${String(record.import_id)}\\n`));
});

test('import create --wait gives up at the timeout of the fixed clock, naming the pending import and how to check on it', async (t) => {
  const run = await commandTest(t, { emulator: { processingDelayMs: 3_600_000 } });
  const path = inputFile(run);
  // Polls at 0, 1, 3, 7 and 10 s (the deadline).
  run.expect({ method: 'POST', path: '/v1/import' }, { method: 'PUT', path: UPLOAD }, { method: 'GET', path: IMPORT, times: 5 });

  await assert.rejects(importCreateRun(run.ctx, path, options({ wait: true, timeoutMs: 10_000 })), WaitTimeoutError);

  assert.equal(run.stdout(), '');
  assert.match(run.stderr(), /import ([\w-]+) is still pending; check on it with:\n {2}csafe import get \1 --wait\n$/);
});
