import { constants, createReadStream, openSync, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { addAbortSignal, Readable } from 'node:stream';
import split2 from 'split2';
import { CsafeError, InputError, InterruptedError } from './errors.js';
import { NestingTracker, parseJsonAt, scanJsonArray, type JsonRecord } from './json-scan.js';

/** A named byte stream: a file, or stdin when the path is `-`. */
export interface InputSource {
  /** How messages name it: the path as given, or `stdin`. */
  name: string;
  open(): Readable;
}

/** A file, or stdin for `-`; the signal (Ctrl-C) stops a read that waits on a pipe. */
export function inputSource(path: string, stdin: Readable, signal?: AbortSignal): InputSource {
  if (path === '-') return { name: 'stdin', open: () => stdin };
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

/** Longest line we hold in memory; a longer one is an input error, never an out-of-memory. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

export interface SourceLine {
  line: number;
  text: string;
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
 * Lines of a source with their 1-based numbers, streamed (split2) with flat memory. A UTF-8 BOM
 * and CRLF line ends are tolerated; blank lines keep their numbers but are not yielded.
 */
export async function* readLines(source: InputSource, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<SourceLine> {
  let numbered = 0;
  const splitter = split2((text: string) => {
    numbered++;
    return { line: numbered, text: numbered === 1 ? text.replace(/^\uFEFF/, '') : text };
  }, { maxLength: maxLineBytes });
  const stream = source.open();
  stream.on('error', (error) => splitter.destroy(fileError(source.name, error)));
  stream.pipe(splitter);
  try {
    for await (const record of splitter as AsyncIterable<SourceLine>) {
      if (Buffer.byteLength(record.text) > maxLineBytes) throw tooLong(source, record.line, maxLineBytes);
      if (record.text.trim() !== '') yield record;
    }
  } catch (error) {
    if (error instanceof CsafeError) throw error;
    if ((error as Error).message === 'maximum buffer reached') throw tooLong(source, numbered + 1, maxLineBytes);
    throw fileError(source.name, error);
  } finally {
    if (source.name !== 'stdin') stream.destroy();
  }
}

function tooLong(source: InputSource, line: number, max: number): InputError {
  return new InputError(`${source.name}:${line}: line is longer than ${Math.round(max / 1024 / 1024)} MB`, {
    hint: 'each record must be one JSON object on its own line',
  });
}

export type JsonLine = { line: number; value: unknown } | { line: number; text: string; error: string };

/** JSON Lines: each line parsed on its own; a bad line is reported with its column, not thrown. */
export async function* readJsonLines(source: InputSource): AsyncGenerator<JsonLine> {
  let any = false;
  for await (const { line, text } of readLines(source)) {
    any = true;
    yield parseJsonAt(text, line);
  }
  if (!any) throw new InputError(`${source.name}: is empty, expected at least one JSON record`);
}

const BOM = [0xef, 0xbb, 0xbf];
const isJsonSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * Records of any of three shapes, told apart by the first character that is not white space:
 * `[` streams the elements of one JSON array; anything else is read line by line as JSON Lines,
 * where a line that opens an object it does not close continues on the next lines (one
 * pretty-printed object, or `jq .` output). Memory stays flat in every shape; a bad record is
 * yielded with its line and reason, not thrown. Empty input is an error.
 */
export async function* readRecords(source: InputSource, maxRecordBytes = MAX_LINE_BYTES): AsyncGenerator<JsonRecord> {
  const stream = source.open();
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let any = false;
  try {
    const { head, firstByte } = await peekFirstByte(chunks);
    if (firstByte === undefined) throw new InputError(`${source.name}: is empty, expected at least one JSON record`);
    const replay = (async function* () {
      yield* head;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    })();
    const records =
      firstByte === 0x5b
        ? scanJsonArray(replay, maxRecordBytes)
        : readValuesByLine(readLines({ name: source.name, open: () => Readable.from(replay) }, maxRecordBytes), maxRecordBytes);
    for await (const record of records) {
      any = true;
      yield record;
    }
  } catch (error) {
    throw error instanceof CsafeError ? error : fileError(source.name, error);
  } finally {
    if (source.name !== 'stdin') stream.destroy();
  }
  if (!any) throw new InputError(`${source.name}: holds no records, expected at least one JSON record`);
}

async function peekFirstByte(chunks: AsyncIterator<Buffer>): Promise<{ head: Buffer[]; firstByte?: number }> {
  const head: Buffer[] = [];
  let offset = 0;
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    const chunk = next.value;
    head.push(chunk);
    let i = 0;
    if (offset === 0 && BOM.every((byte, index) => chunk[index] === byte)) i = BOM.length;
    for (; i < chunk.length; i++) if (!isJsonSpace(chunk[i]!)) return { head, firstByte: chunk[i] };
    offset += chunk.length;
  }
  return { head };
}

/** JSON Lines, except that a value left open at the end of its line is completed by the following lines. */
async function* readValuesByLine(lines: AsyncIterable<SourceLine>, maxRecordBytes: number): AsyncGenerator<JsonRecord> {
  let open: { lines: SourceLine[]; bytes: number; nesting: NestingTracker } | undefined;
  for await (const line of lines) {
    if (open !== undefined) {
      open.lines.push(line);
      open.bytes += line.text.length;
      open.nesting.feed(line.text);
      if (open.nesting.depth <= 0) {
        yield parseJsonAt(open.lines.map((l) => l.text).join('\n'), open.lines[0]!.line);
        open = undefined;
      } else if (open.bytes > maxRecordBytes) {
        yield* eachLineOnItsOwn(open.lines);
        open = undefined;
      }
      continue;
    }
    const record = parseJsonAt(line.text, line.line);
    if (!('error' in record)) {
      yield record;
      continue;
    }
    const nesting = new NestingTracker();
    nesting.feed(line.text);
    if (nesting.depth > 0) open = { lines: [line], bytes: line.text.length, nesting };
    else yield record;
  }
  // Never closed: most likely a truncated line of JSON Lines, so every line is judged alone.
  if (open !== undefined) yield* eachLineOnItsOwn(open.lines);
}

function* eachLineOnItsOwn(lines: readonly SourceLine[]): Generator<JsonRecord> {
  for (const { line, text } of lines) yield parseJsonAt(text, line);
}
