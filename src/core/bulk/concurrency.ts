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
  /** The next item asked for and not yet come: a pipe may be long in giving it. */
  let reading: Promise<IteratorResult<T>> | undefined;
  let settled: (() => void) | undefined;
  const aSlotSettles = () => new Promise<undefined>((resolve) => (settled = () => resolve(undefined)));
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
        reading ??= Promise.resolve(source.next());
        const next = await firstOf(reading, started[0], aSlotSettles);
        settled = undefined;
        // The oldest's outcome is in and the next item is not: it is handed over while the input is awaited.
        if (next === undefined) {
          if (started[0]?.outcome !== undefined) break;
          continue;
        }
        reading = undefined;
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
        await aSlotSettles();
        settled = undefined;
      }
    }
  } finally {
    // Left early (the caller stopped, or reading failed): the input is closed as a for-await would;
    // behind an item still awaited, which the input's end or the signal that stopped it brings.
    if (!exhausted) {
      const closing = Promise.resolve(source.return?.());
      if (reading === undefined) await closing;
      else closing.catch(() => undefined);
    }
  }
}

/**
 * The next item, or undefined when, waiting for it, there is something else to do first. With
 * nothing started, the item is all there is to wait for. With the oldest in flight, a slot that
 * settles (its place may be refilled) comes first. With the oldest's outcome in, an item that
 * takes longer than this turn of the event loop (a pipe that stays open) comes second: the
 * outcome is handed over meanwhile; an item at hand (a file's next line) is started before it.
 */
async function firstOf<T, R>(reading: Promise<IteratorResult<T>>, oldest: Slot<T, R> | undefined, aSlotSettles: () => Promise<undefined>): Promise<IteratorResult<T> | undefined> {
  if (oldest === undefined) return reading;
  if (oldest.outcome === undefined) return Promise.race([reading, aSlotSettles()]);
  return Promise.race([reading, new Promise<undefined>((resolve) => setImmediate(resolve, undefined))]);
}
