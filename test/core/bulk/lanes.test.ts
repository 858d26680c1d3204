import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { QUEUED_BATCHES_PER_LANE, type LaneOptions } from '../../../src/core/bulk/lanes.js';
import { runLanes } from '../../helpers/lanes.js';
import { timerOverflowsDuring, waitFor } from '../../helpers/wait.js';

/** An input the test feeds by hand, as a pipe is fed by another program; `read` counts what runLanes has taken from it. */
function channel<T>() {
  const waiting: T[] = [];
  const state = { read: 0, ended: false, failure: undefined as Error | undefined };
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  async function* items(): AsyncGenerator<T> {
    for (;;) {
      while (waiting.length === 0 && !state.ended && !state.failure) await new Promise<void>((resolve) => (wake = resolve));
      if (state.failure) throw state.failure;
      if (waiting.length === 0) return;
      state.read++;
      yield waiting.shift()!;
    }
  }
  return {
    items: items(),
    state,
    push: (...more: T[]) => {
      waiting.push(...more);
      poke();
    },
    end: () => {
      state.ended = true;
      poke();
    },
    fail: (error: Error) => {
      state.failure = error;
      poke();
    },
  };
}

/** One lane of single-byte items, as follow mode runs it. */
const oneLane = (options: Partial<LaneOptions<number>> = {}): LaneOptions<number> => ({
  lanes: 1,
  laneOf: () => 0,
  maxBatchItems: 10,
  maxBatchBytes: 1_000_000,
  sizeOf: () => 1,
  ...options,
});

/** Lets every promise and I/O callback that is ready run: what would happen without waiting on time has happened. */
async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A batch handler that records batches and can be held shut, as a slow or retrying request holds a lane. */
function recorder() {
  const batches: number[][] = [];
  let open = true;
  let release: (() => void) | undefined;
  return {
    batches,
    work: async (batch: number[]) => {
      batches.push(batch);
      if (!open) await new Promise<void>((resolve) => (release = resolve));
    },
    hold: () => void (open = false),
    open: () => {
      open = true;
      release?.();
    },
  };
}

