import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/** Whether the files a bulk run reads and writes are distinct files, asked before anything is read or sent. */

/** The flags of the files a bulk command writes as it runs. */
const WRITTEN_FILES = { failed: '--failed', unconfirmed: '--unconfirmed', skipInvalid: '--skip-invalid', checkpoint: '--checkpoint' } as const;

export type WrittenFiles = Partial<Record<keyof typeof WRITTEN_FILES, string | undefined>>;

/**
 * Refuses, before anything is read or sent, a run whose files would write over one another: a
 * written file that is the input (its records appended to the file being read), or one file named
 * by two of the flags (two kinds of record mixed in it). A file that exists is known by its device
 * and inode, so `in.jsonl`, `./in.jsonl`, a symlink and a hard link to it are one file; one not
 * made yet by its real path. stdin (`-`) is none, and so is a device or a pipe: `--failed /dev/null
 * --skip-invalid /dev/null` discards both, and nothing is appended to what is read.
 */
export function refuseSharedFiles(input: string | undefined, written: WrittenFiles): void {
  const owners = new Map<string, string>();
  const inputFile = input === undefined || input === '-' ? undefined : fileKey(input);
  if (inputFile !== undefined) owners.set(inputFile, 'the input file');
  for (const [key, flag] of Object.entries(WRITTEN_FILES)) {
    const path = written[key as keyof WrittenFiles];
    if (path === undefined) continue;
    const file = fileKey(path);
    if (file === undefined) continue;
    const owner = owners.get(file);
    if (owner !== undefined) {
      throw new UsageError(`${flag} ${path}: is ${owner === 'the input file' ? owner : `also the file of ${owner}`}`, { hint: `give ${flag} a file of its own` });
    }
    owners.set(file, flag);
  }
}

/** A regular file's device and inode, which every name of it shares; the real path where there is no file yet; undefined for anything else. */
function fileKey(path: string): string | undefined {
  let stats;
  try {
    stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return `path:${realPath(path)}`;
  }
  if (stats === undefined) return `path:${realPath(path)}`;
  return stats.isFile() ? `file:${stats.dev}:${stats.ino}` : undefined;
}

/** The path with every symlink resolved; for a file not there yet, that of the directory it would be made in. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return resolve(path);
    }
  }
}
