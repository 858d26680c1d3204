import { hostname } from 'node:os';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { LockedError } from '../errors.js';
import { isRunning, processStartTime } from './processes.js';
import { FileWriteError, writeErrorReason } from './write-errors.js';

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

/** The lock files this process holds: a lock file naming this process's pid is its own only if listed here. */
const heldHere = new Set<string>();

/**
 * An exclusive lock on `path`, held as the file `path.lock` created with O_EXCL. A lock left by
 * a process that no longer runs on this host (killed with -9, a crashed machine's cron, a
 * restarted container whose new process has the same pid) is taken over; a live owner makes this
 * a LockedError naming it (exit 75: try again later).
 */
export async function acquireFileLock(path: string, now: number): Promise<FileLock> {
  const lockPath = `${path}.lock`;
  const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date(now).toISOString(), started: await processStartTime(process.pid) };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, JSON.stringify(owner) + '\n', { flag: 'wx', mode: 0o600 });
      heldHere.add(lockPath);
      return { release: () => release(lockPath) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new FileWriteError(lockPath, writeErrorReason(error), ' the lock');
    }
    const holder = await readOwner(lockPath);
    if (holder !== undefined && (await isLiveOwner(holder, lockPath))) {
      throw new LockedError(`${path} is in use by another run (pid ${holder.pid} on ${holder.host} since ${holder.since})`, {
        hint: `wait for it to finish; if it is gone, delete ${lockPath}`,
      });
    }
    // The owner is gone: take the lock over. A second attempt that fails again means another run won the race.
    await unlink(lockPath).catch(() => undefined);
  }
  throw new LockedError(`${path} is in use by another run that started at the same moment`);
}

async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await readFile(lockPath, 'utf8')) as LockOwner;
  } catch {
    // Unreadable or half-written: treat as stale rather than block every future run.
    return undefined;
  }
}

async function release(lockPath: string): Promise<void> {
  if (!heldHere.delete(lockPath)) return;
  await unlink(lockPath).catch(() => undefined);
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
