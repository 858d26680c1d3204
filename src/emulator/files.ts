import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';

/** A fresh name beside `path`, to write to before renaming over it. Random, as two writers may share a pid. */
export const temporaryPathFor = (path: string) => `${path}.${randomBytes(6).toString('hex')}.part`;

/**
 * Replaces a file with a rename, so a reader, or an emulator restarted after kill -9, sees the old
 * content or the new, never half. No fsync: an emulator's state need not survive a power cut.
 */
export async function replaceFile(path: string, content: string): Promise<void> {
  const temporary = temporaryPathFor(path);
  await writeFile(temporary, content, { mode: 0o600 });
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
