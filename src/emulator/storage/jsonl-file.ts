import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import type { FastRecordLines } from '../../core/input/jsonl-checker.js';
import { isUtf8 } from 'node:buffer';
import { isBlankLine, notUtf8Problem, sourceLine } from '../../core/input/json-records.js';
import { LineSplitter, LineTexts, LineTooLongError, MAX_LINE_BYTES } from '../../core/input/lines.js';
import { parseJsonAt } from '../../core/json/position.js';
import { nestingProblem } from '../../core/json/nesting.js';

// How the emulator checks an uploaded JSONL file line by line, with the same rules as csafe's own
// check, without holding the file in memory.

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

const OPEN_BRACE = 0x7b;

/** Thrown by a line's check to stop the read at the first line that fails. */
class LineRefused extends Error {}

/**
 * Reads an uploaded JSONL file as csafe's own check reads it (core/input/json-records with jsonLines:
 * one record a non-blank line, cut by core/input/lines, and the emulator's nesting limit), a chunk
 * at a time: each ASCII chunk is decoded once and its lines are checked in one synchronous loop,
 * so a big import costs no promise per line. Only the line not yet complete is held between
 * chunks, so memory stays flat whatever the file's size. The first line that fails stops the
 * read, named by its number. A line `fast` (the client's fast check, core/json/scan) is sure of is
 * a record without being decoded, parsed or visited: give it only when `visit` refuses nothing
 * such a line can hold.
 */
export class JsonLinesReader {
  private readonly splitter = new LineSplitter(MAX_LINE_BYTES);
  private readonly texts = new LineTexts();
  /** Records visited (and not refused). */
  private records = 0;

  constructor(
    private readonly visit: RecordVisitor,
    private readonly fast?: FastRecordLines,
  ) {}

  /** Records so far: those visited and the lines `fast` accepted. */
  get count(): number {
    return this.records + this.splitter.accepted;
  }

  /** The chunk's complete lines, each visited; the first problem, as `line N: why`, or undefined. The chunk may be reused once this returns. */
  push(chunk: Buffer): string | undefined {
    this.texts.next(chunk);
    return this.refusal(() => this.splitter.push(chunk, this.line, this.fast));
  }

  /** The last line, when the file does not end with a line end. */
  end(): string | undefined {
    return this.refusal(() => this.splitter.end(this.line));
  }

  /** What stopped the read, as `line N: why` (a refused line, or one over the limit), or undefined. */
  private refusal(read: () => void): string | undefined {
    try {
      read();
      return undefined;
    } catch (error) {
      if (error instanceof LineRefused) return error.message;
      if (error instanceof LineTooLongError) return `line ${error.line}: ${error.message}`;
      throw error;
    }
  }

  private readonly line = (bytes: Buffer, start: number, end: number, line: number): void => {
    const source = this.texts.of(bytes, start, end);
    // Most lines open with a brace: only the others can be blank.
    if (source.charCodeAt(0) !== OPEN_BRACE && isBlankLine(source)) return;
    // Only a line with U+FFFD can be one that was not UTF-8: refused as the client's reader refuses it.
    if (source.includes('\uFFFD') && !isUtf8(bytes.subarray(start, end))) throw new LineRefused(`line ${line}: ${notUtf8Problem(sourceLine(bytes, start, end, line))}`);
    const problem = this.record(source, line);
    if (problem !== undefined) throw new LineRefused(`line ${line}: ${problem}`);
    this.records++;
  };

  private record(source: string, line: number): string | undefined {
    const tooDeep = nestingProblem(source);
    if (tooDeep !== undefined) return tooDeep;
    const parsed = parseJsonAt(source, line);
    if ('error' in parsed) return parsed.error;
    const problem = this.visit(parsed.value, line);
    if (problem === undefined) this.fast?.learn?.(parsed.value);
    return problem;
  }
}

const outcomeOf = (reader: JsonLinesReader, problem: string | undefined): JsonLinesCheck =>
  problem === undefined ? { count: reader.count } : { error: problem };

/**
 * Checks an uploaded JSONL file (see JsonLinesReader): each record must be JSON in which
 * `problemOf` finds nothing wrong. Blocks while it reads, one reused buffer at a time: for a
 * worker thread, which has nothing else to do meanwhile.
 */
export function checkJsonLinesSync(path: string, problemOf: (value: unknown) => string | undefined, fast?: FastRecordLines): JsonLinesCheck {
  const reader = new JsonLinesReader(problemOf, fast);
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
