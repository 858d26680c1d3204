import { constants, createReadStream, fstatSync, openSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { addAbortSignal, Readable } from 'node:stream';
import { CsafeError, InputError, InterruptedError, UsageError } from '../errors.js';
import { readCaptions, type CaptionRecord } from './captions.js';
import type { JsonRecord } from '../json/position.js';
import { readJsonRecordBatches, readJsonRecords, type ReadRecord, type RecordReadOptions } from './json-records.js';
import { LineTooLongError, RecordReadError, type FastLine } from './lines.js';

/** A named byte stream: a file, or stdin when the path is `-`. */
export interface InputSource {
  /** How messages name it: the path as given, or `stdin`. */
  name: string;
  open(): Readable;
}

/** A file, or stdin for `-`; the signal (Ctrl-C, SIGTERM) stops a read that waits on a pipe, stdin's too. */
export function inputSource(path: string, stdin: Readable, signal?: AbortSignal): InputSource {
  if (path === '-') return { name: 'stdin', open: () => (signal === undefined ? stdin : addAbortSignal(signal, stdin)) };
  return { name: path, open: () => openFileStream(path, signal) };
}

/**
 * A file's bytes. A named pipe or socket (`mkfifo`, `<(…)`, /dev/fd/N) is read through a
 * non-blocking handle: a read of it in the thread pool waits for the writer and cannot be
 * cancelled, so Ctrl-C would leave the process hanging on it; the handle can be destroyed.
 */
export function openFileStream(path: string, signal?: AbortSignal): Readable {
  const stream = isPipe(path) ? openPipe(path) ?? createReadStream(path) : createReadStream(path);
  return signal === undefined ? stream : addAbortSignal(signal, stream);
}

/** A regular file, which can be read more than once (or a path that does not exist, left to the reader to report). */
export const isRegularFile = (path: string) => ['file', 'missing'].includes(kindOf(path));

/** A regular file, given or on stdin (`< input.jsonl`): read to its end after Ctrl-C, it has one, and a run can read it again. */
export function endsAtHand(path: string, stdin: Readable): boolean {
  if (path !== '-') return isRegularFile(path);
  return (stdin as { fd?: unknown }).fd === 0 && fstatSync(0).isFile();
}

const isPipe = (path: string) => kindOf(path) === 'pipe';

function kindOf(path: string): 'file' | 'pipe' | 'other' | 'missing' {
  try {
    const stats = statSync(path);
    if (stats.isFile()) return 'file';
    return stats.isFIFO() || stats.isSocket() ? 'pipe' : 'other';
  } catch {
    return 'missing';
  }
}

function openPipe(path: string): Readable | undefined {
  try {
    // O_NONBLOCK: the open does not wait for a writer either; the handle waits for one instead.
    return new Socket({ fd: openSync(path, constants.O_RDONLY | constants.O_NONBLOCK), readable: true, writable: false });
  } catch {
    // A socket cannot be opened by name (ENXIO), but /dev/fd/N names a descriptor we already hold.
    const inherited = /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(path);
    return inherited ? new Socket({ fd: Number(inherited[1]), readable: true, writable: false }) : undefined;
  }
}

/** The size of a regular file to upload; anything else (a directory, a missing file) an InputError naming it. */
export async function regularFileSize(name: string, path: string): Promise<number> {
  try {
    const stats = await stat(path);
    if (!stats.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    return stats.size;
  } catch (error) {
    throw fileError(name, error);
  }
}

/** Explains a file-system error the way a user needs it: which file and what is wrong (or that Ctrl-C stopped the read). */
export function fileError(name: string, error: unknown): CsafeError {
  if ((error as Error)?.name === 'AbortError') return new InterruptedError();
  const code = (error as NodeJS.ErrnoException)?.code;
  const reason =
    code === 'ENOENT' ? 'no such file' :
    code === 'EISDIR' ? 'is a directory, expected a file' :
    code === 'EACCES' ? 'permission denied' :
    (error as Error)?.message ?? String(error);
  return new InputError(`${name}: ${reason}`);
}

/**
 * The JSON records of a file or stdin, as core/input/json-records reads them (any of three shapes, or
 * with `jsonLines` one record a line); what stops the read is an InputError naming the input.
 */
export const readRecords = (source: InputSource, options: Pick<RecordReadOptions, 'jsonLines' | 'allowEmpty' | 'measured'> = {}): AsyncGenerator<JsonRecord> =>
  readSource(source, (stream) => readJsonRecords(stream, options), LINE_TOO_LONG_HINT);

/** readRecords a chunk of input at a time (core/input/json-records readJsonRecordBatches), for a synchronous loop over each. */
export const readRecordBatches = (source: InputSource, options: Pick<RecordReadOptions, 'jsonLines' | 'allowEmpty' | 'measured'> = {}): AsyncGenerator<JsonRecord[]> =>
  readSource(source, (stream) => readJsonRecordBatches(stream, options), LINE_TOO_LONG_HINT);

/** readRecordBatches with a fast check: a line it accepts comes as its text, neither parsed nor serialised (an AcceptedLine). */
export const readAcceptedRecordBatches = (source: InputSource, fast: FastLine, options: Pick<RecordReadOptions, 'measured'> = {}): AsyncGenerator<ReadRecord[]> =>
  readSource(source, (stream) => readJsonRecordBatches(stream, options, fast), LINE_TOO_LONG_HINT);

/** What a line over the limit most likely means. */
export const LINE_TOO_LONG_HINT = 'each record must be one JSON object on its own line';

/** Refuses an input that holds no record (empty, or only blank lines), reading no further than its first record. */
export async function refuseEmptyRecords(source: InputSource): Promise<void> {
  for await (const _ of readRecords(source, { jsonLines: true })) return;
}

/** The cues of a WebVTT or SubRip file, or stdin (core/input/captions). */
export const readCaptionCues = (source: InputSource): AsyncGenerator<CaptionRecord> => readSource(source, readCaptions);

/** What `read` makes of a source's bytes; what stops it is an InputError naming the input (and, for a line over the limit, `lineTooLongHint`). */
async function* readSource<T>(source: InputSource, read: (stream: Readable) => AsyncIterable<T>, lineTooLongHint?: string): AsyncGenerator<T> {
  const stream = source.open();
  try {
    yield* read(stream);
  } catch (error) {
    throw readError(source.name, error, lineTooLongHint);
  } finally {
    if (source.name !== 'stdin') stream.destroy();
  }
}

/** What stopped a read of the input `name`, as an InputError naming it (and the line, when there is one). */
export function readError(name: string, error: unknown, lineTooLongHint?: string): CsafeError {
  if (!(error instanceof RecordReadError)) return fileError(name, error);
  const where = error.line === undefined ? name : `${name}:${error.line}`;
  return new InputError(`${where}: ${error.message}`, { hint: error.hint ?? (error instanceof LineTooLongError ? lineTooLongHint : undefined) });
}

/**
 * The input a command reads: FILE, else stdin (as `-` names it) when something is piped in, as
 * `jq` and `aws s3 cp -` read it. With no FILE and a terminal on stdin, the user forgot the
 * file: a usage error, not a wait for typing.
 */
export function fileOrStdin(file: string | undefined, stdinIsTTY: boolean): string {
  if (file !== undefined) return file;
  if (stdinIsTTY) throw new UsageError('no input: give a FILE, or `-` to read stdin');
  return '-';
}
