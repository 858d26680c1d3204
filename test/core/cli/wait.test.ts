import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { apiErrorFor, ConnectionError, ExitCode, InterruptedError, UsageError, WaitTimeoutError } from '../../../src/core/errors.js';
import { waitForOne, waitOptions, waitTimeoutMs, type WaitForOne } from '../../../src/core/cli/wait.js';
import { waitFlags } from '../../../src/core/cli/wait-flags.js';
import { exitCodeOfError } from '../../../src/main.js';
import { FixedClock } from '../../helpers/clock.js';
import { bufferIO } from '../../helpers/io.js';

const PENDING_MESSAGE = 'decision dec_1 is still pending; check on it with:\n  csafe decision get dec_1 --wait\n';

/** A wait on `decision dec_1` whose lookups answer the given statuses, the last one for ever. */
function waitOn(statuses: readonly string[], io = bufferIO().io, overrides: Partial<WaitForOne<string>> = {}): { wait: WaitForOne<string>; clock: FixedClock; calls: () => number } {
  const clock = new FixedClock();
  let calls = 0;
  const wait: WaitForOne<string> = {
    io,
    now: clock.now,
    sleep: clock.sleep,
    timeoutMs: Infinity,
    get: async () => statuses[Math.min(calls++, statuses.length - 1)]!,
    status: (status) => status,
    statuses: { running: ['PENDING'], final: ['SUCCESS', 'ERROR'], succeeded: 'SUCCESS' },
    describe: 'decision dec_1',
    progress: (status) => `status ${status}`,
    checkAgain: 'csafe decision get dec_1 --wait',
    ...overrides,
  };
  return { wait, clock, calls: () => calls };
}

/** Resolves once the text shows up, failing after a deadline (the spinner draws on its own timer). */
async function eventually(read: () => string, expected: RegExp): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!expected.test(read())) {
    assert.ok(Date.now() < deadline, `never showed ${expected}; got: ${JSON.stringify(read())}`);
    await delay(10);
  }
}

