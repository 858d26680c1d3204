import { readFile } from 'node:fs/promises';

/** Which process is which on this host: whether one runs, and when it started (to tell it from a later one given the same pid). */

/** Whether a process runs: a signal 0 reaches it, or it runs as someone else (EPERM). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
  // The fields after the command name, which is in parentheses and may itself hold spaces and parentheses: field 3 first.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
}
