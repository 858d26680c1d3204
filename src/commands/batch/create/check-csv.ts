import { InputError, InterruptedError } from '../../../core/errors.js';
import { checkingPass } from '../../../core/bulk/checking-pass.js';
import { readCsvRows, type CsvRow } from '../../../core/input/csv.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import type { InputSource } from '../../../core/input/sources.js';
import { CONTENT_COLUMN } from '../../../schemas/batches.js';
import { closestName } from '../../../schemas/issues.js';

// `csafe batch create`: the check of a batch CSV before any of it is sent, so a bad file costs no
// upload.

const SPINNER_EVERY_ROWS = 10_000;

/**
 * Checks a batch CSV before any of it is sent: a header row with a `Content` column (matched
 * exactly), every row as wide as the header, and no empty Content cell. Every bad row is printed
 * as `file:line: …` (the line the row starts on); any problem ends the command with an
 * InputError (exit 2) and nothing sent. Streamed: memory stays flat. Returns the data rows.
 */
export async function checkBatchCsv(source: InputSource, io: IOStreams, signal: AbortSignal): Promise<number> {
  let rows = 0;
  const hint = `every row needs as many fields as the header and a non-empty ${CONTENT_COLUMN}; fix the rows above`;
  await checkingPass(io, source.name, 'row', hint, async (pass) => {
    const csv = readCsvRows(source);
    const header = (await csv.next()).value as CsvRow | undefined;
    if (header === undefined) throw new InputError(`${source.name}: is empty, expected a header row with a ${CONTENT_COLUMN} column`);
    const content = contentColumn(source.name, header.fields);
    for await (const row of csv) {
      if (signal.aborted) throw new InterruptedError();
      if (++rows % SPINNER_EVERY_ROWS === 0) pass.progress(`row ${rows}`);
      const found = rowProblem(row.fields, header.fields.length, content);
      if (found !== undefined) pass.problem(row.line, found);
    }
  });
  if (rows === 0) throw new InputError(`${source.name}: has a header but no rows, expected at least one row to review`);
  return rows;
}

function rowProblem(fields: readonly string[], width: number, content: number): string | undefined {
  if (fields.length !== width) return `has ${fields.length} ${fields.length === 1 ? 'field' : 'fields'}, the header has ${width}`;
  if (fields[content]!.trim() === '') return `${CONTENT_COLUMN}: is empty, expected the text or URL to review`;
  return undefined;
}

/** The index of the one Content column, or an InputError: two of them, or none (listing the columns found and the likeliest one meant). */
function contentColumn(name: string, columns: readonly string[]): number {
  const index = columns.indexOf(CONTENT_COLUMN);
  const again = columns.indexOf(CONTENT_COLUMN, index + 1);
  // Only one column can be the content reviewed: the other's cells would never be reviewed.
  if (index >= 0 && again >= 0) {
    throw new InputError(`${name}:1: the header names "${CONTENT_COLUMN}" twice (columns ${index + 1} and ${again + 1}), expected one column holding the text or URL to review`, {
      hint: `rename or remove one of them: only one ${CONTENT_COLUMN} column is reviewed`,
    });
  }
  if (index >= 0) return index;
  const closest = closestName(CONTENT_COLUMN, columns);
  const found = columns.map((column) => JSON.stringify(column)).join(', ');
  throw new InputError(`${name}:1: no "${CONTENT_COLUMN}" column (matched exactly); the header has ${found}`, {
    hint: closest === undefined
      ? `add a ${CONTENT_COLUMN} column holding the text or URL to review`
      : `rename the column "${closest}" to "${CONTENT_COLUMN}": the name must match exactly, case included`,
  });
}
