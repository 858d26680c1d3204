import { isAscii, isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { parseRecordAt } from '../json/nesting.js';
import { NestingTracker, type JsonRecord } from '../json/position.js';
import { notUtf8, Utf8Check } from './utf8.js';
import { LineSplitter, LineTooLongError, MAX_LINE_BYTES, RecordReadError, UTF8_BOM, type FastLine, type LineVisitor } from './lines.js';

/**
 * The one reader of JSON records, for csafe and the emulator alike (Node built-ins only, nothing
 * of the client): JSON Lines, one JSON array, or one (pretty-printed) object; a UTF-8 BOM and
 * CRLF tolerated; blank lines keep their numbers (core/input/lines cuts the lines). A record that
 * is not JSON is yielded with its line and reason; what ends the read (a line over the limit, no
 * records) is a RecordReadError.
 */

export interface SourceLine {
  line: number;
  text: string;
  /** The bytes are not UTF-8: the text holds U+FFFD where they were. */
  notUtf8?: true;
  /** Line 1 opens with a byte order mark of UTF-16. */
  utf16?: true;
}

export interface RecordReadOptions {
  /** Each non-blank line on its own (an import file), rather than any of the three shapes. */
  jsonLines?: boolean;
  /** No records is a result rather than an error (the emulator's empty import). */
  allowEmpty?: boolean;
  maxLineBytes?: number;
  /** Each valid record carries `chars`, the length of the text it was parsed from: a bound on its size that costs no serialising. */
  measured?: boolean;
}

/**
 * A line of JSON Lines that a fast check (core/json/scan) accepted as it is: certainly one
 * JSON object the caller's check would take, so it is neither parsed nor serialised again;
 * `accepted` is its text as written (without the white space ending it), `bytes` its size in UTF-8.
 */
export interface AcceptedLine {
  line: number;
  accepted: string;
  bytes: number;
}

/** What the reader gives with a fast check: a record read the exact way, or a line the fast check accepted. */
export type ReadRecord = JsonRecord | AcceptedLine;

type Parse = (text: string, line: number) => JsonRecord;

function parseMeasured(text: string, line: number): JsonRecord {
  const record = parseRecordAt(text, line);
  if ('value' in record) record.chars = text.length;
  return record;
}

const NEWLINE = 0x0a;

/** A line the splitter (core/input/lines) visited, as text. */
export function sourceLine(bytes: Buffer, start: number, end: number, line: number): SourceLine {
  const text = bytes.toString('utf8', start, end);
  const source: SourceLine = { line, text };
  // Only a line with U+FFFD can be one that was not UTF-8: the others are not checked again.
  if (text.includes('\uFFFD') && !isUtf8(bytes.subarray(start, end))) {
    source.notUtf8 = true;
    if (line === 1 && UTF16_BOMS.some(([first, second]) => bytes[start] === first && bytes[start + 1] === second)) source.utf16 = true;
  }
  return source;
}

/**
 * A line whose bytes are not UTF-8 is refused, not read with U+FFFD where they were: that would
 * send the service text the file does not hold.
 */
function notUtf8Record(line: SourceLine): JsonRecord {
  return { line: line.line, text: line.text, error: notUtf8Problem(line) };
}

/** Why a line that is not UTF-8 is refused, by the reader and by the check of an upload alike. */
export const notUtf8Problem = (line: SourceLine) =>
  line.utf16
    ? 'not UTF-8 but UTF-16 (it opens with its byte order mark): csafe reads UTF-8 text; convert the file, e.g. iconv -f utf-16 -t utf-8'
    : notUtf8(` at column ${line.text.indexOf('\uFFFD') + 1}`);

/** The byte order marks of UTF-16, little- and big-endian. */
const UTF16_BOMS = [
  [0xff, 0xfe],
  [0xfe, 0xff],
] as const;

/** A visitor for the splitter (core/input/lines) that gives `take` each line that is not blank, as text. */
export const nonBlankLines =
  (take: (line: SourceLine) => void): LineVisitor =>
  (bytes, start, end, line) => {
    const source = sourceLine(bytes, start, end, line);
    if (!isBlankLine(source.text)) take(source);
  };

/**
 * Whether a line holds nothing but JSON's white space (space, tab, CR): a blank line, skipped.
 * Not String.trim's, which takes a no-break space or a BOM for white space too: a line of them
 * was skipped, where JSON.parse refuses it and the first byte of an input counts it as a record.
 */
export function isBlankLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isJsonSpace(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Records of any of three shapes, told apart by the first character that is not white space:
 * `[` streams the elements of one JSON array; anything else is read line by line as JSON Lines,
 * where a line that opens an object it does not close continues on the next lines (one
 * pretty-printed object, or `jq .` output). With `jsonLines`, every line is a record of its own.
 * Memory stays flat in every shape; a bad record is yielded with its line and reason, not thrown.
 */
export async function* readJsonRecords(chunks: AsyncIterable<Buffer | string>, options: RecordReadOptions = {}): AsyncGenerator<JsonRecord> {
  for await (const records of readJsonRecordBatches(chunks, options)) yield* records;
}

/**
 * readJsonRecords a chunk at a time: the records each chunk of input completes, so a caller can
 * go through them in a synchronous loop, with one promise per chunk rather than one per record.
 */
export function readJsonRecordBatches(chunks: AsyncIterable<Buffer | string>, options?: RecordReadOptions): AsyncGenerator<JsonRecord[]>;
/**
 * With `fast`, a line of JSON Lines it accepts comes as an AcceptedLine; every other line (and
 * every element of a JSON array, and any line of a value that goes on over lines) is read the
 * exact way. Its `learn`, if any, is the caller's to call with the values the caller accepted.
 */
export function readJsonRecordBatches(chunks: AsyncIterable<Buffer | string>, options: RecordReadOptions, fast: FastLine): AsyncGenerator<ReadRecord[]>;
export async function* readJsonRecordBatches(chunks: AsyncIterable<Buffer | string>, options: RecordReadOptions = {}, fast?: FastLine): AsyncGenerator<ReadRecord[]> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const parse = options.measured ? parseMeasured : parseRecordAt;
  const iterator = chunks[Symbol.asyncIterator]();
  const { head, linesBefore, start } = await peekFirstByte(iterator, maxLineBytes);
  const firstByte = start.firstByte;
  if (firstByte === undefined) {
    if (options.allowEmpty) return;
    throw start.nothingError();
  }
  const replay = (async function* () {
    yield* head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield toBuffer(next.value);
  })();
  let any = false;
  if (firstByte === 0x5b && !options.jsonLines) {
    for await (const record of readArrayElements(replay, { maxElementChars: maxLineBytes, firstLine: linesBefore + 1 }, parse)) {
      any = true;
      yield [record];
    }
  } else {
    // One synchronous loop over each chunk's lines and records: a promise per chunk, not per record.
    const lines = new LineSplitter(maxLineBytes, linesBefore);
    const records = options.jsonLines ? new EachLineAlone(parse) : new ValuesByLine(maxLineBytes, parse);
    let batch: ReadRecord[] = [];
    const accepting = fast && new AcceptedLines(fast, records, (record) => batch.push(record));
    const take = nonBlankLines((line) => {
      if (line.notUtf8) batch.push(notUtf8Record(line));
      else for (const record of records.take(line)) batch.push(record);
    });
    try {
      for await (const chunk of replay) {
        lines.push(chunk, take, accepting);
        if (batch.length > 0) {
          any = true;
          yield batch;
          batch = [];
        }
      }
      lines.end(take);
      for (const record of records.end()) batch.push(record);
    } catch (error) {
      // The records a chunk completed before a line over the limit still come out, ahead of the error.
      if (batch.length > 0) yield batch;
      throw error;
    }
    if (batch.length > 0) {
      any = true;
      yield batch;
    }
  }
  if (!any && !options.allowEmpty) throw NO_RECORDS();
}

/** An input with text in it but not one record (every line blank). */
export const NO_RECORDS = () => new RecordReadError(undefined, 'holds no records, expected at least one JSON record');

const toBuffer = (piece: Buffer | string) => (typeof piece === 'string' ? Buffer.from(piece) : piece);
const isJsonSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * Follows the opening bytes of an input, a chunk at a time, to its first byte that is not white
 * space (after a BOM): what decides its shape, and whether an input without one is empty or blank.
 */
export class InputStart {
  firstByte: number | undefined;
  /** Some byte besides a BOM came. */
  private blank = false;
  private offset = 0;

  /** True once the first byte is known (then no later chunk need be fed). */
  feed(chunk: Buffer): boolean {
    if (this.firstByte !== undefined) return true;
    let i = 0;
    if (this.offset === 0 && UTF8_BOM.every((byte, index) => chunk[index] === byte)) i = UTF8_BOM.length;
    this.blank ||= i < chunk.length;
    this.offset += chunk.length;
    for (; i < chunk.length; i++) {
      if (!isJsonSpace(chunk[i]!)) {
        this.firstByte = chunk[i];
        return true;
      }
    }
    return false;
  }

  /** What an input that ended with no first byte is. */
  nothingError(): RecordReadError {
    return new RecordReadError(undefined, `${this.blank ? 'holds only blank lines' : 'is empty'}, expected at least one JSON record`);
  }
}

/** What was read to find an input's first byte that is not white space: the bytes to read on from, and the lines they skip. */
interface InputHead {
  /** The bytes from the start of line `linesBefore + 1` to the end of the chunk holding the first byte. */
  head: Buffer[];
  linesBefore: number;
  start: InputStart;
}

/**
 * The first byte that is not white space (after a BOM). The blank lines before it are counted,
 * not kept, so gigabytes of them stream in flat memory; the white space of the line it is on is
 * kept (for its columns), and refused once longer than a line may be.
 */
async function peekFirstByte(chunks: AsyncIterator<Buffer | string>, maxLineBytes: number): Promise<InputHead> {
  let head: Buffer[] = [];
  let headBytes = 0;
  let linesBefore = 0;
  const start = new InputStart();
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    const chunk = toBuffer(next.value);
    if (start.feed(chunk)) {
      head.push(chunk);
      break;
    }
    const lineStart = chunk.lastIndexOf(NEWLINE) + 1;
    if (lineStart > 0) {
      linesBefore += countNewlines(chunk);
      head = [];
      headBytes = 0;
    }
    head.push(chunk.subarray(lineStart));
    headBytes += chunk.length - lineStart;
    // One byte more than the limit may still be the CR of a CRLF.
    if (headBytes > maxLineBytes + 1) throw new LineTooLongError(linesBefore + 1, maxLineBytes);
  }
  return { head, linesBefore, start };
}

