/** How requests run several at once while their outcomes come back in input order, in flat memory. */

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** One item started and not yet yielded; `outcome` is set once its work settles. */
interface Slot<T, R> {
  item: T;
  outcome?: Settled<R>;
}

/**
 * Runs `work` over items with at most `limit` in flight and yields the outcomes in input order.
 * A request that finishes is replaced at once, whichever it was, so one slow item does not hold
 * the others back; the outcomes that finish before it wait in a reorder buffer. At most `window`
 * items are between the oldest not yet yielded and the newest started: when the oldest is slow
 * for that long, reading pauses, so memory stays flat however long the input is. The default,
 * `limit`, holds no more than the requests in flight: nothing starts past a slow oldest item.
 * `handOverFirst`: the outcomes in are handed over before their places are refilled, so what the
 * caller does with one (a checkpoint written) is done before the next item starts; without it a
 * finished item's place is refilled first, which keeps every slot busy while the caller works.
 */
export async function* mapInOrder<T, R>(
  items: AsyncIterable<T> | Iterable<T>,
  limit: number,
  work: (item: T) => Promise<R>,
  { window = limit, handOverFirst = false }: { window?: number; handOverFirst?: boolean } = {},
): AsyncGenerator<{ item: T; outcome: Settled<R>; /** The next outcome in order is in too (handOverFirst hands it over before anything else starts). */ moreSettled: boolean }> {
  const source: AsyncIterator<T> | Iterator<T> = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  /** In input order; the head is the next to yield. */
  const started: Slot<T, R>[] = [];
  let inFlight = 0;
  let exhausted = false;
  let settled: (() => void) | undefined;
  const start = (item: T) => {
    const slot: Slot<T, R> = { item };
    started.push(slot);
    inFlight++;
    const finish = (outcome: Settled<R>) => {
      slot.outcome = outcome;
      inFlight--;
      settled?.();
    };
    work(item).then(
      (value) => finish({ ok: true, value }),
      (error: unknown) => finish({ ok: false, error }),
    );
  };
  try {
    for (;;) {
      const head = started[0];
      if (handOverFirst && head?.outcome !== undefined) {
        started.shift();
        yield { item: head.item, outcome: head.outcome, moreSettled: started[0]?.outcome !== undefined };
        continue;
      }
      while (!exhausted && inFlight < limit && started.length < Math.max(window, limit)) {
        const next = await source.next();
        if (next.done) exhausted = true;
        else start(next.value);
      }
      if (started.length === 0) return;
      const oldest = started[0]!;
      if (!handOverFirst && oldest.outcome !== undefined) {
        started.shift();
        yield { item: oldest.item, outcome: oldest.outcome, moreSettled: started[0]?.outcome !== undefined };
        continue;
      }
      if (oldest.outcome === undefined) {
        await new Promise<void>((resolve) => (settled = resolve));
        settled = undefined;
      }
    }
  } finally {
    // Left early (the caller stopped, or reading failed): the input is closed as a for-await would.
    if (!exhausted) await source.return?.();
  }
}