describe('waitForOne', () => {
  it('polls until the value settles, backing off 1 s then 2 s, and returns it without a word in a pipe', async () => {
    const terminal = bufferIO();
    const { wait, clock, calls } = waitOn(['PENDING', 'PENDING', 'SUCCESS'], terminal.io);
    const started = clock.now();
    assert.equal(await waitForOne(wait, wait), 'SUCCESS');
    assert.equal(calls(), 3);
    assert.equal(clock.now() - started, 3_000);
    assert.equal(terminal.stderr(), '');
  });

  it('stops at a status the spec does not list, which may never change, and says so once on stderr, with the command that waits on', async () => {
    const terminal = bufferIO();
    const { wait, calls } = waitOn(['PENDING', 'ARCHIVED'], terminal.io);
    assert.equal(await waitForOne(wait, wait), 'ARCHIVED');
    assert.equal(calls(), 2);
    assert.equal(
      terminal.stderr(),
      'decision dec_1 has status "ARCHIVED", which csafe does not know (it knows PENDING, SUCCESS, ERROR): stopped waiting, as it may never change; if it is work still under way, wait on with:\n' +
        `  ${wait.checkAgain}\n`,
    );
  });

  it('shows on a terminal what it waits for, then the progress of each poll', async () => {
    const terminal = bufferIO({ tty: true });
    Object.assign(terminal.io.stderr, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const statuses = ['PENDING', 'PENDING', 'SUCCESS'];
    let calls = 0;
    const { wait } = waitOn([], terminal.io, {
      get: async () => {
        if (calls === 0) await eventually(terminal.stderr, /Waiting for decision dec_1…/);
        // The first poll's progress replaces the opening text before the next poll is made.
        if (calls === 1) await eventually(terminal.stderr, /decision dec_1: status PENDING/);
        return statuses[calls++]!;
      },
    });
    assert.equal(await waitForOne(wait, wait), 'SUCCESS');
    assert.doesNotMatch(terminal.stderr(), /still pending/);
  });

  it('on timeout says what is still pending and how to check again, then fails with exit 124 at the deadline', async () => {
    const terminal = bufferIO();
    const { wait, clock } = waitOn(['PENDING'], terminal.io, { timeoutMs: 30_000 });
    const started = clock.now();
    const error = await waitForOne(wait, wait).then(() => undefined, (failure: unknown) => failure);
    assert.ok(error instanceof WaitTimeoutError, String(error));
    assert.equal(exitCodeOfError(error), ExitCode.waitTimeout);
    assert.equal(clock.now() - started, 30_000);
    assert.equal(terminal.stderr(), PENDING_MESSAGE);
  });

  it('on Ctrl-C (the sleep interrupted) says the same, then fails with exit 130', async () => {
    const terminal = bufferIO();
    const { wait } = waitOn(['PENDING'], terminal.io, { sleep: () => Promise.reject(new InterruptedError()) });
    const error = await waitForOne(wait, wait).then(() => undefined, (failure: unknown) => failure);
    assert.ok(error instanceof InterruptedError, String(error));
    assert.equal(exitCodeOfError(error), ExitCode.interrupted);
    assert.equal(terminal.stderr(), PENDING_MESSAGE);
  });

  it('when a lookup fails (the service gone) says the same and passes the failure on (exit 1)', async () => {
    const terminal = bufferIO();
    const gone = new ConnectionError('connection refused', false);
    const { wait } = waitOn([], terminal.io, { get: () => Promise.reject(gone) });
    await assert.rejects(waitForOne(wait, wait), (error) => error === gone);
    assert.equal(exitCodeOfError(gone), ExitCode.failure);
    assert.equal(terminal.stderr(), PENDING_MESSAGE);
  });

  it('says nothing of pending when the service answered that the thing is not there or the key is refused', async () => {
    for (const status of [404, 401, 400]) {
      const terminal = bufferIO();
      const refused = apiErrorFor({ status, method: 'GET', path: '/v1/decisions/dec_1', serviceMessage: 'no' });
      const { wait } = waitOn([], terminal.io, { get: () => Promise.reject(refused) });
      await assert.rejects(waitForOne(wait, wait), (error) => error === refused);
      assert.equal(terminal.stderr(), '', String(status));
    }
    const terminal = bufferIO();
    const unavailable = apiErrorFor({ status: 503, method: 'GET', path: '/v1/decisions/dec_1', serviceMessage: 'busy' });
    const { wait } = waitOn([], terminal.io, { get: () => Promise.reject(unavailable) });
    await assert.rejects(waitForOne(wait, wait), (error) => error === unavailable);
    assert.equal(terminal.stderr(), PENDING_MESSAGE);
  });
});

describe('waitTimeoutMs', () => {
  it('waits for ever without --timeout, and parses the duration with --wait', () => {
    assert.equal(waitTimeoutMs({}), Infinity);
    assert.equal(waitTimeoutMs({ wait: true, timeout: '10m' }), 600_000);
  });

  it('refuses --timeout without --wait (exit 2), pointing at --request-timeout for the timeout of each request', () => {
    assert.throws(
      () => waitTimeoutMs({ timeout: '30s' }),
      (error: unknown) => error instanceof UsageError && error.message === '--timeout limits --wait, which was not given' && error.hint === 'add --wait; for the timeout of each request use --request-timeout 30s',
    );
  });

  it('refuses a wait limit of 0 or below, naming --timeout', () => {
    for (const text of ['0', '0s', '-1m']) {
      assert.throws(() => waitTimeoutMs({ wait: true, timeout: text }), (error: unknown) => error instanceof UsageError && error.message === `--timeout: expected a duration greater than 0, got "${text}"`, text);
    }
  });
});

describe('waitOptions', () => {
  it('reads --wait as a boolean and its --timeout as milliseconds, for ever when absent', () => {
    assert.deepEqual(waitOptions({}), { wait: false, timeoutMs: Infinity });
    assert.deepEqual(waitOptions({ wait: true, timeout: '5m' }), { wait: true, timeoutMs: 300_000 });
  });

  it('refuses --timeout without --wait, as waitTimeoutMs does', () => {
    assert.throws(() => waitOptions({ timeout: '5m' }), UsageError);
  });

  it('gives every --timeout the same help, with its own example', () => {
    assert.equal(waitFlags('poll until done', '5m').timeout.help, 'with --wait: how long to wait, e.g. 5m (default: for ever)');
  });
});
