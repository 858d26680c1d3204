import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * mkdir -p, one level at a time. Node's own recursive mkdir never returns for a path under /proc
 * (it retries the ENOENT there forever), and its synchronous form cannot be stopped even by
 * SIGTERM: a config or cache directory set to one would hang csafe instead of failing. Each level
 * made gets `mode`; an ancestor that cannot be made fails with its own error.
 */
export async function makeDirectory(path: string, mode: number): Promise<void> {
  try {
    await mkdir(path, { mode });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && (await stat(path)).isDirectory()) return;
    if (code !== 'ENOENT' || dirname(path) === path) throw error;
    await makeDirectory(dirname(path), mode);
    await mkdir(path, { mode }).catch((again: unknown) => {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    });
  }
}

/** makeDirectory, synchronously: for a process about to write a file it must not wait for (a cache as it exits, the config file under its lock). */
export function makeDirectorySync(path: string, mode: number): void {
  try {
    mkdirSync(path, { mode });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(path).isDirectory()) return;
    if (code !== 'ENOENT' || dirname(path) === path) throw error;
    makeDirectorySync(dirname(path), mode);
    try {
      mkdirSync(path, { mode });
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    }
  }
}
