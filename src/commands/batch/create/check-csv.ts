import { InputError, InterruptedError } from '../../../core/errors.js';
import { readCsvRows, type CsvRow } from '../../../core/csv.js';
import type { IOStreams } from '../../../core/io.js';
import type { InputSource } from '../../../core/readers.js';
import { startSpinner } from '../../../core/spinner.js';
import { CONTENT_COLUMN } from '../../../schemas/batches.js';

/** Problems printed before the rest are only counted: a file that is wrong throughout must not flood the terminal. */
const SHOWN_PROBLEMS = 20;
const SPINNER_EVERY_ROWS = 10_000;

/**
 * Checks a batch CSV before any of it is sent: a header row with a `Content` column (matched
 * exactly), every row as wide as the header, and no empty Content cell. Every bad row is printed
 * as `file:line: …` (the line the row starts on); any problem ends the command with an
 * InputError (exit 2) and nothing sent. Streamed: memory stays flat. Returns the data rows.
 */
export async function checkBatchCsv(source: InputSource, io: IOStreams, signal: AbortSignal): Promise<number> {
  let invalid = 0;
  let rows = 0;
  // Printed once the spinner has stopped: a line written under it would be torn by its redraws.
  const shown: string[] = [];
  const problem = (line: number, text: string) => {
    if (++invalid <= SHOWN_PROBLEMS) shown.push(`${source.name}:${line}: ${text}`);
  };
  const spinner = await startSpinner(io, `Checking ${source.name}…`);
  try {
    const csv = readCsvRows(source);
    const header = (await csv.next()).value as CsvRow | undefined;
    if (header === undefined) throw new InputError(`${source.name}: is empty, expected a header row with a ${CONTENT_COLUMN} column`);
    const content = contentColumn(source.name, header.fields);
    for await (const row of csv) {
      if (signal.aborted) throw new InterruptedError();
      if (++rows % SPINNER_EVERY_ROWS === 0) spinner.update(`Checking ${source.name}: row ${rows}`);
      const found = rowProblem(row.fields, header.fields.length, content);
      if (found !== undefined) problem(row.line, found);
    }
  } finally {
    spinner.stop();
    for (const line of shown) io.warn(line);
  }
  if (invalid > SHOWN_PROBLEMS) io.warn(`… and ${invalid - SHOWN_PROBLEMS} more invalid rows`);
  if (invalid > 0) {
    throw new InputError(`${source.name}: ${invalid} invalid ${invalid === 1 ? 'row' : 'rows'}; nothing was sent`, {
      hint: `every row needs as many fields as the header and a non-empty ${CONTENT_COLUMN}; fix the rows above`,
    });
  }
  if (rows === 0) throw new InputError(`${source.name}: has a header but no rows, expected at least one row to review`);
  return rows;
}

function rowProblem(fields: readonly string[], width: number, content: number): string | undefined {
  if (fields.length !== width) return `has ${fields.length} ${fields.length === 1 ? 'field' : 'fields'}, the header has ${width}`;
  if (fields[content]!.trim() === '') return `${CONTENT_COLUMN}: is empty, expected the text or URL to review`;
  return undefined;
}

/** The index of the Content column, or an InputError listing the columns found and the likeliest one meant. */
function contentColumn(name: string, columns: readonly string[]): number {
  const index = columns.indexOf(CONTENT_COLUMN);
  if (index >= 0) return index;
  const closest = closestName(CONTENT_COLUMN, columns);
  const found = columns.map((column) => JSON.stringify(column)).join(', ');
  throw new InputError(`${name}:1: no "${CONTENT_COLUMN}" column (matched exactly); the header has ${found}`, {
    hint: closest === undefined
      ? `add a ${CONTENT_COLUMN} column holding the text or URL to review`
      : `did you mean "${closest}"? Rename it to ${CONTENT_COLUMN}`,
  });
}

/** The column most like `wanted`: equal but for case and spaces first, else within a small edit distance. */
export function closestName(wanted: string, names: readonly string[]): string | undefined {
  const plain = (text: string) => text.trim().toLowerCase();
  const alike = names.find((name) => plain(name) === plain(wanted));
  if (alike !== undefined) return alike;
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(plain(name), plain(wanted));
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
