import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import * as z from 'zod';
import { descriptorNamed } from './named-descriptor.js';
import { assertWritableTarget, removeStaleTemporaries, writeFileAtomic, writeFileAtomicSync } from './atomic-file.js';
import { InputError, UsageError } from '../errors.js';
import { acquireFileLock, type FileLock } from './file-lock.js';
import { FileWriteError, remedyInPlace, writeErrorReason } from './write-errors.js';
import { inRanges, rangesSchema, addRange, RangesText, type Ranges } from './position-ranges.js';

/** How a bulk run records what the service acknowledged (and what it set aside), so that a run again on the same input resumes where it stopped. */

/** The first bytes of the input identify it: a file that only grew since (a log appended to) still matches. */
const FINGERPRINT_BYTES = 64 * 1024;

const envelopeSchema = z.object({
  /** What the progress means: a command raises its version when that changes (CheckpointFormat.version). */
  version: z.number().int().min(1),
  input: z.object({ name: z.string(), fingerprint: z.string(), fingerprint_bytes: z.number().int().min(0) }),
  /** The records set aside in the --skip-invalid file, numbered as the command numbers its records; written once there is one. */
  set_aside: rangesSchema.optional(),
  updated_at: z.string(),
});
type Envelope = z.infer<typeof envelopeSchema>;

export interface CheckpointScope {
  path: string;
  /** The input file (stdin, a pipe or a device is copied to a file first). */
  inputPath: string;
  inputName: string;
  now: () => number;
  /** A dry run: read and checked as a run reads it (it belongs to this input, what it covers is skipped), never locked or written. */
  readOnly?: boolean;
}

/** What a command keeps in its checkpoint, beside the input it belongs to. */
export interface CheckpointFormat<P> {
  /** `a csafe events checkpoint`, for the message about a file that is not one. */
  what: string;
  /** The command's own fields; a file whose fields do not match is not this command's checkpoint. */
  schema: z.ZodType<P>;
  /** Progress of a first run. */
  fresh(): P;
  /** Throws when an existing checkpoint was written for another run (another namespace, shard …). */
  check(existing: P, hint: string): void;
  /**
   * The version it writes (1 if not given), raised when what its progress means changes: a csafe
   * that would read the progress otherwise refuses the file, and never resumes it wrongly.
   */
  version?: number;
  /**
   * The progress of a checkpoint written at an older `version`, as this version means it (it is
   * written so at the next save); throws when that cannot be told exactly. Without it, an older
   * checkpoint is refused.
   */
  upgrade?(existing: P, version: number, hint: string): Promise<P>;
  /**
   * The fields of the progress that hold ranges (position-ranges): each written on one line, its
   * text kept between saves (RangesText); the command says which ranges changed (rangesChanged).
   */
  rangeFields?: readonly string[];
}

/**
 * What a checkpoint keeps of the invalid records a run set aside in its --skip-invalid file: they
 * are dealt with, as acknowledged ones are, so the same command run again neither reports nor
 * appends them again. Every command's checkpoint keeps them alike, by the number the command
 * gives each record (its position among them, or its line where a line is a record).
 */
export interface SetAsideRecords {
  holds(position: number): boolean;
  /** The record is in the --skip-invalid file (told once it is written there, never before): saved soon, and on close. */
  add(position: number): void;
}

/**
 * The part every `--checkpoint` shares: an exclusive lock (one run at a time), the input it
 * belongs to (by the fingerprint of its first bytes), atomic saves as acknowledgements arrive,
 * the records set aside (SetAsideRecords), and the temporary files of killed runs removed. The
 * progress itself is the command's: it changes `progress` in place, and only ever to record what
 * the service acknowledged.
 */
export class CheckpointFile<P> {
  /** The save being written, and the one queued behind it for what changed since it began. */
  private writing?: Promise<void>;
  private queued?: Promise<void>;
  private setAsideTimer?: NodeJS.Timeout;
  /** When the last save made durable (its directory fsync'd too) began; undefined before the first. */
  private durableAt?: number;
  readonly setAside: SetAsideRecords;
  /** The text of each list of ranges, set_aside's and the progress's rangeFields', kept between saves. */
  private readonly rangesTexts = new Map<string, RangesText>();

