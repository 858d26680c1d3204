import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsafeError, InterruptedError } from '../errors.js';
import type { IOStreams } from '../terminal/io.js';
import { isRunning } from '../files/processes.js';
import { fnv1a } from '../files/short-digest.js';
import { writeErrorReason } from '../files/write-errors.js';
import { forgetRemoval, removeAtExit } from '../files/exit-removal.js';
import { formatBytes } from '../terminal/progress.js';
import { fileError, inputSource, isRegularFile, openFileStream, regularFileSize, type InputSource } from './sources.js';
import { startSpinner } from '../terminal/spinner.js';
import type { UploadFile } from '../upload/file-upload.js';

// How an input that can be read only once (stdin, a pipe) becomes a file that can be read twice, and
// how temporary copies left by dead runs are cleaned up.

export interface SpooledInput {
  path: string;
  remove(): Promise<void>;
}

/**
 * Copies a stream that can be read only once (stdin, a pipe) to a private temporary file, for
 * commands that read their input twice. Ctrl-C (the signal) stops the copy and removes the file;
 * after that the caller removes it, in a `finally`. `onBytes` hears how many bytes are copied so far.
 */
export async function spoolToTempFile(input: Readable, signal?: AbortSignal, onBytes: (copied: number) => void = () => undefined): Promise<SpooledInput> {
  // Heard from the start: an input opened by the caller can fail (a device that cannot be opened)
  // while the directory is made, and an 'error' with nobody listening ends the process.
  let inputFailure: unknown;
  const inputFailed = (error: unknown) => (inputFailure ??= error);
  input.on('error', inputFailed);
  try {
    await removeDeadSpools();
    const dir = await mkdtemp(join(tmpdir(), `${SPOOL_PREFIX}${HOST_TAG}-${process.pid}-`)).catch((error: unknown) => {
      // Closed, or a pipe whose writer goes on would keep the process waiting for it.
      input.destroy();
      throw inputFailure ?? tempDirError(error);
    });
    return await copyInto(dir, input, signal, onBytes);
  } finally {
    input.off('error', inputFailed);
  }
}

async function copyInto(dir: string, input: Readable, signal: AbortSignal | undefined, onBytes: (copied: number) => void): Promise<SpooledInput> {
  const path = join(dir, 'input');
  removeAtExit(dir);
  const remove = async () => {
    await rm(dir, { recursive: true, force: true });
    forgetRemoval(dir);
  };
  let copied = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes((copied += chunk.length));
      done(null, chunk);
    },
  });
  const copy = createWriteStream(path, { mode: 0o600 });
  // A failure of one stream ends the others with the same error: the copy's own failure is one
  // that comes while the input is still whole (not failed, not closed before its end).
  let copyFailed = false;
  copy.once('error', () => (copyFailed = (input.errored ?? null) === null && !(input.destroyed && !input.readableEnded)));
  try {
    await pipeline(input, counter, copy, { signal });
  } catch (error) {
    await remove();
    if (signal?.aborted) throw new InterruptedError();
    throw copyFailed ? tempDirError(error) : error;
  }
  return { path, remove };
}

/**
 * The temporary directory would not take a copy (none, not writable, full). Said as such: the
 * input and the command's own files are fine, and the way on is another TMPDIR.
 */
function tempDirError(error: unknown): CsafeError {
  return new CsafeError(`${tmpdir()}: could not write a temporary file: ${writeErrorReason(error)}`, {
    hint: 'csafe keeps a copy of its input in TMPDIR while it works: set TMPDIR to a directory this user may write to, with room for the input, then run the command again',
    cause: error,
  });
}

const SPOOL_PREFIX = 'csafe-spool-';

/**
 * Which host made a spool: a temporary directory can be shared (containers with one /tmp volume),
 * and a process id says whether its owner is gone only on the host, and in the pid namespace,
 * that gave it out. A container's hostname is its own, so another's live spool is never taken.
 */
const HOST_TAG = fnv1a(hostname()).toString(16).padStart(8, '0');

/**
 * Removes the spools of csafe runs on this host that were killed (SIGKILL, a crash, a power cut)
 * before they could: each is named after the host and process that made it, and one whose process
 * is gone is left over. Named by process rather than beside a checkpoint, so every spool is covered,
 * with a checkpoint or not; a process id in use again only keeps a leftover a while longer.
 */
async function removeDeadSpools(): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => []);
  const ours = new RegExp(`^${SPOOL_PREFIX}${HOST_TAG}-(\\d+)-`);
  for (const name of names) {
    const owner = ours.exec(name)?.[1];
    if (owner !== undefined && !isRunning(Number(owner))) await rm(join(tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/** An input a command reads more than once, as a regular file it can open again; `remove` deletes any copy made. */
export interface RereadableInput {
  source: InputSource;
  /** The file holding the bytes: the input itself, or its copy. */
  path: string;
  remove(): Promise<void>;
}

/**
 * A regular file as it is; stdin (`-`), a named pipe, `<(…)` or a device copied once to a
 * temporary file, since a second read of those would find nothing (or wait for ever), with a
 * spinner counting the bytes read (a slow producer must not look like a hang). Messages still
 * name the input as given.
 */
export async function rereadableInput(path: string, io: IOStreams, signal: AbortSignal): Promise<RereadableInput> {
  if (path !== '-' && isRegularFile(path)) return { source: inputSource(path, io.stdin, signal), path, remove: async () => undefined };
  const name = path === '-' ? 'stdin' : path;
  const spinner = await startSpinner(io, `Reading ${name}…`);
  const spool = await spoolToTempFile(path === '-' ? io.stdin : openFileStream(path), signal, (copied) => spinner.update(`Reading ${name}: ${formatBytes(copied)}`))
    .catch((error: unknown) => {
      throw error instanceof CsafeError ? error : fileError(name, error);
    })
    .finally(() => spinner.stop());
  return { source: { name, open: () => createReadStream(spool.path) }, path: spool.path, remove: spool.remove };
}

/**
 * Runs `use` on an input a command checks and then uploads: its source to read (and check) and the
 * file to upload with its size; stdin or a pipe is kept in a temporary file, removed however this ends.
 */
export async function withUploadableInput<T>(path: string, io: IOStreams, signal: AbortSignal, use: (source: InputSource, file: UploadFile) => Promise<T>): Promise<T> {
  const input = await rereadableInput(path, io, signal);
  try {
    return await use(input.source, { path: input.path, name: input.source.name, size: await regularFileSize(input.source.name, input.path) });
  } finally {
    await input.remove();
  }
}

/** `rereadableInput` for a run that reads its input `twice`; else the input as it comes, read once and copied nowhere. */
export async function inputToRead(path: string, io: IOStreams, signal: AbortSignal, twice: boolean): Promise<RereadableInput> {
  return twice ? rereadableInput(path, io, signal) : { source: inputSource(path, io.stdin, signal), path, remove: async () => undefined };
}
