import { accessSync, constants, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { givenDescriptor } from './named-descriptor.js';
import { hintFor, writeErrorReason } from './write-errors.js';

/** Whether the files a bulk run reads and writes are distinct files, and the ones it appends to writable, asked before anything is read or sent. */

/** The flags of the files a command writes as it runs: a bulk command's, and the result `batch create --wait --download` writes. */
const WRITTEN_FILES = { failed: '--failed', unconfirmed: '--unconfirmed', skipInvalid: '--skip-invalid', checkpoint: '--checkpoint', download: '--download' } as const;

export type WrittenFiles = Partial<Record<keyof typeof WRITTEN_FILES, string | undefined>>;

/**
 * Refuses, before anything is read or sent, a run whose files would write over one another: a
 * written file that is the input (its records appended to the file being read), the lock file of
 * the checkpoint (removed when the run ends), or one file named by two of the flags (two kinds of
 * record mixed in it). A file that exists is known by its device and inode, so `in.jsonl`,
 * `./in.jsonl`, a symlink and a hard link to it are one file; one not made yet by its real path, a
 * symlink to it followed. stdin (`-`) is none, and so is a device: `--failed /dev/null
 * --skip-invalid /dev/null` discards both. A named pipe is compared with the input only: records
 * written to the pipe being read would come back to be sent again, for ever.
 */
export function refuseSharedFiles(input: string | undefined, written: WrittenFiles): void {
  const owners = new Map<string, string>();
  const inputFile = input === undefined || input === '-' ? undefined : fileKey(input);
  if (inputFile !== undefined) owners.set(inputFile, 'the input file');
  const lockFile = written.checkpoint === undefined ? undefined : fileKey(`${realPath(written.checkpoint)}.lock`);
  if (lockFile !== undefined) owners.set(lockFile, `the lock file of --checkpoint ${written.checkpoint}`);
  for (const [key, flag] of Object.entries(WRITTEN_FILES)) {
    const path = written[key as keyof WrittenFiles];
    if (path === undefined) continue;
    const file = fileKey(path);
    if (file === undefined || (file.startsWith('pipe:') && file !== inputFile)) continue;
    const owner = owners.get(file);
    if (owner !== undefined) {
      throw new UsageError(`${flag} ${path}: is ${owner.startsWith('the ') ? owner : `also the file of ${owner}`}`, { hint: `give ${flag} a file of its own` });
    }
    owners.set(file, flag);
  }
  for (const key of APPENDED) {
    const path = written[key];
    if (path !== undefined) refuseUnwritable(path);
  }
}

/** The files records are appended to (the checkpoint has a check of its own). */
const APPENDED = ['failed', 'unconfirmed', 'skipInvalid'] as const;

/**
 * Refuses a file named to append records to that none could reach: a directory, one in a
 * directory that does not exist (a link followed to where it points), one this user may not write
 * to or on a read-only file system: usage (exit 2), as nothing was sent, a dry run included. Found
 * at the first failure instead, the run had sent records it could then neither report nor set
 * aside. Only the files named: a default one in the working directory is made only if needed.
 */
function refuseUnwritable(path: string): void {
  // One that names a descriptor (`/dev/fd/3`) is written through it, if it is open to write.
  if (givenDescriptor(path) !== undefined) return;
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    // A path ending in a slash names a directory, whether or not it is there yet.
    if (stats?.isDirectory() || path.endsWith('/')) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    accessSync(stats === undefined ? dirname(realPath(path)) : path, constants.W_OK);
  } catch (error) {
    const reason = writeErrorReason(error);
    throw new UsageError(`${path}: could not write: ${reason}`, { hint: hintFor(reason) });
  }
}

/** A regular file's or a named pipe's device and inode, which every name of it shares; the real path where there is no file yet; undefined for anything else. */
function fileKey(path: string): string | undefined {
  let stats;
  try {
    stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return `path:${realPath(path)}`;
  }
  if (stats === undefined) return `path:${realPath(path)}`;
  if (stats.isFIFO()) return `pipe:${stats.dev}:${stats.ino}`;
  return stats.isFile() ? `file:${stats.dev}:${stats.ino}` : undefined;
}

/**
 * The path with every symlink resolved; for a file not there yet, where it would be made: in the
 * real directory, or, for a symlink to nothing, where the link points (a write through it makes
 * the file there).
 */
export function realPath(path: string, links = 0): string {
  try {
    return realpathSync(path);
  } catch {
    const target = links < MAX_LINKS ? linkTarget(path) : undefined;
    if (target !== undefined) return realPath(resolve(dirname(path), target), links + 1);
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/** As many links as Linux follows in one path (its ELOOP bound). */
const MAX_LINKS = 40;

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}