  private constructor(
    private readonly scope: CheckpointScope,
    private readonly input: Envelope['input'],
    readonly progress: P,
    private readonly lock: FileLock,
    private readonly version: number,
    private readonly rangeFields: readonly string[],
    private readonly setAsideRanges: Ranges = [],
  ) {
    this.setAside = {
      holds: (position) => inRanges(this.setAsideRanges, position),
      add: (position) => {
        this.rangesChanged('set_aside', addRange(this.setAsideRanges, position, position));
        this.saveSetAsideSoon();
      },
    };
  }

  /** The ranges of `field` (one of the format's rangeFields) changed from `index` on: addRange's answer. */
  rangesChanged(field: string, index: number): void {
    this.rangesText(field).changed(index);
  }

  private rangesText(field: string): RangesText {
    let text = this.rangesTexts.get(field);
    if (text === undefined) this.rangesTexts.set(field, (text = new RangesText()));
    return text;
  }

  /**
   * A record set aside is saved within SET_ASIDE_SAVE_MS, with the next acknowledgement or at
   * close, whichever comes first: saved one by one, thousands of invalid records scattered
   * through an input rewrote the whole checkpoint thousands of times (a run ten times as long).
   * A run killed meanwhile sets aside again, on the next run, what it had not yet saved: a
   * repeated line in the skip file, never a record lost or sent twice. Not waited for: reading
   * goes on while it is written, and a save that fails fails the next one waited for, or close.
   */
  private saveSetAsideSoon(): void {
    if (this.setAsideTimer !== undefined) return;
    this.setAsideTimer = setTimeout(() => {
      this.setAsideTimer = undefined;
      this.save().catch(() => undefined);
    }, SET_ASIDE_SAVE_MS);
    // close() saves what is left: a pending save keeps no process alive.
    this.setAsideTimer.unref();
  }

  static async open<P>(scope: CheckpointScope, format: CheckpointFormat<P>): Promise<CheckpointFile<P>> {
    const version = format.version ?? 1;
    // Written through, a descriptor would get each save after the last: a checkpoint is replaced whole, and read again to resume.
    if (descriptorNamed(scope.path) !== undefined) {
      throw new InputError(`${scope.path}: a checkpoint is replaced as the run goes, which a descriptor cannot be`, { hint: 'give --checkpoint the path of a file' });
    }
    const lock = scope.readOnly ? NO_LOCK : await acquireFileLock(scope.path, scope.now());
    try {
      if (!scope.readOnly) await removeStaleTemporaries(scope.path);
      const hint = `delete ${scope.path} to start over, or give another --checkpoint`;
      const existing = await readCheckpoint(scope.path, format);
      if (existing === undefined) {
        await assertCheckpointWritable(scope.path);
        const input = { name: scope.inputName, ...(await fingerprintOf(scope.inputPath, FINGERPRINT_BYTES)) };
        return new CheckpointFile(scope, input, format.fresh(), lock, version, format.rangeFields ?? []);
      }
      format.check(existing.progress, hint);
      await assertSameInput(existing.envelope.input, scope, hint);
      const progress = await progressAtVersion(scope.path, existing, format, hint);
      if (!scope.readOnly) await assertCheckpointWritable(scope.path);
      return new CheckpointFile(scope, existing.envelope.input, progress, lock, version, format.rangeFields ?? [], existing.envelope.set_aside);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /**
   * Saves the progress as it is now, resolving once a save that holds it is on disk. A save
   * starts at once; one asked for while another is being written follows it, and serves every
   * caller that asked meanwhile, so a burst of acknowledgements costs two writes, not one each.
   * A run that waits for this before its next request is behind on disk by at most the requests
   * in flight when it is killed.
   */
  save(): Promise<void> {
    if (this.queued !== undefined) return this.queued;
    if (this.writing === undefined) {
      this.writing = this.write().finally(() => (this.writing = undefined));
      return this.writing;
    }
    this.queued = this.writing
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.save();
      });
    return this.queued;
  }

