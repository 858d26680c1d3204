import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsafeError, InterruptedError } from './errors.js';
import { fileError, inputSource, isRegularFile, openFileStream, type InputSource } from './readers.js';

interface SpooledInput {
  path: string;
  remove(): Promise<void>;
}

/**
 * Copies a stream that can be read only once (stdin, a pipe) to a private temporary file, for
 * commands that read their input twice. Ctrl-C (the signal) stops the copy and removes the file;
 * after that the caller removes it, in a `finally`.
 */
export async function spoolToTempFile(input: Readable, signal?: AbortSignal): Promise<SpooledInput> {
  const dir = await mkdtemp(join(tmpdir(), 'csafe-spool-'));
  const path = join(dir, 'input');
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(input, createWriteStream(path, { mode: 0o600 }), { signal });
  } catch (error) {
    await remove();
    throw signal?.aborted ? new InterruptedError() : error;
  }
  return { path, remove };
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
 * temporary file, since a second read of those would find nothing (or wait for ever). Messages
 * still name the input as given.
 */
export async function rereadableInput(path: string, stdin: Readable, signal: AbortSignal): Promise<RereadableInput> {
  if (path !== '-' && isRegularFile(path)) return { source: inputSource(path, stdin, signal), path, remove: async () => undefined };
  const name = path === '-' ? 'stdin' : path;
  const spool = await spoolToTempFile(path === '-' ? stdin : openFileStream(path), signal).catch((error: unknown) => {
    throw error instanceof CsafeError ? error : fileError(name, error);
  });
  return { source: { name, open: () => createReadStream(spool.path) }, path: spool.path, remove: spool.remove };
}
