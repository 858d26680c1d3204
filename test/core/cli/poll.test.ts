import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WaitTimeoutError } from '../../../src/core/errors.js';
import { pollInterval, pollUntil } from '../../../src/core/cli/poll.js';

/** A fake clock: sleeping advances time, so waits are instant and exact. */
function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  return { now: () => now, sleep: async (ms: number) => void (sleeps.push(ms), (now += ms)), sleeps };
}

describe('pollUntil', () => {
  it('backs off 1 s, 2 s, 4 s, 8 s, then 10 s', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5].map((poll) => pollInterval(poll)), [1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('returns the first value that is done, with every value seen on the way', async () => {
    const clock = fakeClock();
    const states = ['queued', 'ingesting', 'ingesting', 'succeeded'];
    const seen: string[] = [];
    const result = await pollUntil(async () => states.shift()!, (s) => s === 'succeeded', { ...clock, timeoutMs: Infinity, describe: 'x', onPoll: (s) => seen.push(s) });
    assert.equal(result, 'succeeded');
    assert.deepEqual(seen, ['queued', 'ingesting', 'ingesting', 'succeeded']);
    assert.deepEqual(clock.sleeps, [1000, 2000, 4000]);
  });

  it('polls once more at the deadline, then fails with exit code 124', async () => {
    const clock = fakeClock();
    let polls = 0;
    const waiting = pollUntil(async () => ++polls, () => false, { ...clock, timeoutMs: 5000, describe: 'request req_1' });
    await assert.rejects(waiting, (error: unknown) => error instanceof WaitTimeoutError && /req_1/.test(error.message));
    assert.deepEqual(clock.sleeps, [1000, 2000, 2000]);
    assert.equal(polls, 4);
  });
});

describe('pollUntil limits', () => {
  it('doubles from the given first interval up to the given ceiling', async () => {
    assert.deepEqual([0, 1, 2, 3].map((poll) => pollInterval(poll, 100, 300)), [100, 200, 300, 300]);
    const clock = fakeClock();
    let polls = 0;
    await pollUntil(async () => ++polls, (n) => n === 4, { ...clock, timeoutMs: Infinity, describe: 'x', initialIntervalMs: 100, maxIntervalMs: 300 });
    assert.deepEqual(clock.sleeps, [100, 200, 300]);
  });

  it('with no time left, polls once and names what it waited for, with a hint', async () => {
    const clock = fakeClock();
    let polls = 0;
    await assert.rejects(
      pollUntil(async () => ++polls, () => false, { ...clock, timeoutMs: 0, describe: 'import imp_1' }),
      (error: unknown) =>
        error instanceof WaitTimeoutError &&
        error.message === 'timed out waiting for import imp_1' &&
        error.hint === 'it is still running; check again later, or wait longer with --timeout',
    );
    assert.equal(polls, 1);
    assert.deepEqual(clock.sleeps, []);
  });

  it('sleeps exactly the time that is left before the last poll', async () => {
    const clock = fakeClock();
    let polls = 0;
    await assert.rejects(pollUntil(async () => ++polls, () => false, { ...clock, timeoutMs: 1001, describe: 'x' }), WaitTimeoutError);
    assert.deepEqual(clock.sleeps, [1000, 1]);
    assert.equal(polls, 3);
  });
});