  async close(): Promise<void> {
    clearTimeout(this.setAsideTimer);
    if (this.scope.readOnly) return;
    try {
      await (this.queued ?? this.writing)?.catch(() => undefined);
      await this.write(true);
    } finally {
      await removeStaleTemporaries(this.scope.path);
      await this.lock.release();
    }
  }

  /**
   * Saves the progress as it is now, synchronously, for a process about to leave at once (a second
   * Ctrl-C): what it records then is on disk before the exit, which lets go of the lock (see
   * core/files/file-lock). A checkpoint that is no regular file is left as it is, and said.
   */
  saveNow(): void {
    if (this.scope.readOnly) return;
    let replaced: boolean;
    try {
      replaced = writeFileAtomicSync(this.scope.path, this.text(this.scope.now()));
    } catch (error) {
      throw new FileWriteError(this.scope.path, writeErrorReason(error), ' the checkpoint');
    }
    if (!replaced) throw new FileWriteError(this.scope.path, 'it is no regular file, which only a write that waits can go through', ' the checkpoint');
  }

  /**
   * One save, whole at every write: written beside the checkpoint, fsync'd, renamed over it, so
   * neither kill -9 nor a power cut finds it torn or empty. The rename itself is made durable
   * (the directory fsync'd) the first time, at least every DURABLE_EVERY_MS and at close: a power
   * cut may find the checkpoint as it was up to a second before. A directory's fsync at every
   * acknowledgement, each waited for before the slot's next request, cost a command of one
   * request a line a sixth of its time (classify --batch, 4,200 lines: 3.56 s against 2.98 s).
   */
  private async write(last = false): Promise<void> {
    if (this.scope.readOnly) return;
    const now = this.scope.now();
    const durable = last || isDurableDue(now, this.durableAt);
    if (durable) this.durableAt = now;
    const text = this.text(now);
    try {
      await writeFileAtomic(this.scope.path, text, { syncDirectory: durable });
    } catch (error) {
      const failed = new FileWriteError(this.scope.path, writeErrorReason(error), ' the checkpoint');
      // Another --checkpoint would start over, sending what this one holds a second time.
      failed.instead(`${remedyInPlace(failed.reason)}, then run the same command again, this --checkpoint kept: it sends again only what was acknowledged since its last save`);
      throw failed;
    }
  }

  /** The file's text: one member a line, each list of ranges on its own line, written from its kept text (rangesTexts). */
  private text(now: number): string {
    const plain: Record<string, unknown> = { version: this.version, input: this.input, ...this.progress };
    const ranges: Array<[string, string]> = [];
    for (const field of this.rangeFields) {
      ranges.push([field, this.rangesText(field).of(plain[field] as Ranges)]);
      delete plain[field];
    }
    if (this.setAsideRanges.length > 0) ranges.push(['set_aside', this.rangesText('set_aside').of(this.setAsideRanges)]);
    const members = [...ranges, ['updated_at', JSON.stringify(new Date(now).toISOString())]].map(([name, value]) => `,\n ${JSON.stringify(name)}: ${value}`);
    // The plain members as JSON.stringify writes them, one a line, without the closing brace.
    return `${JSON.stringify(plain, null, 1).slice(0, -2)}${members.join('')}\n}\n`;
  }
}

/** The longest a record set aside waits to be saved (see saveSetAsideSoon). */
const SET_ASIDE_SAVE_MS = 1000;

/** The longest a checkpoint's renames go without the directory's fsync (see CheckpointFile.write): what a power cut may cost. */
const DURABLE_EVERY_MS = 1000;

/**
 * Whether a save at `now` is made durable, the last durable one having begun at `durableAt` (none
 * yet: undefined). A clock set back (an NTP step, a virtual machine resumed) makes it due at once:
 * waiting for the clock to pass `durableAt` again would leave every rename that long undurable.
 */
