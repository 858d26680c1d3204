import { StringDecoder } from 'node:string_decoder';
import { NestingTracker, parseJsonAt, type JsonRecord } from './json-position.js';

/**
 * The one reader of JSON records, for csafe and the emulator alike (Node built-ins only, nothing
 * of the client): JSON Lines, one JSON array, or one (pretty-printed) object; a UTF-8 BOM and
 * CRLF tolerated; blank lines keep their numbers. A record that is not JSON is yielded with its
 * line and reason; what ends the read (a line over the limit, no records) is a RecordReadError.
 */

/**
 * Longest line (or array element) held in memory; a longer one is an error, never an
 * out-of-memory. The spec states no limit for import lines; 10 MiB is well above the 6 MB a
 * request may carry, so any object one can add can also be imported, and it is what csafe has
 * always told users. The emulator checks an import with the same value, so csafe's check and
 * the emulator's can never disagree about a line's length.
 */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** What stops a read: where (a line number, when there is one) and why, for the caller to name its input. */
export class RecordReadError extends Error {
  constructor(readonly line: number | undefined, reason: string) {
    super(reason);
  }
}

export interface SourceLine {
  line: number;
  text: string;
}

export interface RecordReadOptions {
  /** Each non-blank line on its own (an import file), rather than any of the three shapes. */
  jsonLines?: boolean;
  /** No records is a result rather than an error (the emulator's empty import). */
  allowEmpty?: boolean;
  /** With jsonLines: a problem found in a line's text before it is parsed (the emulator's nesting limit). */
  lineProblem?: (text: string) => string | undefined;
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];

/** A line over the limit: the input is most likely not JSON Lines at all. */
export class LineTooLongError extends RecordReadError {
  constructor(line: number, maxLineBytes: number) {
    super(line, `line is longer than ${Math.round(maxLineBytes / 1024 / 1024)} MB`);
  }
}

/**
 * Lines with their 1-based numbers, a chunk at a time with flat memory. A UTF-8 BOM and CRLF line
 * ends are tolerated; blank lines keep their numbers but are not yielded.
 */
export async function* readLines(chunks: AsyncIterable<Buffer | string>, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<SourceLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 0;
  const complete = (tail: Buffer): SourceLine => {
    const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    line++;
    const end = bytes.at(-1) === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    if (end > maxLineBytes) throw new LineTooLongError(line, maxLineBytes);
    const text = bytes.toString('utf8', 0, end);
    return { line, text: line === 1 ? text.replace(/^\uFEFF/, '') : text };
  };
  for await (const piece of chunks) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const next = complete(chunk.subarray(start, end));
      start = end + 1;
      if (next.text.trim() !== '') yield next;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
    }
    // One byte more than the limit may still be the CR of a CRLF.
    if (pendingBytes > maxLineBytes + 1) throw new LineTooLongError(line + 1, maxLineBytes);
  }
  if (pendingBytes > 0) {
    const last = complete(Buffer.alloc(0));
    if (last.text.trim() !== '') yield last;
  }
}

/**
 * Records of any of three shapes, told apart by the first character that is not white space:
 * `[` streams the elements of one JSON array; anything else is read line by line as JSON Lines,
 * where a line that opens an object it does not close continues on the next lines (one
 * pretty-printed object, or `jq .` output). With `jsonLines`, every line is a record of its own.
 * Memory stays flat in every shape; a bad record is yielded with its line and reason, not thrown.
 */
export async function* readJsonRecords(chunks: AsyncIterable<Buffer | string>, options: RecordReadOptions = {}): AsyncGenerator<JsonRecord> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const iterator = chunks[Symbol.asyncIterator]();
  const { head, firstByte } = await peekFirstByte(iterator);
  if (firstByte === undefined) {
    if (options.allowEmpty) return;
    throw new RecordReadError(undefined, 'is empty, expected at least one JSON record');
  }
  const replay = (async function* () {
    yield* head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield toBuffer(next.value);
  })();
  const records =
    options.jsonLines ? eachLineAlone(readLines(replay, maxLineBytes), options.lineProblem)
    : firstByte === 0x5b ? readArrayElements(replay, maxLineBytes)
    : readValuesByLine(readLines(replay, maxLineBytes), maxLineBytes);
  let any = false;
  for await (const record of records) {
    any = true;
    yield record;
  }
  if (!any && !options.allowEmpty) throw new RecordReadError(undefined, 'holds no records, expected at least one JSON record');
}

