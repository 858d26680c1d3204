import type { JobStore } from '../stores/job-store.js';
import type { BatchRecord } from './records.js';

/** How a batch's record changes without one change (processing's, a cancel's) overwriting another. */

/** Per store, the last change under way of each batch: the next one starts when it has ended. */
const changesUnderWay = new WeakMap<JobStore<BatchRecord>, Map<string, Promise<unknown>>>();

/**
 * Changes a batch's record compare-and-set: `change` gets the record as saved, after every earlier
 * change of the same batch has been saved, and returns the record to save, or undefined to leave it
 * (it may also throw). So an upload landing, the processing and a cancel that race each decide from
 * the status the one before them left: a batch answered CANCELLED is never moved on by processing
 * that saw it PENDING earlier. Resolves to the record saved, or undefined.
 */
export function changeBatch(
  store: JobStore<BatchRecord>,
  batchId: string,
  change: (record: BatchRecord) => BatchRecord | undefined | Promise<BatchRecord | undefined>,
): Promise<BatchRecord | undefined> {
  return oneAtATime(store, batchId, async () => {
    const record = await store.get(batchId);
    const changed = record === undefined ? undefined : await change(record);
    if (changed !== undefined) await store.save(batchId, changed);
    return changed;
  });
}

/** Processing's changes: saved only while the batch is still PENDING; false once it is not (cancelled). */
export async function changePending(store: JobStore<BatchRecord>, batchId: string, changes: Partial<BatchRecord>): Promise<boolean> {
  const saved = await changeBatch(store, batchId, (record) => (record.status === 'PENDING' ? { ...record, ...changes } : undefined));
  return saved !== undefined;
}

function oneAtATime<T>(store: JobStore<BatchRecord>, batchId: string, work: () => Promise<T>): Promise<T> {
  let queue = changesUnderWay.get(store);
  if (queue === undefined) changesUnderWay.set(store, (queue = new Map()));
  const next = (queue.get(batchId) ?? Promise.resolve()).then(work);
  const ended = next.catch(() => undefined);
  queue.set(batchId, ended);
  // Forgotten once nothing follows it, so the map holds only batches changing now.
  void ended.then(() => queue.get(batchId) === ended && queue.delete(batchId));
  return next;
}
