import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mapInOrder } from '../../src/core/concurrency.js';

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

  it('reads no further than the window while the first item is pending', async () => {
    for (const limit of [1, 2]) {
      const { items, state } = counted(5);
      const readAtYield: number[] = [];
      for await (const _ of mapInOrder(items, limit, async (i) => i)) readAtYield.push(state.read);
      assert.deepEqual(readAtYield.slice(0, 2), [limit, limit + 1], `limit ${limit}`);
      assert.equal(readAtYield.length, 5);
    }
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
