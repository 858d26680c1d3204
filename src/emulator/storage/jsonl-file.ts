import { isAscii } from 'node:buffer';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { LineTooLongError, MAX_LINE_BYTES } from '../../core/input/json-records.js';
import { parseJsonAt } from '../../core/json/position.js';
import { nestingProblem } from '../../core/json/nesting.js';

type JsonLinesCheck = { count: number } | { error: string };

/** How much of an uploaded file the main thread reads, and checks in one go, at a time: requests arriving meanwhile wait for one such chunk at most. */
export const MAIN_THREAD_CHUNK_BYTES = 64 * 1024;

/**
 * How much a worker thread reads at a time, into one buffer it reuses. Larger chunks cost no less
 * CPU, and each one's text is a large object the garbage collector keeps longer: with 1 MiB the
 * peak RSS of a check doubled.
 */
const WORKER_CHUNK_BYTES = 64 * 1024;

/** Takes one record's value and its line number; returns why the record is refused, or undefined. */
type RecordVisitor = (value: unknown, line: number) => string | undefined;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const OPEN_BRACE = 0x7b;

/**
 * Reads an uploaded JSONL file as csafe's own check reads it (core/input/json-records with jsonLines:
 * one record a non-blank line, a BOM and CRLF tolerated, lines over MAX_LINE_BYTES refused, and
 * the emulator's nesting limit), a chunk at a time: each chunk is decoded once and its lines are
 * checked in one synchronous loop, so a big import costs no promise per line. Only the line not
 * yet complete is held between chunks, so memory stays flat whatever the file's size. The first
 * line that fails stops the read, named by its number.
 */
export class JsonLinesReader {
  private carried: Buffer[] = [];
  private carriedBytes = 0;
  private line = 0;
  private records = 0;

  constructor(private readonly visit: RecordVisitor) {}

  get count(): number {
    return this.records;
  }

  /** The chunk's complete lines, each visited; the first problem, as `line N: why`, or undefined. The chunk may be reused once this returns. */
  push(chunk: Buffer): string | undefined {
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline === -1) return this.carry(chunk);
    const firstNewline = chunk.indexOf(NEWLINE);
    if (this.carriedBytes > 0 && this.carriedBytes + firstNewline - (endsWithCr(chunk, firstNewline, this.carried) ? 1 : 0) > MAX_LINE_BYTES) {
      return this.tooLong(this.line + 1);
    }
    const complete = chunk.subarray(0, lastNewline + 1);
    const block = this.carried.length === 0 ? complete : Buffer.concat([...this.carried, complete]);
    this.carried = [];
    this.carriedBytes = 0;
    return this.lines(decoded(block)) ?? this.carry(chunk.subarray(lastNewline + 1));
  }

  /** The last line, when the file does not end with a line end. */
  end(): string | undefined {
    if (this.carriedBytes === 0) return undefined;
    const last = Buffer.concat(this.carried);
    if (last.length - (last.at(-1) === CARRIAGE_RETURN ? 1 : 0) > MAX_LINE_BYTES) return this.tooLong(this.line + 1);
    this.carried = [];
    this.carriedBytes = 0;
    return this.lines(`${decoded(last)}\n`);
  }

  private carry(rest: Buffer): string | undefined {
    if (rest.length === 0) return undefined;
    // Copied: the caller may reuse its buffer.
    this.carried.push(Buffer.from(rest));
    this.carriedBytes += rest.length;
    // One byte more than the limit may still be the CR of a CRLF.
    return this.carriedBytes > MAX_LINE_BYTES + 1 ? this.tooLong(this.line + 1) : undefined;
  }

  /** Text made of whole lines, each ending with a newline. */
  private lines(text: string): string | undefined {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; start = end + 1, end = text.indexOf('\n', start)) {
      const line = ++this.line;
      const stop = end > start && text.charCodeAt(end - 1) === CARRIAGE_RETURN ? end - 1 : end;
      let source = text.slice(start, stop);
      if (line === 1 && source.charCodeAt(0) === 0xfeff) source = source.slice(1);
      // Most lines open with a brace: only the others can be blank.
      if (source.charCodeAt(0) !== OPEN_BRACE && source.trim() === '') continue;
      const problem = this.record(source, line);
      if (problem !== undefined) return `line ${line}: ${problem}`;
      this.records++;
    }
    return undefined;
  }

  private record(source: string, line: number): string | undefined {
    const tooDeep = nestingProblem(source);
    if (tooDeep !== undefined) return tooDeep;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      const parsed = parseJsonAt(source, line);
      return 'error' in parsed ? parsed.error : undefined;
    }
    return this.visit(value, line);
  }

  private tooLong(line: number): string {
    return `line ${line}: ${new LineTooLongError(line, MAX_LINE_BYTES).message}`;
  }
}

/** UTF-8 text; ASCII (most imports) is decoded as Latin-1, which gives the same text several times faster. */
const decoded = (bytes: Buffer) => (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'));

/** Whether the line ending at `newline` in chunk ends with a CR, which may be the last byte carried from earlier chunks. */
function endsWithCr(chunk: Buffer, newline: number, carried: readonly Buffer[]): boolean {
  if (newline > 0) return chunk[newline - 1] === CARRIAGE_RETURN;
  return carried.at(-1)?.at(-1) === CARRIAGE_RETURN;
}

const outcomeOf = (reader: JsonLinesReader, problem: string | undefined): JsonLinesCheck =>
  problem === undefined ? { count: reader.count } : { error: problem };

/**
 * Checks an uploaded JSONL file (see JsonLinesReader): each record must be JSON in which
 * `problemOf` finds nothing wrong. Blocks while it reads, one reused buffer at a time: for a
 * worker thread, which has nothing else to do meanwhile.
 */
export function checkJsonLinesSync(path: string, problemOf: (value: unknown) => string | undefined): JsonLinesCheck {
  const reader = new JsonLinesReader(problemOf);
  const buffer = Buffer.allocUnsafe(WORKER_CHUNK_BYTES);
  const file = openSync(path, 'r');
  try {
    for (let size = readSync(file, buffer); size > 0; size = readSync(file, buffer)) {
      const problem = reader.push(buffer.subarray(0, size));
      if (problem !== undefined) return { error: problem };
    }
  } finally {
    closeSync(file);
  }
  return outcomeOf(reader, reader.end());
}

/** checkJsonLinesSync for the main thread: a chunk of MAIN_THREAD_CHUNK_BYTES at a time, between which requests are served. */
export async function checkJsonLines(path: string, problemOf: (value: unknown) => string | undefined, signal?: AbortSignal): Promise<JsonLinesCheck> {
  const reader = new JsonLinesReader(problemOf);
  for await (const chunk of createReadStream(path, { highWaterMark: MAIN_THREAD_CHUNK_BYTES })) {
    signal?.throwIfAborted();
    const problem = reader.push(chunk as Buffer);
    if (problem !== undefined) return { error: problem };
  }
  return outcomeOf(reader, reader.end());
}

/** The values of a checked JSONL file, a chunk's worth at a time. */
export async function* jsonLinesValues(path: string): AsyncGenerator<unknown[]> {
  let values: unknown[] = [];
  const reader = new JsonLinesReader((value) => void values.push(value));
  for await (const chunk of createReadStream(path, { highWaterMark: MAIN_THREAD_CHUNK_BYTES })) {
    reader.push(chunk as Buffer);
    if (values.length > 0) yield values;
    values = [];
  }
  reader.end();
  if (values.length > 0) yield values;
}
