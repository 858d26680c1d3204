import * as z from 'zod';
import { CheckpointFile, type CheckpointScope, type SetAsideRecords } from '../../../core/files/checkpoint-file.js';
import { assertCheckpointShard, formatShard, type Shard } from '../../../core/bulk/shard.js';
import { SLOT_COUNT } from './placement.js';

// `csafe events send --checkpoint`: how far the service has acknowledged each slot, so a rerun resumes
// without sending an event twice or out of order.

const progressSchema = z.object({
  shard: z.string().nullable(),
  slots: z.literal(SLOT_COUNT),
  /** slot → position (1-based, among all records of the input) of the last record of that slot that is acknowledged. */
  settled: z.record(z.string(), z.number().int().min(1)),
});
type Progress = z.infer<typeof progressSchema>;

/**
 * How far each slot has been acknowledged by the service. A slot's events are sent in order
 * (one lane), so one number per slot says it all: every event of the slot up to that position
 * was acknowledged. An event that failed, or was held back behind one that failed, is not: its
 * slot's number stays before it for the rest of the run, so the next run of the same command
 * sends it, and every later event of its slot, again in order (a resent event that did arrive
 * carries the same idempotency key, so the service ingests it once).
 */
export class Checkpoint {
  private readonly stuck = new Set<number>();

  private constructor(private readonly file: CheckpointFile<Progress>) {}

  static async open(scope: CheckpointScope & { shard: Shard | undefined }): Promise<Checkpoint> {
    const file = await CheckpointFile.open<Progress>(scope, {
      what: 'a csafe events checkpoint',
      schema: progressSchema,
      fresh: () => ({ shard: formatShard(scope.shard), slots: SLOT_COUNT, settled: {} }),
      check: (existing, hint) => assertCheckpointShard(scope.path, existing.shard, scope.shard, hint),
    });
    return new Checkpoint(file);
  }

  isSettled(slot: number, position: number): boolean {
    return position <= (this.file.progress.settled[slot] ?? 0);
  }

  /** The service acknowledged the event at `position`; called in input order within a slot. */
  acknowledge(slot: number, position: number): void {
    if (this.stuck.has(slot)) return;
    if (position > (this.file.progress.settled[slot] ?? 0)) this.file.progress.settled[slot] = position;
  }

  /** An event of the slot was not acknowledged: nothing after it in the slot counts as done in this run. */
  hold(slot: number): void {
    this.stuck.add(slot);
  }

  /** The records set aside in the --skip-invalid file, by position: see CheckpointFile. */
  get setAside(): SetAsideRecords {
    return this.file.setAside;
  }

  /** On disk once this resolves: see CheckpointFile.save. */
  save(): Promise<void> {
    return this.file.save();
  }

  /** On disk before this returns, for a process leaving at once: see CheckpointFile.saveNow. */
  saveNow(): void {
    this.file.saveNow();
  }

  close(): Promise<void> {
    return this.file.close();
  }
}
