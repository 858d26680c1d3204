import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** What the emulator keeps is readable by nobody else: it holds what clients sent (chat, transcripts, objects). */
export const FILE_MODE = 0o600;
export const DIRECTORY_MODE = 0o700;

/** A fresh name beside `path`, to write to before renaming over it. Random, as two writers may share a pid. */
export const temporaryPathFor = (path: string) => `${path}.${randomBytes(6).toString('hex')}.part`;

/** A file name for any string (a namespace, a stream id), which may hold characters, or a length, that a file name cannot. */
export const digestName = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 32);

/**
 * Replaces a file with a rename, so a reader, or an emulator restarted after kill -9, sees the old
 * content or the new, never half. No fsync: an emulator's state need not survive a power cut.
 */
export async function replaceFile(path: string, content: string): Promise<void> {
  const temporary = temporaryPathFor(path);
  await writeFile(temporary, content, { mode: FILE_MODE });
  await rename(temporary, path);
}

/** The parsed file, or undefined when there is none. */
export async function readJsonFile<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export const isMissing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

/**
 * mkdir -p, one level at a time: node's own recursive mkdir never returns for a path under /proc
 * (it retries the ENOENT forever), so a bad --data-dir would hang the emulator instead of failing.
 */
export async function makeDirectory(path: string): Promise<void> {
  try {
    await mkdir(path, { mode: DIRECTORY_MODE });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && (await stat(path)).isDirectory()) return;
    if (code !== 'ENOENT' || dirname(path) === path) throw error;
    await makeDirectory(dirname(path));
    await mkdir(path, { mode: DIRECTORY_MODE }).catch((again: unknown) => {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    });
  }
}

/**
 * Untouched for this long, a temporary file is no live emulator's: longer than an upload may stall
 * (5 minutes), so another emulator on the same directory (two `csafe --emulator` runs) keeps its own.
 */
const LEFTOVER_AGE_MS = 10 * 60_000;

/** Removes the temporary files (and directories) an emulator that was killed mid-write left behind. */
export async function removeLeftovers(root: string, now = Date.now()): Promise<void> {
  const names = (await readdir(root, { recursive: true })).filter((name) => name.endsWith('.part'));
  await Promise.all(
    names.map(async (name) => {
      const path = join(root, name);
      const modified = await stat(path).then((info) => info.mtimeMs, () => now);
      if (now - modified > LEFTOVER_AGE_MS) await rm(path, { recursive: true, force: true });
    }),
  );
}
