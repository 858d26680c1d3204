import { hostname } from 'node:os';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { UsageError } from './errors.js';
import { FileWriteError, writeErrorReason } from './write-errors.js';

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

export interface FileLock {
  release(): Promise<void>;
}

/**
 * An exclusive lock on `path`, held as the file `path.lock` created with O_EXCL. A lock left by
 * a process that no longer runs on this host (killed with -9, a crashed machine's cron) is taken
 * over; a live owner makes this a usage error naming it.
 */
export async function acquireFileLock(path: string, now: number): Promise<FileLock> {
  const lockPath = `${path}.lock`;
  const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date(now).toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, JSON.stringify(owner) + '\n', { flag: 'wx', mode: 0o600 });
      return { release: () => unlink(lockPath).catch(() => undefined) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new FileWriteError(lockPath, writeErrorReason(error), ' the lock');
    }
    const holder = await readOwner(lockPath);
    if (holder !== undefined && isAlive(holder)) {
      throw new UsageError(`${path} is in use by another run (pid ${holder.pid} on ${holder.host} since ${holder.since})`, {
        hint: `wait for it to finish; if it is gone, delete ${lockPath}`,
      });
    }
    // The owner is gone: take the lock over. A second attempt that fails again means another run won the race.
    await unlink(lockPath).catch(() => undefined);
  }
  throw new UsageError(`${path} is in use by another run that started at the same moment`);
}

async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await readFile(lockPath, 'utf8')) as LockOwner;
  } catch {
    // Unreadable or half-written: treat as stale rather than block every future run.
    return undefined;
  }
}

/** Only a process on this host can be checked; one elsewhere is assumed alive. */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
