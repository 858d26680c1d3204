import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { InterruptedError } from '../errors.js';
import { LineSplitter } from '../input/lines.js';
import { spoolToTempFile } from '../input/spool.js';

/**
 * How a bulk command holds its records between the check before anything is sent and the sending
 * pass: each record, checked and made ready as it will be sent, is kept in memory while the records
 * held weigh at most SPOOL_MEMORY_CHARS, and beyond that all of them go, encoded, to a private
 * temporary file, which the sending pass reads back. Measured against reading the input again
 * (checked, then read, checked and made ready once more) with bench/hold-checked.mjs, a spool is
 * the faster of the two, and what is sent is exactly what was checked, whatever happens to the
 * input meanwhile. Held in memory, 100,000 objects of `data add` skip encoding, writing, reading
 * back and decoding 10 MB: 2.77 s a run against 2.95, 130 ms less CPU, for 8 MB more peak memory.
 */
export interface SpoolFormat<T> {
  /** A record as one line of text, without its newline (JSON text holds no raw newline or tab). */
  encode(record: T): string;
  decode(line: string): T;
  /** The longest line a record can make. */
  maxLineBytes: number;
  /** About how many characters of text a record holds in memory, beside what it shares with others. */
  weight(record: T): number;
}

/** Checked records, ready to be sent again and again in the order they came. */
export interface RecordSpool<T> {
  /** The records, in order, a group at a time. */
  records(): AsyncGenerator<T[]>;
  /** The temporary file they went to, when they weighed too much to hold in memory. */
  path: string | undefined;
  remove(): Promise<void>;
}

/**
 * The weight of the records a spool holds in memory before it writes them all to a file: some
 * 20 MB of input. 100,000 objects of 100 bytes weigh 16.8 M, and took 8 MB more peak memory than
 * written to a file; 200,000 weigh just over the bound, the costliest case (held, then written):
 * 0.50 s and 155 MB for `data add --dry-run`, against 0.44 s and 113 MB written from the start.
 */
export const SPOOL_MEMORY_CHARS = 32 * 1024 * 1024;

/** What a record held in memory costs beyond its text (the object, its numbers), in characters. */
const RECORD_OVERHEAD_CHARS = 64;

/** Records held in memory go in groups of this many: one read of a group per await, as a file read of 1 MiB gives. */
const HELD_GROUP_RECORDS = 4096;

/**
 * Takes the records, in order: held in memory up to `memoryChars` of weight, else all of them
 * written to a temporary file of their own, a chunk of text at a time. The signal stops the
 * taking: InterruptedError.
 */
export async function spoolRecords<T>(groups: AsyncIterable<Iterable<T>>, format: SpoolFormat<T>, signal: AbortSignal, memoryChars = SPOOL_MEMORY_CHARS): Promise<RecordSpool<T>> {
  const held: T[][] = [];
  let chars = 0;
  const taken = groups[Symbol.asyncIterator]();
  // The input is closed once what it was doing ends; an interrupted or failed run does not wait for that.
  const close = () => void taken.return?.().catch(() => undefined);
  try {
    for (;;) {
      if (signal.aborted) throw new InterruptedError();
      const next = await nextUnlessInterrupted(taken, signal);
      if (next.done === true) return heldSpool(held);
      for (const record of next.value) {
        let group = held.at(-1);
        if (group === undefined || group.length === HELD_GROUP_RECORDS) held.push((group = []));
        group.push(record);
        chars += format.weight(record) + RECORD_OVERHEAD_CHARS;
      }
      if (chars > memoryChars) break;
    }
  } catch (error) {
    close();
    throw error;
  }
  const rest: AsyncIterable<Iterable<T>> = { [Symbol.asyncIterator]: () => taken };
  // A write that fails before it has reached the rest (no temporary directory, Ctrl-C while the held records go) has not closed the input.
  const file = await spoolToTempFile(Readable.from(spoolText(releasing(held, rest), format)), signal).catch((error: unknown) => {
    close();
    throw error;
  });
  return { records: () => spooledRecords(file.path, format), path: file.path, remove: file.remove };
}

/**
 * The input's next group; InterruptedError at once when the signal fires while the input keeps us
 * waiting (a pipe with nothing to say), not at its next chunk. A listener for each wait, removed
 * when it ends: racing every wait against one promise that never settles kept each race alive
 * (some 400 bytes a group, for the whole run, where a group is one record).
 */
function nextUnlessInterrupted<T>(taken: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T>> {
  return new Promise((resolve, reject) => {
    const interrupted = () => reject(new InterruptedError());
    signal.addEventListener('abort', interrupted, { once: true });
    taken
      .next()
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', interrupted));
  });
}

function heldSpool<T>(held: T[][]): RecordSpool<T> {
  return {
    async *records() {
      yield* held;
    },
    path: undefined,
    remove: async () => {
      held.length = 0;
    },
  };
}

/** The groups held, each let go once taken, then the rest. */
async function* releasing<T>(held: T[][], rest: AsyncIterable<Iterable<T>>): AsyncGenerator<Iterable<T>> {
  while (held.length > 0) yield held.shift()!;
  yield* rest;
}

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
 * The records a spool's file kept, in the same order, a chunk at a time. Each line is decoded on
 * its own, so a record waiting to be sent holds its own text, not the whole chunk it was read with.
 */
async function* spooledRecords<T>(path: string, format: SpoolFormat<T>): AsyncGenerator<T[]> {
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
