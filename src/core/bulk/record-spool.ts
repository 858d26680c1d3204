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
 * input meanwhile.
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
 * 0.6 MB of `data add`'s objects, 0.7 MB of events, 0.3 MB of the lines of the commands that send
 * a request a line (their parsed values weigh too), so a small run touches no disk and a large one
 * holds no more than that. Held in memory, 100,000 objects of `data add` (10 MB) saved some 90 ms
 * of CPU and 2–4 % of the time with the service at work on the same machine
 * (bench/against-build.mjs, 15 and 9 rounds), and the garbage they left raised the peak memory of
 * a `--wait` run by 18 MB (133 MiB against 115).
 */
export const SPOOL_MEMORY_CHARS = 1024 * 1024;

/** What a record held in memory costs beyond its text (the object, its numbers), in characters. */
const RECORD_OVERHEAD_CHARS = 64;

/** Records held in memory go in groups of up to this many, so the sending pass takes a group per await, as it takes a read of the file. */
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

/**
 * A read of the spool's file. Each read's records wait together to be sent; read 1 MiB at a time,
 * 10,000 of them outlived the young generation's collections and left the old one full of garbage:
 * some 7 MB more peak memory for 100,000 objects than reads of 256 KiB, which took no longer.
 */
const SPOOL_CHUNK_BYTES = 1 << 18;

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
