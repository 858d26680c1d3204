import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Pace } from '../../../src/core/bulk/pace.js';

/** A clock that moves only when slept on, recording each sleep. */
function fakeClock(start = 1_000) {
  const clock = {
    time: start,
    sleeps: [] as number[],
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.time += ms;
    },
  };
  return clock;
}

describe('Pace', () => {
  it('without a rate, never waits', async () => {
    const clock = fakeClock();
    const pace = new Pace(undefined, clock);
    for (let i = 0; i < 5; i++) await pace.turn();
    assert.deepEqual(clock.sleeps, []);
  });

  it('spaces requests 1/rate apart: the first at once, each later one after the one before', async () => {
    const clock = fakeClock();
    const pace = new Pace(10, clock);
    for (let i = 0; i < 4; i++) await pace.turn();
    assert.deepEqual(clock.sleeps, [100, 100, 100]);
    assert.equal(clock.time, 1_300);
  });

  it('turns taken at once (requests in flight side by side) queue up one interval apart', async () => {
    const waits: number[] = [];
    const pace = new Pace(4, { now: () => 0, sleep: async (ms) => void waits.push(ms) });
    await Promise.all([pace.turn(), pace.turn(), pace.turn()]);
    assert.deepEqual(waits, [250, 500]);
  });

  it('saves no turns up while idle: after a pause the next request goes at once, the one after it waits again', async () => {
    const clock = fakeClock();
    const pace = new Pace(2, clock);
    await pace.turn();
    clock.time += 10_000;
    await pace.turn();
    await pace.turn();
    assert.deepEqual(clock.sleeps, [500]);
  });

  it('takes fractions of a request a second', async () => {
    const clock = fakeClock();
    const pace = new Pace(0.5, clock);
    await pace.turn();
    await pace.turn();
    assert.deepEqual(clock.sleeps, [2_000]);
  });
});
