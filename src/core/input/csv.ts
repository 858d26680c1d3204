import type { Readable } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import { InputError, InterruptedError } from '../errors.js';
import { fileError, type InputSource } from './sources.js';

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
  // pipe() forwards no error: a failed or aborted read would otherwise be an uncaught 'error' event.
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  let line = 1;
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      // A blank line (many exports end with one) holds no record.
      if (!isBlankLine(fields)) yield { line, fields };
      line += 1 + lineBreaksIn(fields);
    }
  } finally {
    input.unpipe(parser);
    parser.destroy();
  }
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

function csvReadError(name: string, error: unknown): Error {
  if (error instanceof InterruptedError) return error;
  if (!(error instanceof CsvError)) return fileError(name, error);
  // csv-parse's messages start with a title ("Invalid Closing Quote: …"); the line goes in front, as everywhere.
  const reason = error.code === 'CSV_QUOTE_NOT_CLOSED'
    ? 'a quoted field starts on this line and is never closed'
    : error.message.replace(/^[^:]*:\s*/, '').replace(/ at line \d+/, '');
  const line = (error as CsvError & { lines?: number }).lines;
  return new InputError(`${name}:${line ?? 1}: ${reason}`, {
    hint: 'a field holding a quote, comma or line break must be in double quotes, with each quote inside doubled: "say ""hi"""',
  });
}
