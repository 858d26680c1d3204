export interface BatchLimits<T> {
  maxItems: number;
  /** The most bytes a batch may hold, counted with sizeOf; an item bigger on its own forms a batch alone. */
  maxBytes: number;
  sizeOf(item: T): number;
}

/** Consecutive items grouped into batches within both limits, streamed: at most one batch is held. */
export async function* inBatches<T>(items: AsyncIterable<T>, limits: BatchLimits<T>): AsyncGenerator<T[]> {
  let batch: T[] = [];
  let bytes = 0;
  for await (const item of items) {
    const size = limits.sizeOf(item);
    if (batch.length > 0 && (batch.length >= limits.maxItems || bytes + size > limits.maxBytes)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += size;
  }
  if (batch.length > 0) yield batch;
}