const toBuffer = (piece: Buffer | string) => (typeof piece === 'string' ? Buffer.from(piece) : piece);
const isJsonSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

async function peekFirstByte(chunks: AsyncIterator<Buffer | string>): Promise<{ head: Buffer[]; firstByte?: number }> {
  const head: Buffer[] = [];
  let offset = 0;
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    const chunk = toBuffer(next.value);
    head.push(chunk);
    let i = 0;
    if (offset === 0 && BOM.every((byte, index) => chunk[index] === byte)) i = BOM.length;
    for (; i < chunk.length; i++) if (!isJsonSpace(chunk[i]!)) return { head, firstByte: chunk[i] };
    offset += chunk.length;
  }
  return { head };
}

async function* eachLineAlone(lines: AsyncIterable<SourceLine>, lineProblem?: (text: string) => string | undefined): AsyncGenerator<JsonRecord> {
  for await (const { line, text } of lines) {
    const problem = lineProblem?.(text);
    yield problem === undefined ? parseJsonAt(text, line) : { line, text, error: problem };
  }
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

const enum Char {
  Newline = 10,
  Comma = 44,
  CloseBracket = 93,
}

/**
 * The elements of one JSON array, streamed: each is yielded with the line it starts on as soon
 * as it is complete, so a file of millions of events is never held in memory. An element longer
 * than maxElementChars is reported, not buffered.
 */
async function* readArrayElements(chunks: AsyncIterable<Buffer>, maxElementChars: number): AsyncGenerator<JsonRecord> {
  const decoder = new StringDecoder('utf8');
  let line = 1;
  let state = 'before-array' as 'before-array' | 'before-element' | 'in-element' | 'after-array';
  let elements = 0;
  let pieces: string[] = [];
  let pieceChars = 0;
  let startLine = 0;
  let nesting = new NestingTracker();
  const finish = (): JsonRecord => {
    const record = parseJsonAt(pieces.join('').trimEnd(), startLine);
    pieces = [];
    pieceChars = 0;
    elements++;
    return record;
  };

  let first = true;
  for await (const chunk of chunks) {
    const decoded = decoder.write(chunk);
    const text = first ? decoded.replace(/^\uFEFF/, '') : decoded;
    first = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (state === 'in-element') {
        const structural = nesting.step(code);
        if (structural && nesting.depth === -1) {
          // The element ended at a `,` or `]` at its own level; the bracket closing the array drove depth below 0.
          pieces.push(text.slice(start, i));
          yield finish();
          state = 'after-array';
        } else if (structural && code === Char.Comma && nesting.depth === 0) {
          pieces.push(text.slice(start, i));
          yield finish();
          state = 'before-element';
        }
      } else if (code > 32) {
        if (state === 'before-array') state = 'before-element';
        else if (state === 'after-array') {
          yield { line, text: text.slice(i, i + 40), error: 'unexpected text after the closing ] of the JSON array' };
          return;
        } else if (code === Char.CloseBracket) {
          if (elements > 0) yield { line, text: ']', error: 'expected an element after the last comma, found ]' };
          state = 'after-array';
        } else {
          state = 'in-element';
          startLine = line;
          start = i;
          nesting = new NestingTracker();
          nesting.step(code);
        }
      }
      if (code === Char.Newline) line++;
    }
    if (state === 'in-element') {
      const rest = text.slice(start);
      pieces.push(rest);
      pieceChars += rest.length;
      if (pieceChars > maxElementChars) {
        yield { line: startLine, text: '', error: `record is longer than ${Math.round(maxElementChars / 1024 / 1024)} MB` };
        return;
      }
    }
  }
  if (state === 'before-element' || state === 'in-element') {
    yield { line: state === 'in-element' ? startLine : line, text: pieces.join(''), error: 'unexpected end of input: the JSON array is not closed with ]' };
  }
}
