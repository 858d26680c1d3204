import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InterruptedError } from './errors.js';
import type { InputSource } from './readers.js';

export interface SpooledInput {
  path: string;
  remove(): Promise<void>;
}

/**
 * Copies a stream that can be read only once (stdin) to a private temporary file, for commands
 * that read their input twice. Ctrl-C (the signal) stops the copy and removes the file; after
 * that the caller removes it, in a `finally`.
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

/** The spooled copy of stdin, as an input that messages still call `stdin`. */
export const spooledSource = (spool: SpooledInput): InputSource => ({ name: 'stdin', open: () => createReadStream(spool.path) });