describe('runLanes', () => {
  it('hands over a trickle that never fills a batch once the flush interval has passed, the input still open', async () => {
    const input = channel<number>();
    const sink = recorder();
    const running = runLanes(input.items, oneLane({ flushAfterMs: 20 }), sink.work);
    input.push(1);
    await waitFor(() => sink.batches.length === 1, { what: 'the first item flushed alone' });
    input.push(2, 3);
    await waitFor(() => sink.batches.length === 2, { what: 'the next two flushed together' });
    input.end();
    await running;
    assert.deepEqual(sink.batches, [[1], [2, 3]]);
  });

  it('holds a batch that is not full while its oldest item has not waited the flush interval', async () => {
    const input = channel<number>();
    const sink = recorder();
    const running = runLanes(input.items, oneLane({ flushAfterMs: 60_000 }), sink.work);
    input.push(1, 2);
    await settle();
    assert.deepEqual(sink.batches, []);
    input.end();
    await running;
    assert.deepEqual(sink.batches, [[1, 2]]);
  });

  it('a flush interval longer than a timer can wait (beyond 2^31 ms) holds the batch without waking every millisecond', async () => {
    const input = channel<number>();
    const sink = recorder();
    const overflows = await timerOverflowsDuring(async () => {
      const running = runLanes(input.items, oneLane({ flushAfterMs: 1000 * 3_600_000 }), sink.work);
      input.push(1, 2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(sink.batches, []);
      input.end();
      await running;
    });
    assert.deepEqual(sink.batches, [[1, 2]]);
    assert.deepEqual(overflows, []);
  });

  it('sends a burst in full batches at once, and the rest when the input ends', async () => {
    const input = channel<number>();
    const sink = recorder();
    const running = runLanes(input.items, oneLane({ maxBatchItems: 10, flushAfterMs: 60_000 }), sink.work);
    input.push(...Array.from({ length: 25 }, (_, i) => i));
    await waitFor(() => sink.batches.length === 2, { what: 'two full batches before the input ends' });
    input.end();
    await running;
    assert.deepEqual(sink.batches.map((batch) => batch.length), [10, 10, 5]);
    assert.deepEqual(sink.batches.flat(), Array.from({ length: 25 }, (_, i) => i));
  });

  const fullBatches: Array<[string, Partial<LaneOptions<number>>]> = [
    ['by items', { maxBatchItems: 2 }],
    ['by bytes', { maxBatchItems: 100, maxBatchBytes: 10, sizeOf: () => 4 }],
    ['as a lane whose capacity is below the batch size', { maxBatchItems: 100, capacity: 2 }],
  ];
  for (const [full, options] of fullBatches) {
    it(`hands over a batch full ${full} at once, the input still open`, async () => {
      const input = channel<number>();
      const sink = recorder();
      const running = runLanes(input.items, oneLane(options), sink.work);
      input.push(1, 2, 3);
      await waitFor(() => sink.batches.length === 1, { what: `the batch full ${full}` });
      assert.deepEqual(sink.batches, [[1, 2]]);
      input.end();
      await running;
      assert.deepEqual(sink.batches, [[1, 2], [3]]);
    });
  }

  it('holds at most eight batches waiting in a lane by default, so memory stays small however slow the lane', async () => {
    assert.equal(QUEUED_BATCHES_PER_LANE, 8);
    const input = channel<number>();
    const sink = recorder();
    sink.hold();
    const running = runLanes(input.items, oneLane({ maxBatchItems: 10 }), sink.work);
    input.push(...Array.from({ length: 200 }, (_, i) => i));
    input.end();
    // One batch being sent, eight full ones waiting, and one item read that waits for room.
    await waitFor(() => input.state.read === 10 + 80 + 1, { what: 'the lane to fill' });
    await settle();
    assert.equal(input.state.read, 91);
    sink.open();
    await running;
    assert.equal(input.state.read, 200);
  });

  it('pauses reading while the lane holds its capacity, and resumes when a batch is taken', async () => {
    const input = channel<number>();
    const sink = recorder();
    sink.hold();
    const running = runLanes(input.items, oneLane({ maxBatchItems: 2, capacity: 3 }), sink.work);
    input.push(...Array.from({ length: 20 }, (_, i) => i));
    input.end();
    // [0, 1] is being sent; 2, 3 and 4 wait in the lane; 5 has been read and waits for room.
    await waitFor(() => input.state.read === 6, { what: 'the lane to fill' });
    await settle();
    assert.equal(input.state.read, 6);
    assert.deepEqual(sink.batches, [[0, 1]]);
    sink.open();
    await running;
    assert.equal(input.state.read, 20);
    assert.deepEqual(sink.batches.flat(), Array.from({ length: 20 }, (_, i) => i));
    assert.ok(sink.batches.every((batch) => batch.length <= 2));
  });

  it('tells at any moment the items it holds waiting, the one read while the lane was full among them, not the batch being worked on', async () => {
    const input = channel<number>();
    const sink = recorder();
    sink.hold();
    let waiting: (() => number[]) | undefined;
    const running = runLanes(input.items, oneLane({ maxBatchItems: 2, capacity: 3, exposeWaiting: (exposed) => (waiting = exposed) }), sink.work);
    input.push(...Array.from({ length: 20 }, (_, i) => i));
    input.end();
    await waitFor(() => input.state.read === 6, { what: 'the lane to fill' });
    await settle();
    assert.deepEqual(waiting!(), [2, 3, 4, 5]);
    sink.open();
    await running;
    assert.deepEqual(waiting!(), []);
  });

  it('keeps input order within a lane across many batches', async () => {
    const input = channel<number>();
    const sink = recorder();
    const running = runLanes(input.items, oneLane({ maxBatchItems: 7, capacity: 5, flushAfterMs: 1 }), sink.work);
    for (let i = 0; i < 200; i++) {
      input.push(i);
      if (i % 13 === 0) await settle(1);
    }
    input.end();
    await running;
    assert.deepEqual(sink.batches.flat(), Array.from({ length: 200 }, (_, i) => i));
  });

  it('rejects with the error of a failed batch and reads no further', async () => {
    const input = channel<number>();
    const failure = new Error('batch failed');
    const batches: number[][] = [];
    const running = runLanes(input.items, oneLane({ maxBatchItems: 2, capacity: 2 }), async (batch) => {
      batches.push(batch);
      if (batches.length === 2) throw failure;
    });
    input.push(...Array.from({ length: 50 }, (_, i) => i));
    await assert.rejects(running, failure);
    assert.deepEqual(batches, [[0, 1], [2, 3]]);
    assert.ok(input.state.read < 50);
  });

  it('rejects with the error of the input and hands nothing more over', async () => {
    const input = channel<number>();
    const failure = new Error('read failed');
    const sink = recorder();
    const running = runLanes(input.items, oneLane({ flushAfterMs: 60_000 }), sink.work);
    input.push(1, 2);
    await waitFor(() => input.state.read === 2, { what: 'both items read' });
    input.fail(failure);
    await assert.rejects(running, failure);
    assert.deepEqual(sink.batches, []);
  });
});
