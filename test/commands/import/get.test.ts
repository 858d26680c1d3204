import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importGetRun } from '../../../src/commands/import/get.js';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { commandTest, exitCodeOf } from '../../helpers/context.js';

/** POST /v1/import straight to the emulator, as another client would: an import waiting for its file. */
async function createdImport(baseUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/import`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { import_id: string }).import_id;
}

test('import get shows the Import resource: spec fields first, as key: value lines', async (t) => {
  const run = await commandTest(t, { flags: { output: 'table' } });
  const id = await createdImport(run.emulator.baseUrl, run.emulator.apiKey);
  await run.forgetRequests();
  run.expect({ method: 'GET', path: `/v1/import/${id}` });

  assert.equal(await exitCodeOf(importGetRun(run.ctx, id, { wait: false, timeoutMs: Infinity })), ExitCode.ok);

  const rows = run.stdout().trim().split('\n').map((line) => line.split(/: */));
  assert.deepEqual(rows.slice(0, 2), [['import_id', id], ['import_status', 'WAITING_FOR_UPLOAD']]);
  assert.deepEqual(rows.slice(2, 5).map(([field]) => field), ['filename', 's3_key', 'created_at']);
});

test('import get --json prints the import as the service returned it', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  const id = await createdImport(run.emulator.baseUrl, run.emulator.apiKey);
  await run.forgetRequests();
  run.expect({ method: 'GET', path: `/v1/import/${id}` });
  await importGetRun(run.ctx, id, { wait: false, timeoutMs: Infinity });
  const record = JSON.parse(run.stdout()) as Record<string, unknown>;
  assert.equal(record.import_id, id);
  assert.equal(typeof record.created_at, 'string');
});

test('import get of an unknown id fails with the service\'s 404', async (t) => {
  const run = await commandTest(t);
  run.expect({ method: 'GET', path: '/v1/import/imp_nope' });
  assert.equal(await exitCodeOf(importGetRun(run.ctx, 'imp_nope', { wait: false, timeoutMs: Infinity })), ExitCode.failure);
});

test('import get --wait on an import whose file never comes gives up at the timeout, naming the command to check again', async (t) => {
  const run = await commandTest(t);
  const id = await createdImport(run.emulator.baseUrl, run.emulator.apiKey);
  await run.forgetRequests();
  run.expect({ method: 'GET', path: `/v1/import/${id}`, times: 5 });
  assert.equal(await exitCodeOf(importGetRun(run.ctx, id, { wait: true, timeoutMs: 10_000 })), ExitCode.waitTimeout);
  assert.match(run.stderr(), new RegExp(`import ${id} is still pending; check on it with:\\n {2}csafe import get ${id} --wait\\n$`));
});

test('import get refuses an empty id before sending anything', async (t) => {
  const run = await commandTest(t);
  await assert.rejects(importGetRun(run.ctx, '', { wait: false, timeoutMs: Infinity }), UsageError);
});
