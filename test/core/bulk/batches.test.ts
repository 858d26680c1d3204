import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fitsInBatch, inBatches } from '../../../src/core/bulk/batches.js';
import { runLanes } from '../../helpers/lanes.js';
import { timerOverflowsDuring } from '../../helpers/wait.js';

const collect = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

describe('fitsInBatch', () => {
  const limits = { maxItems: 3, maxBytes: 10 };

  it('takes any item into an empty batch, even one bigger than the byte cap', () => {
    assert.equal(fitsInBatch({ items: 0, bytes: 0 }, 11, limits), true);
    assert.equal(fitsInBatch({ items: 0, bytes: 0 }, 1_000, limits), true);
  });

  it('takes an item that brings the batch to exactly the byte cap, and none past it', () => {
    assert.equal(fitsInBatch({ items: 1, bytes: 4 }, 5, limits), true, 'B-1 bytes');
    assert.equal(fitsInBatch({ items: 1, bytes: 4 }, 6, limits), true, 'B bytes');
    assert.equal(fitsInBatch({ items: 1, bytes: 4 }, 7, limits), false, 'B+1 bytes');
  });

  it('takes items up to the count and none past it', () => {
    assert.equal(fitsInBatch({ items: 2, bytes: 2 }, 1, limits), true, 'the Nth item');
    assert.equal(fitsInBatch({ items: 3, bytes: 3 }, 1, limits), false, 'the N+1th item');
  });
});

/** The same boundaries, through both cutters: inBatches (data add) and runLanes (events send). */
describe('inBatches and runLanes cut alike', () => {
  const cutters = {
    inBatches: async (sizes: number[], maxItems: number, maxBytes: number) =>
      collect(inBatches(Readable.from([sizes]) as AsyncIterable<number[]>, { maxItems, maxBytes, sizeOf: (n) => n })),
    runLanes: async (sizes: number[], maxItems: number, maxBytes: number) => {
      const batches: number[][] = [];
      await runLanes(Readable.from(sizes) as AsyncIterable<number>, { lanes: 1, laneOf: () => 0, maxBatchItems: maxItems, maxBatchBytes: maxBytes, sizeOf: (n) => n }, async (batch) => {
        batches.push(batch);
      });
      return batches;
    },
  };
  for (const [name, cut] of Object.entries(cutters)) {
    it(`${name}: B-1, B and B+1 bytes`, async () => {
      assert.deepEqual(await cut([5, 4, 1], 100, 10), [[5, 4, 1]], 'B-1 then B');
      assert.deepEqual(await cut([5, 6], 100, 10), [[5], [6]], 'B+1');
      assert.deepEqual(await cut([11, 1], 100, 10), [[11], [1]], 'an item over B alone');
    });

    it(`${name}: N and N+1 items`, async () => {
      assert.deepEqual(await cut([1, 1, 1], 3, 100), [[1, 1, 1]], 'N');
      assert.deepEqual(await cut([1, 1, 1, 1], 3, 100), [[1, 1, 1], [1]], 'N+1');
    });
  }
});

