import { CsafeError } from '../errors.js';
import { countOf } from '../terminal/words.js';

/** How a failure to write one of csafe's own files is told: the reason in words, and the records the file does not hold. */

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EISDIR: 'is a directory',
  ENOENT: 'no such directory',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EIO: 'input/output error',
  EFBIG: 'file too large',
  ENXIO: 'nothing reads the named pipe',
  EAGAIN: 'the named pipe is full',
};

/** `no space left on device (ENOSPC)`: the system's error in words, with its code for searching. */
export function writeErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code !== undefined && REASONS[code] !== undefined) return `${REASONS[code]} (${code})`;
  return (error as Error)?.message ?? String(error);
}

/** What to do, by the system's error in the reason: room is of no help to a directory this user may not write to. */
export function hintFor(reason: string): string {
  return `${remedyFor(reason)}, then run the command again`;
}

/**
 * What makes a path writable again, by the system's error: where another path will do, and where
 * the path must stay (a checkpoint, which another path would start over). Room is of no help to a
 * directory this user may not write to.
 */
const REMEDIES: ReadonlyArray<{ codes: readonly string[]; anotherPath: string; inPlace: string }> = [
  { codes: ['EACCES', 'EPERM', 'EROFS'], anotherPath: 'give a path this user may write to', inPlace: 'make its directory writable to this user' },
  { codes: ['ENOENT', 'ENOTDIR'], anotherPath: 'create its directory or give another path', inPlace: 'create its directory' },
  { codes: ['EISDIR'], anotherPath: 'give the path of a file, not of a directory', inPlace: 'move away the directory in its place' },
];

const remedyOf = (reason: string) => {
  const code = /\((E[A-Z]+)\)$/.exec(reason)?.[1];
  return REMEDIES.find((remedy) => code !== undefined && remedy.codes.includes(code));
};

/** What makes the path writable again, by the system's error in the reason (hintFor without running the command again). */
export const remedyFor = (reason: string): string => remedyOf(reason)?.anotherPath ?? 'make room or give another path';

/** remedyFor where another path is no way out: a checkpoint, which another path would start over. */
export const remedyInPlace = (reason: string): string => remedyOf(reason)?.inPlace ?? 'make room';

/** Input records, by their line numbers, that a file was meant to keep and does not. */
export interface UnwrittenRecords {
  count: number;
  firstLine: number;
  lastLine: number;
}

/**
 * A file csafe writes (a failed or skip-invalid file, a checkpoint) could not be written: the run
 * stops at once (exit 1), naming the file, the reason and the records it does not hold.
 */
export class FileWriteError extends CsafeError {
  declare hint: string;
  private unwritten?: UnwrittenRecords;

  constructor(
    readonly path: string,
    readonly reason: string,
    what = '',
  ) {
    super(`${path}: could not write${what}: ${reason}`, { hint: hintFor(reason) });
  }

  /**
   * A hint in place of "give another path, then run the command again": which a bulk run that
   * delivered records without a checkpoint cannot give (see core/cli/resume.ts), nor a checkpoint,
   * which another path would start over.
   */
  instead(hint: string): void {
    this.hint = hint;
  }

  /**
   * Counts more records that did not reach the file. Lanes still in flight when the first write
   * failed add theirs after it was thrown, so the message is kept up to date until it is printed.
   */
  addUnwritten(lines: readonly number[]): void {
    if (lines.length === 0) return;
    const before = this.unwritten ?? { count: 0, firstLine: Infinity, lastLine: -Infinity };
    this.unwritten = {
      count: before.count + lines.length,
      firstLine: Math.min(before.firstLine, ...lines),
      lastLine: Math.max(before.lastLine, ...lines),
    };
    const { count, firstLine, lastLine } = this.unwritten;
    const where = firstLine === lastLine ? `input line ${firstLine}` : `input lines ${firstLine}–${lastLine}`;
    this.message = `${this.path}: could not write: ${this.reason}; ${countOf(count, 'record')} not written (${where})`;
  }
}
