import * as z from 'zod';
import { CheckpointFile, type CheckpointScope, type SetAsideRecords } from '../files/checkpoint-file.js';
import { addRange, inRanges, rangesSchema, type Ranges } from '../files/position-ranges.js';
import { UsageError } from '../errors.js';
import { assertCheckpointShard, formatShard, type Shard } from './shard.js';

// `--checkpoint` of the bulk commands whose records may go in any order (data add, classify
// --batch, stream parts): the records the service acknowledged, by position, so running the same
// command again sends only the rest.

const progressSchema = z
  .object({
    /** The `--shard i/n` it was written for, null without (and in checkpoints written before --shard existed). */
    shard: z.string().nullable().default(null),
    /** Records (by position, from 1) in requests the service accepted: sorted, disjoint [first, last] ranges. */
    acknowledged: rangesSchema,
  })
  .catchall(z.unknown());
type Progress = z.infer<typeof progressSchema>;

export interface RangeCheckpointScope extends CheckpointScope {
  /** `a csafe data add checkpoint`, for the message about a file that is not one. */
  what: string;
  shard?: Shard;
  /** What else the run was for (`namespace`, `stream`): a checkpoint written for other values is refused. */
  identity: Record<string, string>;
  /**
   * A command whose checkpoints once numbered records otherwise (stream parts: by line, before
   * version 2) gives the version that numbers them by position, and how an older checkpoint's
   * ranges become positions (or why they cannot): see CheckpointFormat.
   */
  version?: number;
  upgrade?(acknowledged: Ranges, version: number, hint: string): Promise<Ranges>;
}

/**
 * Which records of the input went out in requests the service accepted (or, not safe to send
 * twice, may have applied). A batch that failed is not recorded, so the next run of the same
 * command sends it again; the failed file is only the record of what failed when.
 */
export class RangeCheckpoint {
  private constructor(private readonly file: CheckpointFile<Progress>) {}

  static async open(scope: RangeCheckpointScope): Promise<RangeCheckpoint> {
    const file = await CheckpointFile.open<Progress>(scope, {
      what: scope.what,
      schema: progressSchema,
      fresh: () => ({ ...scope.identity, shard: formatShard(scope.shard), acknowledged: [] }),
      check: (existing, hint) => {
        for (const [field, value] of Object.entries(scope.identity)) {
          if (existing[field] !== value) throw new UsageError(`${scope.path} was written for ${field} ${existing[field] === undefined ? '(none)' : String(existing[field])}, not ${value}`, { hint });
        }
        assertCheckpointShard(scope.path, existing.shard, scope.shard, hint);
      },
      version: scope.version,
      rangeFields: ['acknowledged'],
      upgrade: scope.upgrade && (async (existing, version, hint) => ({ ...existing, acknowledged: await scope.upgrade!(existing.acknowledged, version, hint) })),
    });
    return new RangeCheckpoint(file);
  }

  isAcknowledged(position: number): boolean {
    return inRanges(this.file.progress.acknowledged, position);
  }

  /** The service accepted a request carrying the records from `first` to `last`. */
  acknowledge(first: number, last: number): void {
    this.file.rangesChanged('acknowledged', addRange(this.file.progress.acknowledged, first, last));
  }

  /** The records set aside in the --skip-invalid file: see CheckpointFile. */
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

/**
 * The records a checkpoint does not hold as acknowledged (`isAcknowledged`; without a checkpoint,
 * all of them), a group at a time; those it holds are counted as skipped by the checkpoint.
 */
export async function* unacknowledged<T>(
  groups: AsyncIterable<readonly T[]>,
  isAcknowledged: ((record: T) => boolean) | undefined,
  counts: { skipped_checkpoint: number },
): AsyncGenerator<readonly T[]> {
  if (isAcknowledged === undefined) return yield* groups;
  for await (const records of groups) {
    const due = records.filter((record) => !isAcknowledged(record));
    counts.skipped_checkpoint += records.length - due.length;
    if (due.length > 0) yield due;
  }
}
