import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mapInOrder } from '../../../src/core/bulk/concurrency.js';
import { waitFor } from '../../helpers/wait.js';

/** Items 0..count-1, counting how many have been read. */
function counted(count: number) {
  const state = { read: 0 };
  async function* items() {
    for (let i = 0; i < count; i++) {
      state.read++;
      yield i;
    }
  }
  return { items: items(), state };
}

describe('mapInOrder', () => {
  it('yields outcomes in input order although later items finish first', async () => {
    const delays = [30, 1, 15, 0];
    const seen: number[] = [];
    for await (const { item, outcome } of mapInOrder(delays.keys(), 3, (i) => new Promise<number>((resolve) => setTimeout(() => resolve(i * 10), delays[i])))) {
      assert.deepEqual(outcome, { ok: true, value: item * 10 });
      seen.push(item);
    }
    assert.deepEqual(seen, [0, 1, 2, 3]);
  });

  it('reads no further than the window while the first item is pending, refilling a finished item\'s place before handing it over', async () => {
    for (const limit of [1, 2]) {
      const { items, state } = counted(5);
      const readAtYield: number[] = [];
      for await (const _ of mapInOrder(items, limit, async (i) => i)) readAtYield.push(state.read);
      assert.deepEqual(readAtYield.slice(0, 2), [limit, limit + 1], `limit ${limit}`);
      assert.equal(readAtYield.length, 5);
    }
  });

  it('handOverFirst: hands each outcome over before its place is refilled, never more than `limit` items read past those handed over', async () => {
    for (const limit of [1, 2]) {
      const { items, state } = counted(5);
      const readAtYield: number[] = [];
      for await (const _ of mapInOrder(items, limit, async (i) => i, { handOverFirst: true })) readAtYield.push(state.read);
      assert.equal(readAtYield[0], limit, `limit ${limit}`);
      assert.ok(readAtYield.every((read, handedOver) => read <= handedOver + limit), `limit ${limit}: ${readAtYield.join(' ')}`);
      assert.equal(readAtYield.length, 5);
    }
    // One at a time: the next item starts only once the last outcome was handed over (a checkpoint written before the next request).
    const { items, state } = counted(5);
    const readAtYield: number[] = [];
    for await (const _ of mapInOrder(items, 1, async (i) => i, { handOverFirst: true })) readAtYield.push(state.read);
    assert.deepEqual(readAtYield, [1, 2, 3, 4, 5]);
  });

  it('replaces each finished item at once while the oldest is pending, up to the window, and keeps input order', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const started: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const work = async (i: number) => {
      started.push(i);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await (i === 0 ? released : new Promise((resolve) => setTimeout(resolve, 1)));
      inFlight--;
      return i;
    };
    const { items, state } = counted(40);
    const seen: number[] = [];
    const run = (async () => {
      for await (const { item, outcome } of mapInOrder(items, 3, work, { window: 10 })) {
        assert.deepEqual(outcome, { ok: true, value: item });
        seen.push(item);
      }
    })();
    // The others take 1 ms each: give them ample time to fill the window (or, undone, to stall behind the oldest).
    for (let wait = 0; wait < 100 && started.length < 10; wait++) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(state.read, 10, 'the finished ones are replaced until the window is full, then reading pauses');
    assert.equal(inFlight, 1, 'only the oldest is still in flight: the 9 after it are done and held back');
    assert.deepEqual(seen, [], 'nothing is yielded before the oldest');
    release();
    await run;
    assert.deepEqual(seen, [...Array(40).keys()]);
    assert.equal(maxInFlight, 3);
  });

  it('closes the input when the caller stops early', async () => {
    let closed = false;
    async function* items() {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    for await (const { item } of mapInOrder(items(), 4, async (i) => i, { window: 8 })) if (item === 5) break;
    assert.equal(closed, true);
  });

  for (const handOverFirst of [false, true]) {
    it(`hands over an outcome while the next item is still awaited (a pipe that stays open)${handOverFirst ? ', handOverFirst' : ''}`, async () => {
      let release!: () => void;
      const more = new Promise<void>((resolve) => (release = resolve));
      async function* trickle() {
        yield 1;
        await more;
        yield 2;
      }
      const outcomes = mapInOrder(trickle(), 4, async (n) => n * 10, { window: 32, handOverFirst });
      const first = await Promise.race([outcomes.next(), new Promise((resolve) => setTimeout(resolve, 2000, 'still waiting for item 2').unref())]);
      release();
      assert.deepEqual(first, { value: { item: 1, outcome: { ok: true, value: 10 }, moreSettled: false }, done: false });
      const rest = [];
      for await (const { item } of outcomes) rest.push(item);
      assert.deepEqual(rest, [2]);
    });
  }

  it('left early while the next item is awaited (a pipe that stays open): returns at once, the input closed once the item comes', async () => {
    let release!: () => void;
    const more = new Promise<void>((resolve) => (release = resolve));
    let closed = false;
    async function* trickle() {
      try {
        yield 1;
        await more;
        yield 2;
      } finally {
        closed = true;
      }
    }
    const left = (async () => {
      for await (const { item } of mapInOrder(trickle(), 4, async (n) => n)) {
        assert.equal(item, 1);
        break;
      }
    })();
    assert.equal(await Promise.race([left.then(() => 'returned'), new Promise((resolve) => setTimeout(resolve, 2000, 'still waiting for item 2').unref())]), 'returned');
    assert.equal(closed, false, 'the awaited item has not come');
    release();
    await waitFor(async () => closed, { what: 'the input to be closed' });
  });

  it('settles a rejection as an outcome and carries on', async () => {
    const failure = new Error('boom');
    const outcomes = [];
    for await (const { item, outcome } of mapInOrder([1, 2, 3], 2, async (i) => {
      if (i === 2) throw failure;
      return i;
    })) {
      outcomes.push([item, outcome]);
    }
    assert.deepEqual(outcomes, [
      [1, { ok: true, value: 1 }],
      [2, { ok: false, error: failure }],
      [3, { ok: true, value: 3 }],
    ]);
  });
});
