import { closeSync, constants, fchmodSync, fchownSync, fsyncSync, lstatSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { access, lstat, open, readdir, readlink, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { descriptorHandle, givenDescriptor, type WriteHandle } from './named-descriptor.js';
import { openToWrite, type ReaderWait } from './open-to-write.js';
import { isRunning } from './processes.js';

/** How csafe replaces a file it writes so that no reader, crash or kill -9 ever finds it torn. */

/**
 * Where this process prepares a write of `path`: `path.<pid>-<8 hex digits>.tmp`, the digits new
 * each time, so a name nothing else holds. It is created with O_EXCL and O_NOFOLLOW, so nothing
 * already there (a link planted at it) is written through, and the sweep below takes only names
 * of this shape. (Math.random, not node:crypto: a bulk command without --checkpoint loads no crypto.)
 */
export const temporaryPath = (path: string) => `${path}.${process.pid}-${Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, '0')}.tmp`;
const TEMPORARY_SUFFIX = /^(\d+)-[0-9a-f]{8}\.tmp$/;

/**
 * Replaces a file so that a reader, or a run after a crash or kill -9, sees either the old
 * content or the new, never a torn mix: write a temporary file beside it, fsync, rename over
 * the target, then fsync the directory so the rename itself survives a power cut. Only a
 * regular file is replaced so; see targetOf for what else `path` may name.
 *
 * `syncDirectory: false` leaves out the directory's fsync: a power cut may then find the file as
 * an earlier write left it (whole, never empty: each write's data is fsync'd before its rename).
 * For a file rewritten many times a second (a checkpoint), whose rename is made durable now and then.
 */
export const writeFileAtomic = (path: string, content: string, { syncDirectory = true }: { syncDirectory?: boolean } = {}): Promise<void> =>
  writeTo(path, (write) => write(Buffer.from(content)), {}, syncDirectory);

/**
 * The same for content that arrives in chunks (a download): each written as it comes, so memory
 * stays flat. A download is as big as its result, so what a killed earlier run left of one is
 * removed first.
 */
export async function writeStreamAtomic(path: string, content: AsyncIterable<string | Uint8Array>, wait: ReaderWait = {}): Promise<void> {
  await removeStaleTemporaries(path);
  await writeTo(
    path,
    async (write) => {
      for await (const chunk of content) await write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    },
    wait,
  );
}

/** Writes the content, a chunk at a time, with `write`, which writes each whole. */
type Fill = (write: (bytes: Uint8Array) => Promise<void>) => Promise<void>;

/** A write may take fewer bytes than given (a disk filling up takes what fits, then fails on the rest): the rest is written, or its failure thrown. */
async function writeWhole(handle: WriteHandle, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.length; ) offset += (await handle.write(bytes, offset)).bytesWritten;
}

/**
 * writeFileAtomic's replace, synchronously, for a process about to leave at once (a second
 * Ctrl-C): a regular file, or none yet, the link to one followed as targetOf follows it.
 * Anything else there (a FIFO, a device, a link to nothing) is left as it is and false returned:
 * what writeFileAtomic would do with it takes waiting.
 */
export function writeFileAtomicSync(path: string, content: string): boolean {
  let entry = lstatSync(path, { throwIfNoEntry: false });
  if (entry?.isSymbolicLink()) {
    entry = statSync(path, { throwIfNoEntry: false });
    if (entry === undefined) return false;
    path = realpathSync(path);
  }
  if (entry !== undefined && !entry.isFile()) return false;
  const temporary = temporaryPath(path);
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    try {
      const bytes = Buffer.from(content);
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
      if (entry !== undefined) keepSync(fd, entry);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    // A failed rename too (a file made immutable meanwhile): the process leaves at once, and nothing would sweep it.
    rmSync(temporary, { force: true });
    throw error;
  }
  return true;
}

/**
 * Refuses, before any work that is to be recorded in it is done, a `path` that no atomic write
 * could write (a symbolic link to nothing): the same rule writeFileAtomic applies at its first write.
 */
export async function assertWritableTarget(path: string): Promise<void> {
  await targetOf(path);
}

/** A regular file to replace (kept: the permissions and the owner it has now; none for a new one), or something else to write into as it is. */
type Target = { kind: 'replace'; path: string; kept?: Kept } | { kind: 'write-into' };

/** What a replaced file keeps of the one it replaces. */
interface Kept {
  mode: number;
  uid: number;
  gid: number;
}

/** `wait`: how a named pipe's wait for its reader is ended and told. */
async function writeTo(path: string, fill: Fill, wait: ReaderWait = {}, syncDirectory = true): Promise<void> {
  const descriptor = givenDescriptor(path);
  if (descriptor !== undefined) return fill((bytes) => writeWhole(descriptorHandle(descriptor), bytes));
  const target = await targetOf(path);
  if (target.kind === 'write-into') return writeInto(path, fill, wait);
  return replaceAtomically(target.path, target.kept, fill, syncDirectory);
}

/**
 * How `path` is written. One that names an open descriptor (`/dev/fd/3`) is written through it
 * (writeTo). A regular file, or nothing yet, is replaced atomically. Anything else
 * (a FIFO, a terminal, /dev/null, a socket, a directory) is written into as it is: a rename
 * would put a regular file in its place, and run as root `csafe … /dev/stdout` would replace
 * the system's /dev/stdout. A symbolic link is followed to what it names, by these same rules,
 * so the link stays a link; one that names nothing is refused rather than guessed at.
 */
async function targetOf(path: string): Promise<Target> {
  const entry = await statOrMissing(lstat(path));
  if (entry === undefined) return { kind: 'replace', path };
  if (entry.isSymbolicLink()) return linkTargetOf(path);
  return entry.isFile() ? replaceable(path, entry) : { kind: 'write-into' };
}

async function linkTargetOf(path: string): Promise<Target> {
  const named = await statOrMissing(stat(path));
  if (named === undefined) throw new Error(`is a symbolic link to ${await readlink(path)}, which does not exist`);
  return named.isFile() ? replaceable(await realpath(path), named) : { kind: 'write-into' };
}

/**
 * A file this user may not write to (made read-only to keep it) is refused (EACCES), as `>` refuses
 * it: a rename asks only that its directory be writable, and replaced it all the same.
 */
async function replaceable(path: string, file: Stats): Promise<Target> {
  await access(path, constants.W_OK);
  return { kind: 'replace', path, kept: { mode: permissions(file), uid: file.uid, gid: file.gid } };
}

const permissions = (stats: Stats) => stats.mode & 0o777;

async function statOrMissing(stats: Promise<Stats>): Promise<Stats | undefined> {
  try {
    return await stats;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Without O_CREAT or O_TRUNC: the target exists and is not a file, and a device or a FIFO has nothing to cut. */
async function writeInto(path: string, fill: Fill, wait: ReaderWait): Promise<void> {
  const handle = await openToWrite(path, constants.O_WRONLY, undefined, wait);
  try {
    await fill((bytes) => writeWhole(handle, bytes));
  } finally {
    await handle.close();
  }
}

/** A new file is private to the user (a result or a checkpoint may hold what was reviewed); a replaced one keeps its permissions and owner. */
async function replaceAtomically(path: string, kept: Kept | undefined, fill: Fill, syncDirectory: boolean): Promise<void> {
  const temporary = temporaryPath(path);
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await fill((bytes) => writeWhole(handle, bytes));
    if (kept !== undefined) await keep(handle, kept);
    await handle.sync();
    await handle.close();
    await rename(temporary, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  if (syncDirectory) await fsyncDirectory(dirname(path));
}

/**
 * The replaced file's owner, then its permissions (a change of owner clears set-id bits). Run as
 * root, the file a user owned became root's, which that user could no longer write. Another
 * user may give a file only to itself: a refused change of owner is let be.
 */
async function keep(handle: FileHandle, { mode, uid, gid }: Kept): Promise<void> {
  await handle.chown(uid, gid).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPERM') throw error;
  });
  await handle.chmod(mode);
}

/** keep, synchronously. */
function keepSync(fd: number, file: Stats): void {
  try {
    fchownSync(fd, file.uid, file.gid);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
  fchmodSync(fd, permissions(file));
}

/**
 * Removes the temporary files writers that are gone left while writing `path` (a run killed with
 * -9 between write and rename): regular files of this user named as temporaryPath names them, by
 * a process that is no longer running. A live process's is kept, this one's and another run's
 * writing the same file now alike; anything else (a user's file, a link, a FIFO) is never touched.
 * For a symbolic link, they are beside the file it names, where the writes happen. `minAgeMs`:
 * one written more recently is kept too, for files another host may be writing (a lock's draft on
 * a shared volume), whose pid says nothing here.
 */
export async function removeStaleTemporaries(path: string, { minAgeMs = 0 }: { minAgeMs?: number } = {}): Promise<void> {
  const written = await realpath(path).catch(() => path);
  const directory = dirname(written);
  const prefix = `${basename(written)}.`;
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names) {
    const pid = name.startsWith(prefix) ? TEMPORARY_SUFFIX.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid === undefined || isRunning(Number(pid))) continue;
    const leftover = join(directory, name);
    if (await isOwnFile(leftover, minAgeMs)) await unlink(leftover).catch(() => undefined);
  }
}

/** A regular file (not a link, not a FIFO) that belongs to this process's user, last written at least `minAgeMs` ago (either way: a clock ahead). */
async function isOwnFile(path: string, minAgeMs: number): Promise<boolean> {
  const entry = await lstat(path).catch(() => undefined);
  return entry !== undefined && entry.isFile() && entry.uid === (process.getuid?.() ?? entry.uid) && Math.abs(Date.now() - entry.mtimeMs) >= minAgeMs;
}

async function fsyncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r').catch(() => undefined);
  // Some file systems refuse fsync on a directory; the rename is still atomic there.
  await directory?.sync().catch(() => undefined);
  await directory?.close();
}
