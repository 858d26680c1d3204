import { constants, statSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { link, lstat, open, rename, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { LockedError, UsageError } from '../errors.js';
import { realPath } from './distinct-files.js';
import { isRunning, processStartTime } from './processes.js';
import { FileWriteError, writeErrorReason } from './write-errors.js';
import { removeStaleTemporaries, temporaryPath } from './atomic-file.js';

/** How one run at a time holds a file, and when a lock left behind by a run that is gone may be taken over. */

interface LockOwner {
  pid: number;
  host: string;
  since: string;
  /** When the owning process started, as processStartTime says: tells it from a later process given the same pid. */
  started?: string;
}

export interface FileLock {
  release(): Promise<void>;
}

/** The hint's way to another file, for a checkpoint's lock; the config file's lock names its own. */
const ANOTHER_CHECKPOINT = 'give --checkpoint another name';

/** The lock files this process holds, by path, with the inode each was made as: a lock file naming this process's pid is its own only if listed here. */
const heldHere = new Map<string, bigint>();
let exitHookSet = false;

/** Records a lock file this process made as its own, let go at the latest as the process exits. */
function hold(lockPath: string, inode: bigint): void {
  if (!exitHookSet) process.once('exit', releaseHeldAtExit);
  exitHookSet = true;
  heldHere.set(lockPath, inode);
}

/**
 * Lets go of the locks still held as the process exits: one that leaves at once (a second Ctrl-C
 * or SIGTERM) skips every release. A lock left behind is judged by its owner's pid, which a run in
 * another container (another host name) cannot check: it took it for a live run's, and was
 * refused until someone deleted it.
 */
function releaseHeldAtExit(): void {
  for (const [lockPath, inode] of heldHere) {
    try {
      if (statSync(lockPath, { bigint: true, throwIfNoEntry: false })?.ino === inode) unlinkSync(lockPath);
    } catch {
      // Gone, or not ours to remove: the next run judges what is there.
    }
  }
  heldHere.clear();
}

/**
 * An exclusive lock on `path`, held as the file `path.lock` beside the file it names (symlinks
 * resolved: two names of one checkpoint share one lock), made whole or not at all. A lock left by
 * a process that no longer runs on this host (killed with -9, a crashed machine's cron, a
 * restarted container whose new process has the same pid) is taken over; a live owner makes this
 * a LockedError naming it (exit 75: try again later). `elsewhere`: how the user gives csafe another
 * file to lock instead, for the hint when something that is no lock sits where the lock goes.
 */
export async function acquireFileLock(path: string, now: number, elsewhere = ANOTHER_CHECKPOINT): Promise<FileLock> {
  const lockPath = `${realPath(path)}.lock`;
  const ownerText = await ownerTextAt(now);
  for (let attempt = 0; attempt < 3; attempt++) {
    const made = await createLock(lockPath, ownerText);
    if (made !== undefined) {
      hold(lockPath, made);
      return { release: () => release(lockPath) };
    }
    const found = await readLock(lockPath);
    // Gone since: its owner let it go. Try again.
    if (found === undefined) continue;
    if (found.foreign) throw notALock(lockPath, path, elsewhere);
    if (found.owner === undefined && isBeingWritten(found)) throw startedTogether(path, lockPath);
    if (found.owner !== undefined && (await isLiveOwner(found.owner, lockPath))) {
      throw new LockedError(`${path} is in use by another run (pid ${found.owner.pid} on ${found.owner.host} since ${found.owner.since})`, {
        hint: `wait for it to finish; if it is gone, delete ${lockPath}`,
      });
    }
    await takeOver(path, lockPath, ownerText, elsewhere);
  }
  throw startedTogether(path, lockPath);
}

/** This process as a lock's owner, as the lock file's text. */
async function ownerTextAt(now: number): Promise<string> {
  const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date(now).toISOString(), started: await processStartTime(process.pid) };
  return JSON.stringify(owner) + '\n';
}

const notALock = (lockPath: string, path: string, elsewhere: string) =>
  new UsageError(`${lockPath}: is in the place of the lock of ${path}, and is not a lock csafe made, so it is left alone`, {
    hint: `${elsewhere}, or move ${lockPath} away if it is no longer needed`,
  });

/**
 * acquireFileLock for a change of a few milliseconds (the config file's): a live owner is waited
 * for, up to `waitMs`, rather than refused at once; then its LockedError is thrown.
 */
export async function acquireFileLockWaiting(path: string, now: () => number, waitMs: number, elsewhere?: string): Promise<FileLock> {
  const deadline = now() + waitMs;
  for (;;) {
    try {
      return await acquireFileLock(path, now(), elsewhere);
    } catch (error) {
      if (!(error instanceof LockedError) || now() >= deadline) throw error;
      // Apart, so that runs started together do not keep meeting.
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}

/** Another run took the lock as this one tried to, three times over. */
const startedTogether = (path: string, lockPath: string) =>
  new LockedError(`${path} is in use by another run that started at the same moment`, { hint: `run the command again in a moment; if no other run goes, see what ${lockPath} is and remove it` });

/**
 * The lock file made whole, or undefined when there is one already: written beside its place,
 * then linked into it, which fails when the name is taken. Made and written in two steps, a lock
 * another run read in between looked empty, so stale, and was taken over. Where the file system
 * takes no hard links, it is made in place.
 */
async function createLock(lockPath: string, text: string): Promise<bigint | undefined> {
  // Named as the writes of core/files/atomic-file name theirs: one left by a run killed meanwhile is swept as theirs are.
  const draft = temporaryPath(lockPath);
  try {
    await writeFile(draft, text, { flag: 'wx', mode: 0o600 });
    const { ino } = await stat(draft, { bigint: true });
    try {
      await link(draft, lockPath);
      return ino;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return undefined;
      if (!NO_HARD_LINKS.has(errorCode(error) ?? '')) throw error;
    }
    await writeFile(lockPath, text, { flag: 'wx', mode: 0o600 });
    return (await stat(lockPath, { bigint: true })).ino;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return undefined;
    throw new FileWriteError(lockPath, writeErrorReason(error), ' the lock');
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/** What is in the place of a lock: its owner, inode and text, and whether it is a lock at all. */
interface FoundLock {
  owner: LockOwner | undefined;
  inode: bigint;
  /** When it was last written (mtime), to tell a lock cut short from one being written. */
  writtenMs: number;
  foreign: boolean;
  text: string;
}

/**
 * The lock file's owner and inode; undefined when there is no lock file. A lock cut short (made in
 * place where the file system takes no hard links, the run killed before it wrote it) has no
 * owner: stale once no run can still be writing it, rather than block every future run. A file
 * that no lock could have been (`foreign`: a user's notes, another program's lock) is never taken over.
 */
async function readLock(lockPath: string): Promise<FoundLock | undefined> {
  let handle;
  try {
    // Non-blocking: a FIFO in its place, with no writer, would keep the open waiting for ever.
    handle = await open(lockPath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw new FileWriteError(lockPath, writeErrorReason(error), ' the lock');
    // A link to nothing takes the name as surely as a file does, and was never a lock. Anything
    // else there now was made since the open (a run taking the lock its owner just let go): gone, try again.
    const entry = await lstat(lockPath, { bigint: true }).catch(() => undefined);
    return entry?.isSymbolicLink() === true ? { inode: entry.ino, writtenMs: 0, owner: undefined, foreign: true, text: '' } : undefined;
  }
  try {
    const stats = await handle.stat({ bigint: true });
    // A directory (or a FIFO, a device) in its place was never a lock.
    if (!stats.isFile()) return { inode: stats.ino, writtenMs: 0, owner: undefined, foreign: true, text: '' };
    const text = await readStart(handle);
    const owner = lockOwnerOf(text);
    // Cut short (not JSON yet) and begun as a lock begins, or empty: a lock. Whole JSON that names no owner, or anything else: not one.
    const cutShort = !isJson(text) && LOCK_START.startsWith(text.slice(0, LOCK_START.length));
    return { inode: stats.ino, writtenMs: Number(stats.mtimeMs), owner, foreign: owner === undefined && !cutShort, text };
  } finally {
    await handle.close();
  }
}

/**
 * How long a lock with no owner in it yet may be one that another run is writing: made in place
 * where the file system takes no hard links, it is empty until its run writes it, a moment later or,
 * on a machine that is busy, some time later. Taken over then, two runs held the lock.
 */
const CUT_SHORT_GRACE_MS = 5_000;

/**
 * Whether a lock that names no owner was made too recently to be judged cut short: its run may be
 * writing it. Either way from now: a file server's clock ahead of this one's dates a lock in the
 * future, which must not make it wait for ever.
 */
const isBeingWritten = (found: FoundLock) => Math.abs(Date.now() - found.writtenMs) < CUT_SHORT_GRACE_MS;

/** How every lock csafe writes begins (JSON.stringify of a LockOwner): a lock cut short begins so too, or is empty. */
const LOCK_START = '{"pid":';

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The owner a lock's text names, or undefined when it names none (not JSON, or not a lock's). */
function lockOwnerOf(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as Partial<LockOwner> | null;
    return typeof owner?.pid === 'number' && typeof owner.host === 'string' ? (owner as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

/** Enough of a file to tell a lock by: a lock is a line of some hundred bytes; a big file is no lock. */
async function readStart(handle: FileHandle): Promise<string> {
  const buffer = Buffer.alloc(4096);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  return buffer.toString('utf8', 0, bytesRead);
}

/**
 * Removes the lock file if it is stale, judged again while holding `path.lock.takeover`, the one
 * lock on taking over. Judged once and removed later, a lock had been let go by then and another
 * run's made in its place (even at the same inode: file systems reuse them), which was removed, or
 * moved aside and back while a third run took the free name: two runs held the lock, and a change
 * of the config file made by runs at once was lost. Runs that end as they should never remove each
 * other's locks. Returns, having removed it or not, for the caller to try the lock again.
 */
export async function takeOver(path: string, lockPath: string, ownerText: string, elsewhere = ANOTHER_CHECKPOINT): Promise<void> {
  const guardPath = `${lockPath}.takeover`;
  const made = await createLock(guardPath, ownerText);
  if (made === undefined) return clearStaleGuard(path, guardPath, elsewhere);
  hold(guardPath, made);
  try {
    // What runs killed as they made a lock left beside it: a lock taken over is where such a kill shows.
    // A draft lives milliseconds; a fresh one may be a run's on another host (a shared volume), whose pid is not ours to judge.
    await removeStaleTemporaries(lockPath, { minAgeMs: CUT_SHORT_GRACE_MS });
    await removeStaleTemporaries(guardPath, { minAgeMs: CUT_SHORT_GRACE_MS });
    if ((await staleLockAt(lockPath, path, elsewhere)) === undefined) return;
    // Its owner is gone, so only a run holding the guard could remove it or put another in its place.
    await unlink(lockPath).catch((error: unknown) => {
      if (errorCode(error) !== 'ENOENT') throw new FileWriteError(lockPath, writeErrorReason(error), ' the lock');
    });
  } finally {
    await release(guardPath);
  }
}

/**
 * The lock at `lockPath` if it is stale: its owner gone without letting it go, and the file still
 * the one that named it. Read again after the owner was found gone: it may have let go of its lock
 * after the first read, and another run have made one in its place since.
 */
async function staleLockAt(lockPath: string, path: string, elsewhere: string): Promise<FoundLock | undefined> {
  const found = await readLock(lockPath);
  if (found === undefined) return undefined;
  if (found.foreign) throw notALock(lockPath, path, elsewhere);
  if (found.owner === undefined ? isBeingWritten(found) : await isLiveOwner(found.owner, lockPath)) return undefined;
  const again = await readLock(lockPath);
  return again?.inode === found.inode && again.text === found.text ? found : undefined;
}

/**
 * A run killed as it took a lock over leaves the guard behind: moved aside, so that what is
 * removed is that file and no other; one another run made meanwhile is put back. That guard is
 * left only when a run is killed in the few milliseconds it holds it, so the moment its name is
 * free while it is put back is left to chance, where the lock itself is not.
 */
async function clearStaleGuard(path: string, guardPath: string, elsewhere: string): Promise<void> {
  const stale = await staleLockAt(guardPath, path, elsewhere);
  if (stale === undefined) return;
  const aside = temporaryPath(guardPath);
  try {
    await rename(guardPath, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw new FileWriteError(guardPath, writeErrorReason(error), ' the lock');
  }
  const moved = await stat(aside, { bigint: true }).catch(() => undefined);
  if (moved?.ino !== stale.inode) await link(aside, guardPath).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/** Lets go of a lock this process holds: its file is removed only while it is the one this process made. */
async function release(lockPath: string): Promise<void> {
  const inode = heldHere.get(lockPath);
  if (inode === undefined) return;
  heldHere.delete(lockPath);
  const current = await stat(lockPath, { bigint: true }).catch(() => undefined);
  if (current?.ino === inode) await unlink(lockPath).catch(() => undefined);
}

/**
 * Only a process on this host can be checked; one elsewhere is assumed alive. This process's own
 * pid in a lock it does not hold was an earlier process's: a restarted container usually gets the
 * same pid (and hostname). A live process whose start time differs from the one recorded got the
 * owner's pid after it ended.
 */
async function isLiveOwner(owner: LockOwner, lockPath: string): Promise<boolean> {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return heldHere.has(lockPath);
  if (!isRunning(owner.pid)) return false;
  const started = owner.started === undefined ? undefined : await processStartTime(owner.pid);
  return started === undefined || started === owner.started;
}
