import type { DryRunPlan } from '../http/dry-run.js';
import { fitsInBatch, type BatchFill, type BatchLimits } from './batches.js';

/** How a bulk command's --dry-run tells what its run would send (the grammar: core/http/dry-run.ts). */

/**
 * The records, already checked as a real run checks them, cut into the batches a real run would
 * send; the first batch goes to `send`, the command's own request, which the HTTP core records in
 * place of sending (DryRunEnded), with how many requests and records there would be in all.
 * `laneOf`: records that keep their order per lane (events send) are cut per lane, as a lane
 * cuts them when it waits for a full batch or the end of the input. Holds one batch and a fill
 * per lane, however large the input.
 */
export async function planBatches<T>(
  plan: DryRunPlan,
  records: AsyncIterable<Iterable<T>>,
  limits: BatchLimits<T>,
  noun: string,
  send: (batch: T[]) => Promise<unknown>,
  laneOf?: (record: T) => number,
): Promise<never> {
  const fills = new Map<number, BatchFill>();
  let first: { lane: number; records: T[]; complete: boolean } | undefined;
  let requests = 0;
  let count = 0;
  for await (const group of records) {
    for (const record of group) {
      count++;
      const lane = laneOf?.(record) ?? 0;
      const size = limits.sizeOf(record);
      const fill = fills.get(lane) ?? { items: 0, bytes: 0 };
      fills.set(lane, fill);
      if (!fitsInBatch(fill, size, limits)) {
        requests++;
        Object.assign(fill, { items: 0, bytes: 0 });
        if (first?.lane === lane) first.complete = true;
      }
      fill.items++;
      fill.bytes += size;
      first ??= { lane, records: [], complete: false };
      if (first.lane === lane && !first.complete) first.records.push(record);
    }
  }
  requests += [...fills.values()].filter((fill) => fill.items > 0).length;
  plan.total = { requests, records: { count, noun } };
  if (first !== undefined) await send(first.records);
  // Reached only with nothing to send: a request would have ended the run.
  throw plan.stopEmpty();
}
