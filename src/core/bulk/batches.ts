/** Where a batch ends: consecutive items grouped within a count and a byte limit. */

export interface BatchLimits<T> {
  maxItems: number;
  /** The most bytes a batch may hold, counted with sizeOf; an item bigger on its own forms a batch alone. */
  maxBytes: number;
  sizeOf(item: T): number;
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
 * one line a request would answer each line only once the next was read.
 */
export async function* inBatches<T>(groups: AsyncIterable<Iterable<T>>, limits: BatchLimits<T>): AsyncGenerator<T[]> {
  let batch: T[] = [];
  let bytes = 0;
  for await (const group of groups) {
    for (const item of group) {
      const size = limits.sizeOf(item);
      if (!fitsInBatch({ items: batch.length, bytes }, size, limits)) {
        yield batch;
        batch = [];
        bytes = 0;
      }
      batch.push(item);
      bytes += size;
      if (batch.length >= limits.maxItems) {
        yield batch;
        batch = [];
        bytes = 0;
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/** The input lines a batch came from, for a message about it: `12`, or `12-15`. */
export function batchLines(batch: readonly { line: number }[]): string {
  const [first, last] = [batch[0]!.line, batch.at(-1)!.line];
  return first === last ? String(first) : `${first}-${last}`;
}
