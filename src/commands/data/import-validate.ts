import { InputError, InterruptedError } from '../../core/errors.js';
import type { IOStreams } from '../../core/io.js';
import { readJsonLines, type InputSource } from '../../core/readers.js';
import { dataObjectSchema } from '../../schemas/data.js';
import { describeProblem, problemsFromZod } from '../../schemas/issues.js';

/** Problems printed before the rest are only counted: a dump that is wrong throughout must not flood the terminal. */
const SHOWN_PROBLEMS = 20;

/**
 * Checks every line of a JSONL file before any of it is uploaded: each must be a data object
 * with a non-empty string id. Problems are printed as `file:line: field: expected …`; any
 * problem ends the import with an InputError (exit 2) and nothing sent. Streamed: memory stays
 * flat whatever the file size.
 */
export async function validateDataLines(source: InputSource, io: IOStreams, signal: AbortSignal): Promise<number> {
  let objects = 0;
  let invalid = 0;
  const problem = (line: number, text: string) => {
    if (++invalid <= SHOWN_PROBLEMS) io.warn(`${source.name}:${line}: ${text}`);
  };
  for await (const record of readJsonLines(source)) {
    if (signal.aborted) throw new InterruptedError();
    if ('error' in record) {
      problem(record.line, record.error);
      continue;
    }
    const parsed = dataObjectSchema.safeParse(record.value);
    if (parsed.success) objects++;
    else problem(record.line, problemsFromZod(parsed.error).map(describeProblem).join('; '));
  }
  if (invalid > SHOWN_PROBLEMS) io.warn(`… and ${invalid - SHOWN_PROBLEMS} more invalid lines`);
  if (invalid > 0) {
    throw new InputError(`${source.name}: ${invalid} invalid ${invalid === 1 ? 'line' : 'lines'}; nothing was sent`, {
      hint: 'each line must be one JSON object with a non-empty string "id"; fix the lines above, or pass --no-validate to upload the file as it is',
    });
  }
  return objects;
}
