import type { Readable } from 'node:stream';
import { readCsvRows } from '../../../core/input/csv.js';
import { InputError, UnexpectedResponseError } from '../../../core/errors.js';
import { jsonValuesChunks } from '../../../core/terminal/output.js';
import { setOwnField } from '../../../core/json/own-field.js';

/**
 * A result CSV as JSON, row by row: one object per row keyed by the header's names (`Content`,
 * `Status`, `Service result`, `Expected result`, `Labels`, then the caller's own columns), in the
 * header's order, a line each (NDJSON) or the elements of one array (JSON). A row shorter than
 * the header lacks the missing keys.
 */
export async function* resultRowsAsJson(body: Readable, format: 'json' | 'ndjson'): AsyncGenerator<string> {
  try {
    yield* jsonValuesChunks(rowObjects(body), format);
  } catch (error) {
    // The file came from the service: a CSV it cannot read is its fault, not the user's input.
    throw error instanceof InputError ? new UnexpectedResponseError(error.message) : error;
  }
}

async function* rowObjects(body: Readable): AsyncGenerator<Record<string, string>> {
  let header: string[] | undefined;
  for await (const { fields } of readCsvRows({ name: 'the result CSV', open: () => body })) {
    if (header === undefined) {
      header = distinctKeys(fields);
      continue;
    }
    const row: Record<string, string> = {};
    fields.forEach((field, i) => setOwnField(row, header![i] ?? `column ${i + 1}`, field));
    yield row;
  }
}

/** The header's names as keys, each name repeated keyed by its column so no cell hides another. */
function distinctKeys(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name, i) => {
    const key = seen.has(name) ? `${name} (column ${i + 1})` : name;
    seen.add(key);
    return key;
  });
}
