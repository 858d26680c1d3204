import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** Which process is which on this host: whether one runs, and when it started (to tell it from a later one given the same pid). */

/** Whether a process runs: a signal 0 reaches it, or it runs as someone else (EPERM), and it has not ended. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !hasEnded(pid);
}

/**
 * A process that has ended and that its parent has not yet waited for (a zombie: Linux's state Z,
 * or X as it goes) still takes signal 0. Killed with -9 by a parent that waits later (a script's
 * timeout), its lock had been taken for a live run's until then.
 */
function hasEnded(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = fieldsAfterName(stat)[0];
  return state === 'Z' || state === 'X';
}

/** The fields of /proc/<pid>/stat after the command name, which is in parentheses and may itself hold spaces and parentheses: field 3 first. */
const fieldsAfterName = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/**
 * When a process started, in clock ticks since boot (field 22 of Linux's /proc/<pid>/stat): with
 * the pid, it names one process for as long as the machine runs. Undefined where there is no /proc.
 */
export async function processStartTime(pid: number): Promise<string | undefined> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return fieldsAfterName(stat)[22 - 3];
}