function countNewlines(chunk: Buffer): number {
  let count = 0;
  // A byte loop: a search per line feed costs a call each, and here nearly every byte is one.
  for (let i = 0; i < chunk.length; i++) if (chunk[i] === NEWLINE) count++;
  return count;
}

/** Records from numbered lines, a line at a time; `end` gives what is still open when the lines end. */
interface LineRecords {
  take(line: SourceLine): Iterable<JsonRecord>;
  end(): Iterable<JsonRecord>;
  /** Whether a value left open on an earlier line takes the next line. */
  readonly valueOpen?: boolean;
}

/** The white space a fast check lets end a line (before its line feed): not part of the record. */
const TRAILING_SPACE = /[ \t\r]+$/;

/**
 * A fast check given to the splitter for a reader: it accepts no line while a value is open over
 * lines (the line is part of it), and each line it accepts becomes an AcceptedLine.
 */
class AcceptedLines implements FastLine {
  acceptedEnd = -1;

  constructor(private readonly check: FastLine, private readonly records: LineRecords, private readonly push: (record: AcceptedLine) => void) {}

  next(chunk: Buffer): void {
    this.check.next?.(chunk);
  }

  accept(bytes: Buffer, start: number, limit: number): number {
    if (this.records.valueOpen) return 0;
    const accepted = this.check.accept(bytes, start, limit);
    this.acceptedEnd = this.check.acceptedEnd;
    return accepted;
  }

