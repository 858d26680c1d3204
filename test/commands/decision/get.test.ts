import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { decisionGetRun } from '../../../src/commands/decision/get.js';
import { printDecision } from '../../../src/commands/decision/show.js';
import { ExitCode, NotFoundError, UsageError, WaitTimeoutError } from '../../../src/core/errors.js';
import { call } from '../../emulator/support.js';
import { commandTest, exitCodeOf, type CommandTest } from '../../helpers/context.js';
import { bufferIO } from '../../helpers/io.js';

/** A decision made straight at the emulator, outside the run under test. */
async function createDecision(run: CommandTest, content: unknown = { text: 'I will kill you' }): Promise<string> {
  const reply = await call(run.emulator, 'POST', '/v1/decisions', { json: { type: 'text', content, metadata: { source: 'app' } } });
  assert.equal(reply.status, 200);
  await run.forgetRequests();
  return (reply.body as { decision_id: string }).decision_id;
}

/** The record's `key: value` lines as [key, value], then, after the blank line, the labels table's rows as their cells (two spaces or more apart). */
function shown(text: string): string[][] {
  const [record, table = ''] = text.split('\n\n');
  const fields = record!.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]);
  return [...fields, ...table.split('\n').filter(Boolean).map((line) => line.split(/ {2,}/))];
}

test('decision get shows a pending decision: its status, result none and no labels', async (t) => {
  const run = await commandTest(t, { flags: { output: 'table' }, emulator: { processingDelayMs: 60_000 } });
  const id = await createDecision(run);
  run.expect({ method: 'GET', path: `/v1/decisions/${id}` });

  assert.equal(await exitCodeOf(decisionGetRun(run.ctx, id, { wait: false, timeoutMs: Infinity })), ExitCode.ok);

  assert.deepEqual(shown(run.stdout()), [['decision_id', id], ['decision_status', 'PENDING'], ['result', 'none'], ['metadata', '{"source":"app"}'], ['labels: none']]);
});

test('decision get shows a settled decision\'s result and its labels as a table', async (t) => {
  const run = await commandTest(t, { flags: { output: 'table' }, emulator: { processingDelayMs: 0 } });
  const id = await createDecision(run);
  run.expect({ method: 'GET', path: `/v1/decisions/${id}` });

  assert.equal(await exitCodeOf(decisionGetRun(run.ctx, id, { wait: false, timeoutMs: Infinity })), ExitCode.ok);

  const rows = shown(run.stdout());
  assert.deepEqual(rows.slice(0, 4), [['decision_id', id], ['decision_status', 'SUCCESS'], ['result', 'match'], ['metadata', '{"source":"app"}']]);
  assert.deepEqual(rows[4], ['NAME', 'APPLIED', 'EXPLANATION']);
  assert.ok(rows.some((row) => row.join(' ') === 'violence yes score 0.85: match'), run.stdout());
  assert.ok(rows.some((row) => row.join(' ') === 'spam no score 0: not_match'), run.stdout());
});

test('decision get of an ERROR decision without --wait shows it and succeeds; with --wait it exits 1', async (t) => {
  const run = await commandTest(t, { flags: { json: true }, emulator: { processingDelayMs: 0 } });
  const id = await createDecision(run, { price: 12 });
  run.expect({ method: 'GET', path: `/v1/decisions/${id}`, times: 2 });

  assert.equal(await exitCodeOf(decisionGetRun(run.ctx, id, { wait: false, timeoutMs: Infinity })), ExitCode.ok);
  assert.equal(await exitCodeOf(decisionGetRun(run.ctx, id, { wait: true, timeoutMs: Infinity })), ExitCode.failure);
  assert.match(run.stderr(), new RegExp(`^decision ${id} ended ERROR: the content holds no text to review\n$`));
});

test('decision get --wait --timeout 30s gives up at exactly 30 s of the fixed clock, naming the pending decision', async (t) => {
  const run = await commandTest(t, { emulator: { processingDelayMs: 3_600_000 } });
  const id = await createDecision(run);
  const started = run.clock.now();
  // Polls at 0, 1, 3, 7, 15, 25 s, then one at the deadline, 30 s.
  run.expect({ method: 'GET', path: `/v1/decisions/${id}`, times: 7 });

  await assert.rejects(decisionGetRun(run.ctx, id, { wait: true, timeoutMs: 30_000 }), WaitTimeoutError);

  assert.equal(run.clock.now() - started, 30_000);
  assert.equal(run.stdout(), '');
  assert.equal(run.stderr(), `decision ${id} is still pending; check on it with:\n  csafe decision get ${id} --wait\n`);
});

test('decision get of an unknown id is a not-found failure (exit 1)', async (t) => {
  const run = await commandTest(t);
  run.expect({ method: 'GET', path: '/v1/decisions/dec_nope' });
  await assert.rejects(decisionGetRun(run.ctx, 'dec_nope', { wait: false, timeoutMs: Infinity }), NotFoundError);
});

test('decision get keeps a field the spec does not list (quirk unknown_values)', async (t) => {
  const run = await commandTest(t, { flags: { output: 'table' } });
  await call(run.emulator, 'POST', '/_emulator/quirks', { json: { unknown_values: true } });
  const id = await createDecision(run);
  run.expect({ method: 'GET', path: `/v1/decisions/${id}` });

  await decisionGetRun(run.ctx, id, { wait: false, timeoutMs: Infinity });

  assert.ok(shown(run.stdout()).some((row) => row.join(' ') === 'priority normal'), run.stdout());
});

describe('decision: rendering', () => {
  it('shows a status the spec does not list, and unknown fields, as they came', async () => {
    const { io, stdout } = bufferIO();
    const decision = { decision_id: 'dec_1', decision_status: 'ESCALATED', metadata: null, result: 'hold', labels: [{ name: 'spam', applied: true, explanation: null, weight: 2 }], queue: 'humans' };
    await printDecision(io, 'table', decision);
    assert.deepEqual(shown(stdout()), [
      ['decision_id', 'dec_1'], ['decision_status', 'ESCALATED'], ['result', 'hold'], ['metadata', ''], ['queue', 'humans'],
      ['NAME', 'APPLIED'], ['spam', 'yes'],
    ]);
    // An explanation in no row leaves its column out: the table shows what a moderator can read.
  });

  it('prints the decision as returned with --json', async () => {
    const { io, stdout } = bufferIO();
    const decision = { decision_id: 'dec_1', decision_status: 'ESCALATED', metadata: {}, result: null, labels: null, queue: 'humans' };
    await printDecision(io, 'json', decision);
    assert.deepEqual(JSON.parse(stdout()), decision);
  });
});

test('decision get refuses an empty id before sending anything, as import get does', async (t) => {
  const run = await commandTest(t);
  await assert.rejects(
    decisionGetRun(run.ctx, '', { wait: false, timeoutMs: Infinity }),
    (error: unknown) => error instanceof UsageError && error.message === '<decision-id> is empty' && /csafe decision create/.test(error.hint ?? ''),
  );
});