export const isDurableDue = (now: number, durableAt: number | undefined) => durableAt === undefined || now < durableAt || now - durableAt >= DURABLE_EVERY_MS;

/**
 * Nothing is written before the first acknowledgement: a checkpoint that cannot be (a link to
 * nothing, a file made read-only) would stop the run with records sent. Asked at open.
 */
async function assertCheckpointWritable(path: string): Promise<void> {
  await assertWritableTarget(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === undefined) throw new InputError(`${path}: ${(error as Error).message}`, { hint: 'create the file it names, or give --checkpoint another path' });
    throw new InputError(`${path}: could not write: ${writeErrorReason(error)}`, { hint: 'make it writable to this user, or give --checkpoint another path' });
  });
}

/** A read-only checkpoint's: no other run is kept out by a dry run. */
const NO_LOCK: FileLock = { release: async () => undefined };

async function readCheckpoint<P>(path: string, format: CheckpointFormat<P>): Promise<{ envelope: Envelope; progress: P } | undefined> {
  let text: string;
  try {
    text = await readRegularFile(path);
  } catch (error) {
    if (error instanceof InputError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError(`${path}: ${(error as Error).message}`);
  }
  const json = (() => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  })();
  const envelope = envelopeSchema.safeParse(json);
  // The envelope's fields are not the command's: a progress that keeps unknown fields must not write an old version back.
  const progress = format.schema.safeParse(withoutEnvelope(json));
  if (!envelope.success || !progress.success) {
    throw new InputError(`${path}: not ${format.what}`, { hint: 'give another --checkpoint path, or delete this file to start over' });
  }
  return { envelope: envelope.data, progress: progress.data };
}

function withoutEnvelope(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const { version: _version, input: _input, set_aside: _setAside, updated_at: _updatedAt, ...progress } = json as Record<string, unknown>;
  return progress;
}

/** The progress of a checkpoint as this csafe means it: one an older csafe wrote is upgraded, or refused, as is one a newer csafe wrote. */
async function progressAtVersion<P>(path: string, existing: { envelope: Envelope; progress: P }, format: CheckpointFormat<P>, hint: string): Promise<P> {
  const version = format.version ?? 1;
  const written = existing.envelope.version;
  if (written === version) return existing.progress;
  if (written > version || format.upgrade === undefined) {
    const by = written > version ? 'a newer csafe' : 'an older csafe';
    throw new UsageError(`${path} was written by ${by} (checkpoint version ${written}), which this csafe (version ${version}) cannot resume`, { hint: written > version ? `run it with the csafe that wrote it, or ${hint}` : hint });
  }
  return format.upgrade(existing.progress, written, hint);
}

/**
 * A checkpoint is read whole and then replaced, so it is a regular file: a FIFO, a device
 * (/dev/zero has no end) or a directory is refused before a byte is read. Opened without
 * blocking, as a FIFO with no writer would otherwise be waited on for ever, past Ctrl-C.
 */
async function readRegularFile(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile()) throw new InputError(`${path}: not a regular file`, { hint: 'give --checkpoint the path of a file, or of one not made yet' });
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

async function assertSameInput(recorded: Envelope['input'], scope: CheckpointScope, hint: string): Promise<void> {
  const current = await fingerprintOf(scope.inputPath, recorded.fingerprint_bytes);
  if (current.fingerprint_bytes !== recorded.fingerprint_bytes || current.fingerprint !== recorded.fingerprint) {
    throw new UsageError(`${scope.path} belongs to another input (${recorded.name}); ${scope.inputName} does not start with the same bytes`, { hint });
  }
}

async function fingerprintOf(path: string, bytes: number): Promise<{ fingerprint: string; fingerprint_bytes: number }> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    // node:crypto is loaded here, not with the module: a command that takes --checkpoint loads this module whether or not one is given.
    return { fingerprint: process.getBuiltinModule('node:crypto').createHash('sha256').update(buffer.subarray(0, bytesRead)).digest('hex'), fingerprint_bytes: bytesRead };
  } finally {
    await handle.close();
  }
}
