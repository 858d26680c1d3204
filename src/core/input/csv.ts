import { Transform, type Readable } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import { InputError, InterruptedError } from '../errors.js';
import { fileError, type InputSource } from './sources.js';
import { firstNotUtf8, notUtf8, Utf8Check } from './utf8.js';

/** One CSV record and the line it starts on (a quoted field may carry it over several lines). */
export interface CsvRow {
  line: number;
  fields: string[];
}

/**
 * The records of a CSV file or stdin, streamed (memory stays flat whatever the size), as
 * csvRecords reads them; what the parser cannot read at all (an unclosed quote) stops the read
 * with an InputError `name:line: …`.
 */
export async function* readCsvRows(source: InputSource): AsyncGenerator<CsvRow> {
  try {
    yield* csvRecords(source.open());
  } catch (error) {
    throw csvReadError(source.name, error);
  }
}

/**
 * The records of a CSV stream, as both `batch create`'s check and the emulator's batches read
 * them, so a file the check passes is one the emulator reads row for row: a byte order mark is
 * dropped, LF, CRLF and CR all end a record (mixed in one file too), quoted fields may hold
 * commas, doubled quotes and line breaks, and a blank line is no record. Rows of different widths
 * are passed on for the caller to judge; what csv-parse cannot read throws its CsvError.
 */
export async function* csvRecords(input: Readable): AsyncGenerator<CsvRow> {
  // Not csv-parse's `info`: a snapshot object per record halves the speed; the lines are counted here instead.
  const parser = parse({ bom: true, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] });
  const utf8 = utf8Lines();
  // pipe() forwards no error: a failed or aborted read would otherwise be an uncaught 'error' event.
  input.on('error', (error) => parser.destroy(error));
  utf8.on('error', (error) => parser.destroy(error));
  input.pipe(utf8).pipe(parser);
  let line = 1;
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      // A blank line (many exports end with one) holds no record.
      if (!isBlankLine(fields)) yield { line, fields };
      line += 1 + lineBreaksIn(fields);
    }
  } finally {
    input.unpipe(utf8);
    utf8.destroy();
    parser.destroy();
  }
}

/** Bytes that are not UTF-8, where the CSV holds them: csv-parse would read them as U+FFFD and the file would be sent changed. */
export class CsvNotUtf8Error extends Error {
  constructor(readonly line: number, column?: number) {
    super(notUtf8(column === undefined ? ' (a character cut short at the end of the input)' : ` at column ${column}`));
  }
}

/**
 * The bytes passed on as they are, once checked to be UTF-8 (core/input/utf8), with the line
 * breaks counted as csvRecords counts them (LF, CRLF and a lone CR) so that bytes that are not
 * UTF-8 stop the read with a CsvNotUtf8Error naming their line and column.
 */
function utf8Lines(): Transform {
  const check = new Utf8Check();
  let breaks = 0;
  let lastByte = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!check.feed(chunk)) {
        const at = firstNotUtf8(chunk);
        const before = chunk.subarray(0, at);
        const lineStart = Math.max(before.lastIndexOf(LF), before.lastIndexOf(CR)) + 1;
        return done(new CsvNotUtf8Error(breaks + lineBreaks(before, lastByte) + 1, before.toString('utf8', lineStart).length + 1));
      }
      breaks += lineBreaks(chunk, lastByte);
      lastByte = chunk[chunk.length - 1] ?? lastByte;
      done(null, chunk);
    },
    flush(done) {
      done(check.end() ? null : new CsvNotUtf8Error(breaks + 1));
    },
  });
}

const LF = 0x0a;
const CR = 0x0d;

/** The line breaks in `bytes` (a CRLF once, its CR perhaps the last byte of the chunk before), found by native searches. */
function lineBreaks(bytes: Buffer, byteBefore: number): number {
  let count = 0;
  for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) count++;
  for (let at = bytes.indexOf(CR); at !== -1; at = bytes.indexOf(CR, at + 1)) if (bytes[at + 1] !== LF) count++;
  // A CR ending the chunk before was counted alone; the LF opening this one ends the same line.
  if (byteBefore === CR && bytes[0] === LF) count--;
  return count;
}

const isBlankLine = (fields: readonly string[]) => fields.length === 1 && fields[0] === '';

/** The line breaks inside a record's quoted fields (CRLF counted once), which carry it onto further lines. */
function lineBreaksIn(fields: readonly string[]): number {
  let breaks = 0;
  for (const field of fields) {
    if (!field.includes('\n') && !field.includes('\r')) continue;
    breaks += field.match(/\r\n|\n|\r/g)!.length;
  }
  return breaks;
}

/** csv-parse counts fields from 0 ("field 0" is the first); a user counts from 1, as csafe's other messages do. */
function strayQuote(error: CsvError): string {
  const { column, field } = error as CsvError & { column?: unknown; field?: unknown };
  const where = typeof column === 'number' ? `field ${column + 1}` : 'a field';
  // The field as read up to the quote: csv-parse's own buffer.
  const readSoFar = field === undefined || field === null ? '' : ` (it starts ${JSON.stringify(String(field))})`;
  return `${where} has a quote but does not start with one${readSoFar}`;
}

/** A quote in a field that starts with `{` or `[`: JSON (a JSONL file given for a CSV), which no CSV writer leaves unquoted. */
function looksLikeJson(error: CsvError): boolean {
  const { field } = error as CsvError & { field?: unknown };
  return error.code === 'INVALID_OPENING_QUOTE' && /^\s*[[{]/.test(String(field ?? ''));
}

function csvReadError(name: string, error: unknown): Error {
  if (error instanceof InterruptedError) return error;
  if (error instanceof CsvNotUtf8Error) return new InputError(`${name}:${error.line}: ${error.message}`);
  if (!(error instanceof CsvError)) return fileError(name, error);
  if (looksLikeJson(error)) {
    const line = (error as CsvError & { lines?: number }).lines ?? 1;
    return new InputError(`${name}:${line}: is JSON, expected CSV`, { hint: 'give a CSV file: a header row naming the columns, then one row a line' });
  }
  // csv-parse's messages start with a title ("Invalid Closing Quote: …"); the line goes in front, as everywhere.
  const reason = error.code === 'CSV_QUOTE_NOT_CLOSED'
    ? 'a quoted field starts on this line and is never closed'
    : error.code === 'INVALID_OPENING_QUOTE'
      ? strayQuote(error)
      : error.message.replace(/^[^:]*:\s*/, '').replace(/ at line \d+/, '');
  const line = (error as CsvError & { lines?: number }).lines;
  return new InputError(`${name}:${line ?? 1}: ${reason}`, {
    hint: 'a field holding a quote, comma or line break must be in double quotes, with each quote inside doubled: "say ""hi"""',
  });
}
