import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InterruptedError } from './errors.js';

export interface SpooledInput {
  path: string;
  remove(): Promise<void>;
}

/**
 * Copies a stream that can be read only once (stdin) to a private temporary file, for commands
 * that read their input twice. If the copy fails or `signal` aborts it (Ctrl-C), the partial
 * file is removed before the error reaches the caller, who has nothing to clean up yet.
 */
export async function spoolToTempFile(input: Readable, signal?: AbortSignal): Promise<SpooledInput> {
  const dir = await mkdtemp(join(tmpdir(), 'csafe-spool-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  const path = join(dir, 'input');
  try {
    await pipeline(input, createWriteStream(path, { mode: 0o600 }), { signal });
  } catch (error) {
    await remove();
    throw signal?.aborted ? new InterruptedError() : error;
  }
  return { path, remove };
}
