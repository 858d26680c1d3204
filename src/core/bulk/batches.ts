import { LONGEST_TIMER_MS } from '../cli/duration.js';
/** Where a batch ends: consecutive items grouped within a count and a byte limit. */

export interface BatchLimits<T> {
  maxItems: number;
  /** The most bytes a batch may hold, counted with sizeOf; an item bigger on its own forms a batch alone. */
  maxBytes: number;
  sizeOf(item: T): number;
  /**
   * A batch that is not full goes once its oldest item has waited this long for the input to give
   * more (a pipe that trickles: `tail -f log |`). Without it, such a batch waits for the items that
   * fill it or for the input's end, however long that takes.
   */
  flushAfterMs?: number;
  /**
   * Given, once, what tells at any moment the items read and not yet taken to be sent, as batches:
   * the last batch handed over (its taker may not have started it yet), the batch being filled and
   * the rest of the group read. For a last write when csafe must leave at once.
   */
  exposeWaiting?(waiting: () => T[][]): void;
}

/** What a batch being filled holds so far. */
export interface BatchFill {
  items: number;
  bytes: number;
}

/**
 * Where a batch ends, for every cutter: an item of `size` bytes joins the batch while it keeps it
 * within maxItems and maxBytes; an empty batch takes any item, so one bigger than maxBytes goes alone.
 */
export const fitsInBatch = (fill: BatchFill, size: number, limits: Pick<BatchLimits<unknown>, 'maxItems' | 'maxBytes'>): boolean =>
  fill.items === 0 || (fill.items < limits.maxItems && fill.bytes + size <= limits.maxBytes);

/**
 * Consecutive items, read in groups (a chunk of input's records), grouped into batches within both
 * limits, streamed: at most one batch is held. A batch full by count goes at once, not when the
 * next item comes: from a pipe that may be long (a line typed, a log that grows), and a command of
 * one line a request would answer each line only once the next was read. A batch that is not full
 * goes once its oldest item has waited limits.flushAfterMs for the input.
 */
export async function* inBatches<T>(groups: AsyncIterable<Iterable<T>>, limits: BatchLimits<T>): AsyncGenerator<T[]> {
  const source = groups[Symbol.asyncIterator]();
  let batch: T[] = [];
  let bytes = 0;
  let oldestSince = 0;
  /** The next group asked for and not yet come: it stays asked for while a batch that waited too long goes. */
  let reading: Promise<IteratorResult<Iterable<T>>> | undefined;
  let exhausted = false;
  /** The group being cut, and the index of its first item not yet in a batch. */
  let group: T[] = [];
  let taken = 0;
  let handedOver: T[] = [];
  limits.exposeWaiting?.(() => [handedOver, [...batch, ...group.slice(taken)]]);
  const handOver = () => {
    const full = batch;
    batch = [];
    bytes = 0;
    handedOver = full;
    return full;
  };
  try {
    for (;;) {
      reading ??= source.next();
      const next = await withinFlush(reading, batch.length === 0 || limits.flushAfterMs === undefined ? undefined : oldestSince + limits.flushAfterMs - performance.now());
      if (next === undefined) {
        yield handOver();
        continue;
      }
      reading = undefined;
      if (next.done === true) break;
      group = [...next.value];
      for (taken = 0; taken < group.length; ) {
        const item = group[taken]!;
        const size = limits.sizeOf(item);
        if (!fitsInBatch({ items: batch.length, bytes }, size, limits)) yield handOver();
        if (batch.length === 0) oldestSince = performance.now();
        batch.push(item);
        taken++;
        bytes += size;
        if (batch.length >= limits.maxItems) yield handOver();
      }
      group = [];
    }
    exhausted = true;
    if (batch.length > 0) yield handOver();
  } finally {
    // Left early (the caller stopped, or reading failed): the input is closed as a for-await would;
    // behind a group still awaited, which the input's end or the signal that stopped it brings.
    if (!exhausted) {
      const closing = Promise.resolve(source.return?.());
      if (reading === undefined) await closing;
      else closing.catch(() => undefined);
    }
  }
}


/** The group read, or undefined once `dueInMs` has passed first (none given: the group, however long it takes). */
async function withinFlush<R>(reading: Promise<R>, dueInMs: number | undefined): Promise<R | undefined> {
  if (dueInMs === undefined) return reading;
  const dueAt = performance.now() + dueInMs;
  const waited = Symbol('waited');
  let timer: NodeJS.Timeout | undefined;
  try {
    for (let left = dueInMs; left > 0; left = dueAt - performance.now()) {
      const step = new Promise<typeof waited>((resolve) => (timer = setTimeout(resolve, Math.min(left, LONGEST_TIMER_MS), waited)));
      const next = await Promise.race([reading, step]);
      if (next !== waited) return next;
    }
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** The input lines a batch came from, for a message about it: `12`, or `12-15`. */
export function batchLines(batch: readonly { line: number }[]): string {
  const [first, last] = [batch[0]!.line, batch.at(-1)!.line];
  return first === last ? String(first) : `${first}-${last}`;
}
