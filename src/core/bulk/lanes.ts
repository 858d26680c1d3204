import { fitsInBatch } from './batches.js';
import { LONGEST_TIMER_MS } from '../cli/duration.js';

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
  /**
   * A lane hands over a batch that is not full once its oldest item has waited this long, so a
   * slow trickle from a pipe still goes out. Without it a lane waits for a full batch or the end
   * of the input; a full batch always goes at once.
   */
  flushAfterMs?: number;
  /** Items a lane may hold waiting (default maxBatchItems × QUEUED_BATCHES_PER_LANE); reading pauses while it is full. */
  capacity?: number;
  /**
   * Given, once, what tells the items the lanes hold waiting at any moment (in each lane's order,
   * the one read while a lane was full among them): for a last write when csafe must leave at once.
   */
  exposeWaiting?(waiting: () => T[]): void;
}

/**
 * Batches a lane may hold waiting. Reading stops when any one lane is full, so this is what lets
 * the other lanes keep working while one waits out a slow answer or a Retry-After. Eight keep a
 * live events send as fast as 64 did (measured), with about 100 MiB less peak memory.
 */
export const QUEUED_BATCHES_PER_LANE = 8;

/** Items read one by one, as the lanes and the bulk engine take them: in groups (of one). */
export async function* oneByOne<T>(items: AsyncIterable<T>): AsyncGenerator<[T]> {
  for await (const item of items) yield [item];
}

/** The lanes over items that come in groups (a chunk of input's records): one promise per group, not per item. */
export async function runLanesInGroups<T>(
  groups: AsyncIterable<Iterable<T>>,
  options: LaneOptions<T>,
  work: (batch: T[]) => Promise<void>,
): Promise<void> {
  const limits = { ...options, capacity: options.capacity ?? options.maxBatchItems * QUEUED_BATCHES_PER_LANE };
  const queues = Array.from({ length: options.lanes }, () => new LaneQueue<T>(limits));
  options.exposeWaiting?.(() => queues.flatMap((queue) => queue.items()));
  const lanes = queues.map(async (queue) => {
    try {
      for (let batch = await queue.take(); batch !== undefined; batch = await queue.take()) {
        await work(batch);
      }
    } catch (error) {
      // One lane failing stops them all: the reader and the other lanes see the same error.
      for (const other of queues) other.abort(error);
      throw error;
    }
  });
  const reading = (async () => {
    try {
      for await (const group of groups) {
        for (const item of group) {
          const full = queues[options.laneOf(item)]!.put(item);
          if (full !== undefined) await full;
        }
      }
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

type QueueLimits<T> = Omit<LaneOptions<T>, 'lanes' | 'laneOf'> & { capacity: number };

/** An item waiting in a lane: its size, counted once, and when it arrived (performance.now()). */
interface Waiting<T> {
  item: T;
  size: number;
  since: number;
}

class LaneQueue<T> {
  private waiting: Waiting<T>[] = [];
  /** An item read while the lane was full, waiting for room. */
  private parked?: T;
  private bytes = 0;
  private closed = false;
  private failure?: { error: unknown };
  private wake?: () => void;
  private wakeReader?: () => void;

  constructor(private readonly limits: QueueLimits<T>) {}

  /** The items waiting, oldest first, and one read while the lane was full. */
  items(): T[] {
    const items = this.waiting.map((waiting) => waiting.item);
    return this.parked === undefined ? items : [...items, this.parked];
  }

  /** Takes the item at once when there is room (undefined); else a promise settled once it is taken. */
  put(item: T): Promise<void> | undefined {
    if (this.waiting.length >= this.limits.capacity || this.failure) return this.putWhenRoom(item);
    this.add(item);
    return undefined;
  }

  private async putWhenRoom(item: T): Promise<void> {
    this.parked = item;
    try {
      while (this.waiting.length >= this.limits.capacity && !this.failure) await new Promise<void>((resolve) => (this.wakeReader = resolve));
    } finally {
      this.parked = undefined;
    }
    if (this.failure) throw this.failure.error;
    this.add(item);
  }

  private add(item: T): void {
    const size = this.limits.sizeOf(item);
    this.waiting.push({ item, size, since: performance.now() });
    this.bytes += size;
    this.notify();
  }

  /** The next batch, waiting until one is due or the input has ended; undefined when all is done. */
  async take(): Promise<T[] | undefined> {
    while (!this.batchDue() && !this.closed && !this.failure) await this.change();
    if (this.failure || this.waiting.length === 0) return undefined;
    const fill = { items: 0, bytes: 0 };
    for (const { size } of this.waiting) {
      if (!fitsInBatch(fill, size, { maxItems: this.limits.maxBatchItems, maxBytes: this.limits.maxBatchBytes })) break;
      fill.items++;
      fill.bytes += size;
    }
    const batch = this.waiting.splice(0, fill.items).map((waiting) => waiting.item);
    this.bytes -= fill.bytes;
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

  /** A full batch (by items or bytes), a full lane, or an oldest item that has waited the flush interval. */
  private batchDue(): boolean {
    const count = this.waiting.length;
    const { maxBatchItems, maxBatchBytes, capacity } = this.limits;
    return count >= maxBatchItems || count >= capacity || this.bytes >= maxBatchBytes || this.flushDueInMs() === 0;
  }

  /** How long until the oldest item has waited the flush interval; undefined when nothing waits or there is no interval. */
  private flushDueInMs(): number | undefined {
    const oldest = this.waiting[0];
    if (oldest === undefined || this.limits.flushAfterMs === undefined) return undefined;
    return Math.max(0, oldest.since + this.limits.flushAfterMs - performance.now());
  }

  /** Until something is put, the input ends or fails, or the oldest item's flush interval is up (or a timer's longest wait, after which take() waits again). */
  private async change(): Promise<void> {
    const dueInMs = this.flushDueInMs();
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      if (dueInMs !== undefined) timer = setTimeout(resolve, Math.min(dueInMs, LONGEST_TIMER_MS));
    });
    clearTimeout(timer);
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
