import { checkingPass } from '../../../core/checking-pass.js';
import { InterruptedError } from '../../../core/errors.js';
import type { IOStreams } from '../../../core/io.js';
import { readRecords, type InputSource } from '../../../core/readers.js';
import { dataObjectProblem } from '../../../schemas/data.js';

/** How often the spinner's line count moves: often enough to see, rarely enough to cost nothing. */
const SPINNER_EVERY_LINES = 10_000;

/**
 * Checks every line of a JSONL file before any of it is uploaded: each must be a data object
 * with a non-empty string id. Problems are printed as `file:line: field: expected …`; any
 * problem ends the import with an InputError (exit 2) and nothing sent. Streamed: memory stays
 * flat whatever the file size. A spinner on a terminal counts the lines.
 */
export async function validateDataLines(source: InputSource, io: IOStreams, signal: AbortSignal): Promise<void> {
  const hint = 'each line must be one JSON object with a non-empty string "id"; fix the lines above, or pass --no-validate to upload the file as it is';
  await checkingPass(io, source.name, 'line', hint, async (pass) => {
    for await (const record of readRecords(source, { jsonLines: true })) {
      if (signal.aborted) throw new InterruptedError();
      if (record.line % SPINNER_EVERY_LINES === 0) pass.progress(`line ${record.line}`);
      const found = 'error' in record ? record.error : dataObjectProblem(record.value);
      if (found !== undefined) pass.problem(record.line, found);
    }
  });
}
