import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from './errors.js';

/** The flags of the files a bulk command writes as it runs. */
const WRITTEN_FILES = { failed: '--failed', unconfirmed: '--unconfirmed', skipInvalid: '--skip-invalid', checkpoint: '--checkpoint' } as const;

export type WrittenFiles = Partial<Record<keyof typeof WRITTEN_FILES, string | undefined>>;

/**
 * Refuses, before anything is read or sent, a run whose files would write over one another: a
 * written file that is the input (its records appended to the file being read), or one file named
 * by two of the flags (two kinds of record mixed in it). Files are compared by their real paths,
 * so `in.jsonl`, `./in.jsonl` and a symlink to it are one file; stdin (`-`) is none.
 */
export function refuseSharedFiles(input: string | undefined, written: WrittenFiles): void {
  const owners = new Map<string, string>();
  if (input !== undefined && input !== '-') owners.set(realPath(input), 'the input file');
  for (const [key, flag] of Object.entries(WRITTEN_FILES)) {
    const path = written[key as keyof WrittenFiles];
    if (path === undefined) continue;
    const owner = owners.get(realPath(path));
    if (owner !== undefined) {
      throw new UsageError(`${flag} ${path}: is ${owner === 'the input file' ? owner : `also the file of ${owner}`}`, { hint: `give ${flag} a file of its own` });
    }
    owners.set(realPath(path), flag);
  }
}

/** The path with every symlink resolved; for a file not there yet, that of the directory it would be made in. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return resolve(path);
    }
  }
}
