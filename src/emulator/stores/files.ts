import { createHash, randomBytes } from 'node:crypto';
import { link, lstat, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectory as makeDirectoryWithMode } from '../../core/files/make-directory.js';

/** How the emulator writes its files: private, replaced whole, and cleaned of what a killed emulator left. */

/** What the emulator keeps is readable by nobody else: it holds what clients sent (chat, transcripts, objects). */
export const FILE_MODE = 0o600;
export const DIRECTORY_MODE = 0o700;

const TEMPORARY_RANDOM_BYTES = 6;

/** A fresh name beside `path`, to write to before renaming over it. Random, as two writers may share a pid. */
export const temporaryPathFor = (path: string) => `${path}.${randomBytes(TEMPORARY_RANDOM_BYTES).toString('hex')}.part`;

const TEMPORARY_NAME = new RegExp(`\\.[0-9a-f]{${TEMPORARY_RANDOM_BYTES * 2}}\\.part$`);

/** Whether a file name is one temporaryPathFor makes: the emulator's own, not a user's download or editor file ending .part. */
const isTemporaryName = (name: string) => TEMPORARY_NAME.test(name);

/** Whether a file name is a temporary one temporaryPathFor makes beside one of `files` (names in the same folder). */
export const isTemporaryNameOf = (name: string, files: readonly string[]) => isTemporaryName(name) && files.some((file) => name.startsWith(`${file}.`));

/** A file name for any string (a namespace, a stream id), which may hold characters, or a length, that a file name cannot. */
export const digestName = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 32);

/**
 * Replaces a file with a rename, so a reader, or an emulator restarted after kill -9, sees the old
 * content or the new, never half. No fsync: an emulator's state need not survive a power cut.
 * A write that fails (a full disk) takes its temporary file back, so it holds none of the room left.
 * Written synchronously, as the stores append (line-files): a record is a few kilobytes, and each
 * step through the thread pool cost more than the step itself.
 */
export async function replaceFile(path: string, content: string): Promise<void> {
  const temporary = temporaryPathFor(path);
  try {
    writeFileSync(temporary, content, { mode: FILE_MODE });
    renameSync(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * replaceFile for content too large to make in one go: written part by part as `parts` makes them,
 * each write a wait between which requests are served.
 */
export async function replaceFileInParts(path: string, parts: Iterable<string>): Promise<void> {
  const temporary = temporaryPathFor(path);
  try {
    const file = await open(temporary, 'w', FILE_MODE);
    try {
      for (const part of parts) await file.write(part);
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Writes the file only when there is none yet, atomically: of several writers at once the first
 * wins. True when this call wrote it.
 */
export async function createFileOnce(path: string, content: string): Promise<boolean> {
  const temporary = temporaryPathFor(path);
  try {
    await writeFile(temporary, content, { mode: FILE_MODE });
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

/** The parsed file, or undefined when there is none; read synchronously, as replaceFile writes. */
export async function readJsonFile<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export const isMissing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

/** An emulator's folders, made as core/files/make-directory makes them (a --data-dir under /proc fails instead of hanging), private to the user. */
export const makeDirectory = (path: string): Promise<void> => makeDirectoryWithMode(path, DIRECTORY_MODE);

/**
 * Untouched for this long, a temporary file is no live emulator's: longer than an upload may stall
 * (5 minutes), so another emulator on the same directory (two `csafe --emulator` runs) keeps its own.
 */
const LEFTOVER_AGE_MS = 10 * 60_000;

/** What an emulator makes at the top of its data directory: folders, and files. */
export interface DataDirLayout {
  areas: readonly string[];
  rootFiles: readonly string[];
}

/**
 * Removes the temporary files (and directories) an emulator that was killed mid-write left behind:
 * only names temporaryPathFor makes, only inside the emulator's own folders of the data directory
 * (`areas`) and beside its own files at the top (`rootFiles`). Never follows a symbolic link, so
 * nothing outside the data directory is touched.
 */
export async function removeLeftovers(root: string, layout: DataDirLayout, now = Date.now()): Promise<void> {
  const atTop = (await readdir(root)).filter((name) => isTemporaryNameOf(name, layout.rootFiles));
  const inAreas = await Promise.all(layout.areas.map((area) => temporaryPathsUnder(join(root, area))));
  await Promise.all([...atTop.map((name) => join(root, name)), ...inAreas.flat()].map((path) => removeIfOld(path, now)));
}

async function removeIfOld(path: string, now: number): Promise<void> {
  const modified = await lstat(path).then((info) => info.mtimeMs, () => now);
  if (now - modified > LEFTOVER_AGE_MS) await rm(path, { recursive: true, force: true });
}

/** The temporary names under a directory, at any depth; a symbolic link is neither followed nor taken. */
async function temporaryPathsUnder(directory: string): Promise<string[]> {
  const isRealDirectory = await lstat(directory).then((info) => info.isDirectory(), () => false);
  if (!isRealDirectory) return [];
  const entries = await readdir(directory, { withFileTypes: true });
  const found = await Promise.all(
    entries.map(async (entry) => {
      const path = join(directory, entry.name);
      if (isTemporaryName(entry.name)) return entry.isSymbolicLink() ? [] : [path];
      return entry.isDirectory() ? temporaryPathsUnder(path) : [];
    }),
  );
  return found.flat();
}
