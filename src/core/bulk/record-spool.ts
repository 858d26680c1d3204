import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { LineSplitter } from '../input/lines.js';
import { spoolToTempFile, type SpooledInput } from '../input/spool.js';

/**
 * How a bulk command holds its records between the check before anything is sent and the sending
 * pass: each record, checked and made ready as it will be sent, is written to a private temporary
 * file, which the sending pass reads back. Measured against reading the input again (checked,
 * then read, checked and made ready once more) with bench/hold-checked.mjs, it is the faster of
 * the two, and what is sent is exactly what was checked, whatever happens to the input meanwhile.
 */
export interface SpoolFormat<T> {
  /** A record as one line of text, without its newline (JSON text holds no raw newline or tab). */
  encode(record: T): string;
  decode(line: string): T;
  /** The longest line a record can make. */
  maxLineBytes: number;
}

/** Writes the records, in order, to a temporary file of their own; a chunk of text at a time. */
export const spoolRecords = <T>(groups: AsyncIterable<Iterable<T>>, format: SpoolFormat<T>, signal: AbortSignal): Promise<SpooledInput> =>
  spoolToTempFile(Readable.from(spoolText(groups, format)), signal);

/** Text handed to the file at once: records that come one a group are not written one by one. */
const SPOOL_WRITE_CHARS = 1 << 16;

async function* spoolText<T>(groups: AsyncIterable<Iterable<T>>, format: SpoolFormat<T>): AsyncGenerator<string> {
  let text = '';
  for await (const group of groups) {
    for (const record of group) text += `${format.encode(record)}\n`;
    if (text.length >= SPOOL_WRITE_CHARS) {
      yield text;
      text = '';
    }
  }
  if (text !== '') yield text;
}

const SPOOL_CHUNK_BYTES = 1 << 20;

/**
 * The records spoolRecords kept, in the same order, a chunk at a time. Each line is decoded on its
 * own, so a record waiting to be sent holds its own text, not the whole chunk it was read with.
 */
export async function* spooledRecords<T>(path: string, format: SpoolFormat<T>): AsyncGenerator<T[]> {
  const lines = new LineSplitter(format.maxLineBytes);
  let records: T[] = [];
  const take = (bytes: Buffer, start: number, end: number) => void records.push(format.decode(bytes.toString('utf8', start, end)));
  for await (const chunk of createReadStream(path, { highWaterMark: SPOOL_CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    lines.push(chunk, take);
    yield records;
    records = [];
  }
  lines.end(take);
  if (records.length > 0) yield records;
}
