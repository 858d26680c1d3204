// Whether the helpers that run csafe bound every wait: a child that never ends fails its test
// within the bound, naming the command, and is killed, instead of hanging the suite.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { exitOf, outcome, runCsafe, tempDir, withDeadline } from './cli.js';
import { waitFor } from './wait.js';

const BOUND_MS = 1_000;
/** Killing the child and reporting takes a moment on a loaded machine; far less than a hang. */
const SLACK_MS = 5_000;

async function failureWithin<T>(started: number, run: Promise<T>): Promise<Error> {
  const error = await run.then(
    () => assert.fail('a child that never exits was reported as ended'),
    (reason: unknown) => reason as Error,
  );
  assert.ok(Date.now() - started < BOUND_MS + SLACK_MS, `failed after ${Date.now() - started} ms`);
  return error;
}

describe('a child that never exits fails within its bound', () => {
  it('runCsafe: names the command, and kills it', async () => {
    const started = Date.now();
    // Its data in a directory of the test's: a killed emulator cannot remove the one it would make.
    const dataDir = tempDir();
    const error = await failureWithin(started, runCsafe(['emulator', 'start', '--port', '0', '--data-dir', dataDir], { timeoutMs: BOUND_MS }));
    assert.match(error.message, new RegExp(`^csafe emulator start --port 0 --data-dir ${dataDir} did not exit within 1000 ms and was killed\n`));
  });

  it('outcome: shows the end of what the child printed, to tell a hang from a slow start', async () => {
    // A shell, not node: it prints within the bound even on a loaded machine.
    const child = spawn('sh', ['-c', 'echo ready; echo waiting >&2; exec sleep 60']);
    const started = Date.now();
    const error = await failureWithin(started, outcome(child, '', { timeoutMs: BOUND_MS }));
    assert.equal(error.message, 'sh -c echo ready; echo waiting >&2; exec sleep 60 did not exit within 1000 ms and was killed\n--- its stdout ended: ready\n\n--- its stderr ended: waiting\n');
    await waitFor(() => child.signalCode === 'SIGKILL', { what: 'the child killed' });
  });

  it('exitOf: names the command and kills it', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1_000)'], { stdio: 'ignore' });
    const started = Date.now();
    const error = await failureWithin(started, exitOf(child, { timeoutMs: BOUND_MS }));
    assert.match(error.message, /^timed out after 1000 ms waiting for the exit of .*node -e setInterval/);
    await waitFor(() => child.signalCode === 'SIGKILL', { what: 'the child killed' });
  });

  it('withDeadline: a promise that never settles fails naming what was awaited', async () => {
    const started = Date.now();
    const error = await failureWithin(started, withDeadline(new Promise(() => {}), BOUND_MS, "the emulator's answer to GET /_emulator/requests"));
    assert.equal(error.message, "timed out after 1000 ms waiting for the emulator's answer to GET /_emulator/requests");
  });

  it('waitFor: a condition that never comes fails naming it', async () => {
    const started = Date.now();
    const error = await failureWithin(started, waitFor(() => false, { what: 'nothing at all', timeoutMs: BOUND_MS }));
    assert.equal(error.message, 'timed out after 1000 ms waiting for nothing at all');
  });
});
