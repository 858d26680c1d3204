export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Runs `work` over items with at most `limit` in flight and yields the outcomes in input order.
 * Reading pauses while the window is full, so memory stays flat however long the input is.
 */
export async function* mapInOrder<T, R>(
  items: AsyncIterable<T> | Iterable<T>,
  limit: number,
  work: (item: T) => Promise<R>,
): AsyncGenerator<{ item: T; outcome: Settled<R> }> {
  const window: Promise<{ item: T; outcome: Settled<R> }>[] = [];
  const settle = (item: T) =>
    work(item).then(
      (value) => ({ item, outcome: { ok: true as const, value } }),
      (error: unknown) => ({ item, outcome: { ok: false as const, error } }),
    );
  for await (const item of items) {
    window.push(settle(item));
    if (window.length >= limit) yield await window.shift()!;
  }
  while (window.length > 0) yield await window.shift()!;
}
