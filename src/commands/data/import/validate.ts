import { InputError, InterruptedError } from '../../../core/errors.js';
import type { IOStreams } from '../../../core/io.js';
import { readRecords, type InputSource } from '../../../core/readers.js';
import { startSpinner } from '../../../core/spinner.js';
import { dataObjectProblem } from '../../../schemas/data.js';

/** Problems printed before the rest are only counted: a dump that is wrong throughout must not flood the terminal. */
const SHOWN_PROBLEMS = 20;
/** How often the spinner's line count moves: often enough to see, rarely enough to cost nothing. */
const SPINNER_EVERY_LINES = 10_000;

/**
 * Checks every line of a JSONL file before any of it is uploaded: each must be a data object
 * with a non-empty string id. Problems are printed as `file:line: field: expected …`; any
 * problem ends the import with an InputError (exit 2) and nothing sent. Streamed: memory stays
 * flat whatever the file size. A spinner on a terminal counts the lines.
 */
export async function validateDataLines(source: InputSource, io: IOStreams, signal: AbortSignal): Promise<void> {
  let invalid = 0;
  // Printed once the spinner has stopped: a line written under it would be torn by its redraws.
  const shown: string[] = [];
  const problem = (line: number, text: string) => {
    if (++invalid <= SHOWN_PROBLEMS) shown.push(`${source.name}:${line}: ${text}`);
  };
  const spinner = await startSpinner(io, `Checking ${source.name}…`);
  try {
    for await (const record of readRecords(source, { jsonLines: true })) {
      if (signal.aborted) throw new InterruptedError();
      if (record.line % SPINNER_EVERY_LINES === 0) spinner.update(`Checking ${source.name}: line ${record.line}`);
      if ('error' in record) {
        problem(record.line, record.error);
        continue;
      }
      const found = dataObjectProblem(record.value);
      if (found !== undefined) problem(record.line, found);
    }
  } finally {
    spinner.stop();
    for (const line of shown) io.warn(line);
  }
  if (invalid > SHOWN_PROBLEMS) io.warn(`… and ${invalid - SHOWN_PROBLEMS} more invalid lines`);
  if (invalid > 0) {
    throw new InputError(`${source.name}: ${invalid} invalid ${invalid === 1 ? 'line' : 'lines'}; nothing was sent`, {
      hint: 'each line must be one JSON object with a non-empty string "id"; fix the lines above, or pass --no-validate to upload the file as it is',
    });
  }
}
