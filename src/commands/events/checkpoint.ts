import { createHash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/atomic-file.js';
import { InputError, UsageError } from '../../core/errors.js';
import { acquireFileLock, type FileLock } from '../../core/file-lock.js';
import { SLOT_COUNT } from './placement.js';

/** The first bytes of the input identify it: a file that only grew since (a log appended to) still matches. */
const FINGERPRINT_BYTES = 64 * 1024;

const checkpointSchema = z.object({
  version: z.literal(1),
  input: z.object({ name: z.string(), fingerprint: z.string(), fingerprint_bytes: z.number().int().min(0) }),
  shard: z.string().nullable(),
  slots: z.literal(SLOT_COUNT),
  /** slot → position (1-based, among all records of the input) of the last record of that slot that is settled. */
  settled: z.record(z.string(), z.number().int().min(1)),
  updated_at: z.string(),
});
type CheckpointData = z.infer<typeof checkpointSchema>;

export interface CheckpointScope {
  path: string;
  /** The input file (stdin is spooled to a file first). */
  inputPath: string;
  inputName: string;
  shard: string | null;
  now: () => number;
}

/**
 * How far each slot has been settled (acknowledged by the service, or handed back in the failed
 * file). A record is settled only after everything before it in its slot is, so one number per
 * slot says it all. Saved atomically and at most every `intervalMs`; being behind is safe, since
 * a resent event carries the same idempotency key.
 */
export class Checkpoint {
  private saving?: Promise<void>;
  private lastSaved = 0;

  private constructor(
    private readonly scope: CheckpointScope,
    private readonly data: CheckpointData,
    private readonly lock: FileLock,
    private readonly intervalMs: number,
  ) {}

  static async open(scope: CheckpointScope, intervalMs = 250): Promise<Checkpoint> {
    const lock = await acquireFileLock(scope.path, scope.now());
    try {
      const fingerprint = await fingerprintOf(scope.inputPath, FINGERPRINT_BYTES);
      const existing = await readCheckpoint(scope.path);
      if (existing !== undefined) await assertSameRun(existing, scope);
      const data: CheckpointData = existing ?? {
        version: 1,
        input: { name: scope.inputName, ...fingerprint },
        shard: scope.shard,
        slots: SLOT_COUNT,
        settled: {},
        updated_at: new Date(scope.now()).toISOString(),
      };
      return new Checkpoint(scope, data, lock, intervalMs);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  isSettled(slot: number, position: number): boolean {
    return position <= (this.data.settled[slot] ?? 0);
  }

  settle(slot: number, position: number): void {
    if (position > (this.data.settled[slot] ?? 0)) this.data.settled[slot] = position;
  }

  /**
   * Saves when the last save is old enough. `beforeWrite` runs after the snapshot is taken and
   * before it is written: the failed file is flushed there, so the checkpoint never covers a
   * record that is neither acknowledged nor on disk.
   */
  async saveIfDue(beforeWrite: () => Promise<void>): Promise<void> {
    if (this.saving !== undefined || this.scope.now() - this.lastSaved < this.intervalMs) return;
    this.lastSaved = this.scope.now();
    this.saving = this.write(beforeWrite).finally(() => (this.saving = undefined));
    await this.saving;
  }

  async close(beforeWrite: () => Promise<void>): Promise<void> {
    try {
      await this.saving;
      await this.write(beforeWrite);
    } finally {
      await this.lock.release();
    }
  }

  private async write(beforeWrite: () => Promise<void>): Promise<void> {
    const snapshot = { ...this.data, settled: { ...this.data.settled }, updated_at: new Date(this.scope.now()).toISOString() };
    await beforeWrite();
    await writeFileAtomic(this.scope.path, JSON.stringify(snapshot, null, 1) + '\n');
  }
}

async function readCheckpoint(path: string): Promise<CheckpointData | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError(`${path}: ${(error as Error).message}`);
  }
  const parsed = checkpointSchema.safeParse((() => { try { return JSON.parse(text); } catch { return undefined; } })());
  if (!parsed.success) throw new InputError(`${path}: not a csafe events checkpoint`, { hint: 'give another --checkpoint path, or delete this file to start over' });
  return parsed.data;
}

async function assertSameRun(existing: CheckpointData, scope: CheckpointScope): Promise<void> {
  const hint = `delete ${scope.path} to start over, or give another --checkpoint`;
  if (existing.shard !== scope.shard) {
    throw new UsageError(`${scope.path} was written for --shard ${existing.shard ?? '(none)'}, not ${scope.shard ?? '(none)'}`, { hint });
  }
  const current = await fingerprintOf(scope.inputPath, existing.input.fingerprint_bytes);
  if (current.fingerprint_bytes !== existing.input.fingerprint_bytes || current.fingerprint !== existing.input.fingerprint) {
    throw new UsageError(`${scope.path} belongs to another input (${existing.input.name}); ${scope.inputName} does not start with the same bytes`, { hint });
  }
}

async function fingerprintOf(path: string, bytes: number): Promise<{ fingerprint: string; fingerprint_bytes: number }> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return { fingerprint: createHash('sha256').update(buffer.subarray(0, bytesRead)).digest('hex'), fingerprint_bytes: bytesRead };
  } finally {
    await handle.close();
  }
}