describe('inBatches', () => {
  /** Read in groups of two, as a chunk of input brings several records: a batch spans groups. */
  const sizes = (values: number[]) => Readable.from(Array.from({ length: Math.ceil(values.length / 2) }, (_, index) => values.slice(2 * index, 2 * index + 2))) as AsyncIterable<number[]>;

  it('cuts by count', async () => {
    assert.deepEqual(await collect(inBatches(sizes([1, 1, 1, 1, 1]), { maxItems: 2, maxBytes: 100, sizeOf: (n) => n })), [[1, 1], [1, 1], [1]]);
  });

  it('cuts by bytes, never over the cap, and gives an item bigger than the cap a batch of its own', async () => {
    const batches = await collect(inBatches(sizes([4, 4, 3, 9, 12, 1]), { maxItems: 100, maxBytes: 10, sizeOf: (n) => n }));
    assert.deepEqual(batches, [[4, 4], [3], [9], [12], [1]]);
  });

  it('hands over a batch full by count at once, not when the next item comes (a pipe may be long in giving it)', async () => {
    let release!: () => void;
    const more = new Promise<void>((resolve) => (release = resolve));
    async function* trickle() {
      yield [1];
      await more;
      yield [2];
    }
    const batches = inBatches(trickle(), { maxItems: 1, maxBytes: 100, sizeOf: (n) => n });
    const first = await Promise.race([batches.next(), sleep(2000, 'still waiting for the next item', { ref: false })]);
    release();
    assert.deepEqual(first, { value: [1], done: false });
    assert.deepEqual(await collect(batches), [[2]]);
  });

  /** Items given one group at a time, each once `give()` is called; `end()` ends the input. */
  function tap() {
    let next!: (group: number[] | undefined) => void;
    const waiting: Promise<number[] | undefined>[] = [];
    const ask = () => waiting.push(new Promise((resolve) => (next = resolve)));
    ask();
    let closed = false;
    async function* groups() {
      try {
        for (let index = 0; ; index++) {
          const group = await waiting[index]!;
          if (group === undefined) return;
          yield group;
        }
      } finally {
        closed = true;
      }
    }
    return {
      groups: groups(),
      give(group: number[]) {
        const resolve = next;
        ask();
        resolve(group);
      },
      end: () => next(undefined),
      get closed() {
        return closed;
      },
    };
  }

  it('hands over a batch that is not full once its oldest item has waited flushAfterMs for the input, and goes on with the read still awaited', async () => {
    const input = tap();
    const batches = inBatches(input.groups, { maxItems: 10, maxBytes: 100, sizeOf: (n) => n, flushAfterMs: 20 });
    input.give([1, 2, 3]);
    const first = await Promise.race([batches.next(), sleep(2000, 'still waiting for a full batch', { ref: false })]);
    assert.deepEqual(first, { value: [1, 2, 3], done: false });
    input.give([4]);
    input.end();
    assert.deepEqual(await collect(batches), [[4]]);
  });

  it('without flushAfterMs, a batch that is not full waits for the input to fill it or end', async () => {
    const input = tap();
    const batches = inBatches(input.groups, { maxItems: 10, maxBytes: 100, sizeOf: (n) => n });
    input.give([1, 2, 3]);
    const first = batches.next();
    assert.equal(await Promise.race([first, sleep(100, 'waiting')]), 'waiting');
    input.give([4]);
    input.end();
    assert.deepEqual(await first, { value: [1, 2, 3, 4], done: false });
  });

  it('a caller that stops after a flushed batch is not kept waiting for the read still awaited, and the input is closed once it comes', async () => {
    const input = tap();
    const batches = inBatches(input.groups, { maxItems: 10, maxBytes: 100, sizeOf: (n) => n, flushAfterMs: 10 });
    input.give([1]);
    assert.deepEqual(await batches.next(), { value: [1], done: false });
    const stopped = await Promise.race([batches.return(undefined), sleep(2000, 'kept waiting', { ref: false })]);
    assert.deepEqual(stopped, { value: undefined, done: true });
    input.end();
    await sleep(10);
    assert.equal(input.closed, true);
  });

  it('a flush interval longer than a timer can wait (beyond 2^31 ms) is waited out, not taken as none: the batch is held, without waking every millisecond', async () => {
    const input = tap();
    const batches = inBatches(input.groups, { maxItems: 10, maxBytes: 100, sizeOf: (n) => n, flushAfterMs: 1000 * 3_600_000 });
    const overflows = await timerOverflowsDuring(async () => {
      input.give([1, 2]);
      const first = batches.next();
      assert.equal(await Promise.race([first, sleep(100, 'held')]), 'held');
      input.end();
      assert.deepEqual(await first, { value: [1, 2], done: false });
    });
    assert.deepEqual(overflows, []);
  });

  it('yields nothing for no items', async () => {
    assert.deepEqual(await collect(inBatches(sizes([]), { maxItems: 2, maxBytes: 10, sizeOf: (n) => n })), []);
  });
});
