import { createReadStream } from 'node:fs';
import { LineTooLongError, readJsonRecords } from '../../core/record-reader.js';
import { nestingProblem } from '../http/body.js';

export type JsonLinesCheck = { count: number } | { error: string };

/**
 * Checks an uploaded JSONL file as csafe's own check reads it (core/record-reader, one record a
 * line), streamed so memory stays flat whatever its size: each non-blank line must be JSON in
 * which `problemOf` finds nothing wrong. The first line that fails fails the file, named by its
 * number. Aborting the signal stops the read.
 */
export async function checkJsonLines(path: string, problemOf: (value: unknown) => string | undefined, signal?: AbortSignal): Promise<JsonLinesCheck> {
  let count = 0;
  try {
    for await (const record of jsonLinesOf(path)) {
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
export const jsonLinesOf = (path: string) =>
  readJsonRecords(createReadStream(path, { highWaterMark: 1 << 20 }), { jsonLines: true, allowEmpty: true, lineProblem: nestingProblem });
