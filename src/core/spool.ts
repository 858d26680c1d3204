import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface SpooledInput {
  path: string;
  remove(): Promise<void>;
}

/** Copies a stream that can be read only once (stdin) to a private temporary file, for commands that read their input twice. */
export async function spoolToTempFile(input: Readable): Promise<SpooledInput> {
  const dir = await mkdtemp(join(tmpdir(), 'csafe-spool-'));
  const path = join(dir, 'input');
  await pipeline(input, createWriteStream(path, { mode: 0o600 }));
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