  took(bytes: Buffer, start: number, end: number, firstLine: number, lines: number): void {
    // Pure ASCII (most inputs) reads as Latin-1, several times faster than UTF-8, and then a character is a byte.
    const ascii = isAscii(bytes.subarray(start, end));
    const text = bytes.toString(ascii ? 'latin1' : 'utf8', start, end);
    for (let at = 0, line = firstLine; line < firstLine + lines; line++) {
      const lineEnd = line === firstLine + lines - 1 ? text.length : text.indexOf('\n', at);
      let accepted = text.slice(at, lineEnd);
      if (accepted.charCodeAt(accepted.length - 1) !== CLOSE_BRACE) accepted = accepted.replace(TRAILING_SPACE, '');
      this.push({ line, accepted, bytes: ascii ? accepted.length : Buffer.byteLength(accepted) });
      at = lineEnd + 1;
    }
  }
}

const CLOSE_BRACE = 0x7d;

/** Strict JSON Lines: every line is one record. */
class EachLineAlone implements LineRecords {
  constructor(private readonly parse: Parse) {}

  *take({ line, text }: SourceLine): Generator<JsonRecord> {
    yield this.parse(text, line);
  }

  end(): Iterable<JsonRecord> {
    return [];
  }
}

/** JSON Lines, except that a value left open at the end of its line is completed by the following lines. */
class ValuesByLine implements LineRecords {
  private open: { lines: SourceLine[]; bytes: number; nesting: NestingTracker } | undefined;

