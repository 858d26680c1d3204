import { fitsInBatch } from './batches.js';

/**
 * Ordered, batched work split over lanes: every item goes to the lane `laneOf` names, and each
 * lane hands its items to `work` in input order, one batch at a time. Items that must stay in
 * order (one user's events) therefore share a lane, while lanes run side by side. Reading
 * pauses while a lane's queue is full, so memory stays flat however long the input is.
 */
export interface LaneOptions<T> {
  lanes: number;
  laneOf(item: T): number;
  maxBatchItems: number;
  maxBatchBytes: number;
  sizeOf(item: T): number;
}

/**
 * Batches a lane may hold waiting. Reading stops when any one lane is full, so this is what lets
 * the other lanes keep working while one waits out a slow answer or a Retry-After.
 */
const QUEUED_BATCHES_PER_LANE = 64;

export async function runLanes<T>(
  items: AsyncIterable<T>,
  options: LaneOptions<T>,
  work: (batch: T[]) => Promise<void>,
): Promise<void> {
  const queues = Array.from({ length: options.lanes }, () => new LaneQueue<T>(options.maxBatchItems * QUEUED_BATCHES_PER_LANE));
  const lanes = queues.map(async (queue) => {
    try {
      for (let batch = await queue.take(options); batch !== undefined; batch = await queue.take(options)) await work(batch);
    } catch (error) {
      // One lane failing stops them all: the reader and the other lanes see the same error.
      for (const other of queues) other.abort(error);
      throw error;
    }
  });
  const reading = (async () => {
    try {
      for await (const item of items) await queues[options.laneOf(item)]!.put(item);
      for (const queue of queues) queue.close();
    } catch (error) {
      for (const queue of queues) queue.abort(error);
      throw error;
    }
  })();
  const outcomes = await Promise.allSettled([reading, ...lanes]);
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
}

class LaneQueue<T> {
  private items: T[] = [];
  private closed = false;
  private failure?: { error: unknown };
  private wake?: () => void;
  private wakeReader?: () => void;

  constructor(private readonly capacity: number) {}

  async put(item: T): Promise<void> {
    while (this.items.length >= this.capacity && !this.failure) await new Promise<void>((resolve) => (this.wakeReader = resolve));
    if (this.failure) throw this.failure.error;
    this.items.push(item);
    this.notify();
  }

  /** The next batch, waiting until it is full or the input has ended; undefined when all is done. */
  async take(options: Pick<LaneOptions<T>, 'maxBatchItems' | 'maxBatchBytes' | 'sizeOf'>): Promise<T[] | undefined> {
    while (this.items.length < options.maxBatchItems && !this.closed && !this.failure) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    if (this.failure || this.items.length === 0) return undefined;
    const limits = { maxItems: options.maxBatchItems, maxBytes: options.maxBatchBytes };
    const fill = { items: 0, bytes: 0 };
    for (const item of this.items) {
      const size = options.sizeOf(item);
      if (!fitsInBatch(fill, size, limits)) break;
      fill.items++;
      fill.bytes += size;
    }
    const batch = this.items.splice(0, fill.items);
    this.wakeReader?.();
    return batch;
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  abort(error: unknown): void {
    this.failure ??= { error };
    this.notify();
    this.wakeReader?.();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
