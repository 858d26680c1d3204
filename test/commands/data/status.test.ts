import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataStatusRun } from '../../../src/commands/data/status.js';
import { followRequests } from '../../../src/commands/data/shared/wait.js';
import { ExitCode, WaitTimeoutError } from '../../../src/core/errors.js';
import { call } from '../../emulator/support.js';
import { exitCodeOf, commandTest, type CommandTest } from '../../helpers/context.js';

const REQUESTS = /^\/v1\/data\/listings\/requests\/req_[0-9a-f]+$/;

/** An add request made straight to the emulator, outside the run under test. */
async function addRequest(run: CommandTest): Promise<string> {
  const reply = await call(run.emulator, 'POST', '/v1/data/listings', { json: { data: [{ id: 'o1', text: 'hello there' }] } });
  assert.equal(reply.status, 202);
  await run.forgetRequests();
  return (reply.body as { requestId: string }).requestId;
}

test('data status prints the record as JSON with one GET', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  const id = await addRequest(run);
  run.expect({ method: 'GET', path: `/v1/data/listings/requests/${id}` });

  assert.equal(await exitCodeOf(dataStatusRun(run.ctx, 'listings', id, { wait: false, timeoutMs: Infinity })), ExitCode.ok);

  assert.deepEqual(JSON.parse(run.stdout()), { data: [], namespace: 'listings', request_id: id, status: 'queued' });
  assert.equal(run.stderr(), '');
});

test('data status --wait polls on the fixed clock until the request succeeds, then prints its objects', async (t) => {
  const run = await commandTest(t, { flags: { output: 'ndjson' }, emulator: { processingDelayMs: 3_000 } });
  const id = await addRequest(run);
  const started = run.clock.now();
  // queued at 0 s, ingesting at 1 s, done at 3 s: three polls, 1 s then 2 s apart.
  run.expect({ method: 'GET', path: REQUESTS, times: 3 });

  assert.equal(await exitCodeOf(dataStatusRun(run.ctx, 'listings', id, { wait: true, timeoutMs: Infinity })), ExitCode.ok);

  assert.equal(run.clock.now() - started, 3_000);
  const record = JSON.parse(run.stdout()) as { status: string; data: Array<{ id: string; output: unknown }> };
  assert.equal(record.status, 'succeeded');
  assert.deepEqual(record.data.map(({ id: objectId, output }) => [objectId, output]), [['o1', { actions: [], fields: { text: 'hello there' }, labels: [] }]]);
});

test('data status --wait --timeout 30s gives up at exactly 30 s of the fixed clock, naming the pending request', async (t) => {
  const run = await commandTest(t, { emulator: { processingDelayMs: 3_600_000 } });
  const id = await addRequest(run);
  const started = run.clock.now();
  // Polls at 0, 1, 3, 7, 15, 25 s, then one at the deadline, 30 s.
  run.expect({ method: 'GET', path: REQUESTS, times: 7 });

  await assert.rejects(dataStatusRun(run.ctx, 'listings', id, { wait: true, timeoutMs: 30_000 }), WaitTimeoutError);

  assert.equal(run.clock.now() - started, 30_000);
  assert.equal(run.stdout(), '');
  assert.equal(run.stderr(), `1 request still pending; check on it with:\n  csafe data status listings ${id} --wait\n`);
});

test('a wait cut short names a request that ended behind a pending one, whose record was held back and never printed', async (t) => {
  const run = await commandTest(t, { emulator: { processingDelayMs: 10_000 } });
  const endsFirst = await addRequest(run);
  run.clock.advance(9_000);
  const stillPending = await addRequest(run);
  // Polls at 9 s (both), 10 s (both: the later one ends), 12 and 14 s (the first alone), then the deadline.
  run.expect({ method: 'GET', path: REQUESTS, times: 6 });
  const printed: string[] = [];

  await assert.rejects(followRequests(run.ctx, 'listings', [stillPending, endsFirst], { timeoutMs: 5_000 }, (record) => void printed.push(record.request_id)), WaitTimeoutError);

  assert.deepEqual(printed, []);
  assert.equal(
    run.stderr(),
    `1 request still pending; check on it with:\n  csafe data status listings ${stillPending} --wait\n` +
      `1 request ended but its record was not printed (a request before it was still pending); see it with:\n  csafe data status listings ${endsFirst}\n`,
  );
});

test('the command a wait cut short prints to check on its request goes to the same service: the global flags kept, a key given by flag left out', async (t) => {
  const globals = ['--profile', 'default', '--base-url', 'http://127.0.0.1:1', '--api-key', 'sk_given_by_flag'];
  const run = await commandTest(t, { emulator: { processingDelayMs: 3_600_000 }, argv: [...globals, 'data', 'status', 'listings', 'REQ', '--wait', '--timeout', '1s'] });
  const id = await addRequest(run);
  run.expect({ method: 'GET', path: REQUESTS, times: 2 });

  await assert.rejects(dataStatusRun(run.ctx, 'listings', id, { wait: true, timeoutMs: 1_000 }), WaitTimeoutError);

  assert.equal(run.stderr(), `1 request still pending; check on it with:\n  csafe --profile default --base-url http://127.0.0.1:1 data status listings ${id} --wait\n`);
});
