import { createReadStream } from 'node:fs';
import { LineTooLongError, readJsonRecords } from '../../core/record-reader.js';
import { nestingProblem } from '../http/body.js';

export type JsonLinesCheck = { count: number } | { error: string };

/** How much of an uploaded file the main thread reads, and parses in one go, at a time: requests arriving meanwhile wait for one such chunk at most. */
export const MAIN_THREAD_CHUNK_BYTES = 64 * 1024;

export interface Reading {
  /** Stops the read. */
  signal?: AbortSignal;
  /** How much is read at a time: 1 MiB off the main thread, MAIN_THREAD_CHUNK_BYTES on it. */
  chunkBytes?: number;
}

/**
 * Checks an uploaded JSONL file as csafe's own check reads it (core/record-reader, one record a
 * line), streamed so memory stays flat whatever its size: each non-blank line must be JSON in
 * which `problemOf` finds nothing wrong. The first line that fails fails the file, named by its
 * number.
 */
export async function checkJsonLines(path: string, problemOf: (value: unknown) => string | undefined, reading: Reading = {}): Promise<JsonLinesCheck> {
  const { signal, chunkBytes } = reading;
  let count = 0;
  try {
    for await (const record of jsonLinesOf(path, chunkBytes)) {
      signal?.throwIfAborted();
      const problem = 'error' in record ? record.error : problemOf(record.value);
      if (problem !== undefined) return { error: `line ${record.line}: ${problem}` };
      count++;
    }
  } catch (error) {
    if (error instanceof LineTooLongError) return { error: `line ${error.line}: ${error.message}` };
    throw error;
  }
  return { count };
}

/** The records of an uploaded JSONL file, one a non-blank line, each with its line number. */
export const jsonLinesOf = (path: string, chunkBytes = 1 << 20) =>
  readJsonRecords(createReadStream(path, { highWaterMark: chunkBytes }), { jsonLines: true, allowEmpty: true, lineProblem: nestingProblem });