  constructor(private readonly maxRecordBytes: number, private readonly parse: Parse) {}

  get valueOpen(): boolean {
    return this.open !== undefined;
  }

  *take(line: SourceLine): Generator<JsonRecord> {
    const open = this.open;
    if (open !== undefined) {
      open.lines.push(line);
      open.bytes += line.text.length;
      open.nesting.feed(line.text);
      if (open.nesting.depth <= 0) {
        this.open = undefined;
        yield this.parse(open.lines.map((l) => l.text).join('\n'), open.lines[0]!.line);
      } else if (open.bytes > this.maxRecordBytes) {
        this.open = undefined;
        yield* eachLineOnItsOwn(open.lines, this.parse);
      }
      return;
    }
    const record = this.parse(line.text, line.line);
    if (!('error' in record)) {
      yield record;
      return;
    }
    const nesting = new NestingTracker();
    nesting.feed(line.text);
    if (nesting.depth > 0) this.open = { lines: [line], bytes: line.text.length, nesting };
    else yield record;
  }

  /** Never closed: most likely a truncated line of JSON Lines, so every line is judged alone. */
  *end(): Generator<JsonRecord> {
    if (this.open !== undefined) yield* eachLineOnItsOwn(this.open.lines, this.parse);
  }
}

function* eachLineOnItsOwn(lines: readonly SourceLine[], parse: Parse): Generator<JsonRecord> {
  for (const { line, text } of lines) yield parse(text, line);
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
async function* readArrayElements(chunks: AsyncIterable<Buffer>, { maxElementChars, firstLine }: { maxElementChars: number; firstLine: number }, parse: Parse): AsyncGenerator<JsonRecord> {
  const decoder = new StringDecoder('utf8');
  let line = firstLine;
  let state = 'before-array' as 'before-array' | 'before-element' | 'in-element' | 'after-array';
  let elements = 0;
  let pieces: string[] = [];
  let pieceChars = 0;
  let startLine = 0;
  let nesting = new NestingTracker();
  const finish = (): JsonRecord => {
    const record = parse(pieces.join('').trimEnd(), startLine);
    pieces = [];
    pieceChars = 0;
    elements++;
    return record;
  };

  // Only line 1 may open with a BOM.
  let first = firstLine === 1;
  const utf8 = new Utf8Check();
  for await (const chunk of chunks) {
    // Where a chunk is not UTF-8, the decoder gives U+FFFD: the first one there is where the read stops, rather than send text the file does not hold.
    const valid = utf8.feed(chunk);
    const decoded = decoder.write(chunk);
    const text = first ? decoded.replace(/^\uFEFF/, '') : decoded;
    first = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (!valid && code === REPLACEMENT_CHARACTER) {
        yield { line, text: '', error: notUtf8('') };
        return;
      }
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
  if (!utf8.end()) yield { line, text: '', error: notUtf8(' (a character cut short at the end of the input)') };
  else if (state === 'before-element' || state === 'in-element') {
    yield { line: state === 'in-element' ? startLine : line, text: pieces.join(''), error: 'unexpected end of input: the JSON array is not closed with ]' };
  }
}

const REPLACEMENT_CHARACTER = 0xfffd;
