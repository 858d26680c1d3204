import type { Readable } from 'node:stream';
import { readCsvRows } from '../../../core/input/csv.js';
import { InputError, UnexpectedResponseError } from '../../../core/errors.js';
import { jsonValuesText } from '../../../core/terminal/output.js';
import { setOwnField } from '../../../core/json/own-field.js';

/**
 * A result CSV as JSON, row by row: one object per row keyed by the header's names (`Content`,
 * `Status`, `Service result`, `Expected result`, `Labels`, then the caller's own columns), in the
 * header's order, a line each (NDJSON) or the elements of one array (JSON). A row shorter than
 * the header lacks the missing keys.
 */
export async function* resultRowsAsJson(body: Readable, format: 'json' | 'ndjson'): AsyncGenerator<string> {
  try {
    yield* rowObjects(body, jsonValuesText(format));
  } catch (error) {
    // The file came from the service: a CSV it cannot read is its fault, not the user's input.
    throw error instanceof InputError ? new UnexpectedResponseError(error.message) : error;
  }
}

/** Lines are handed on in chunks of about this size: one write per row would cost more than the conversion. */
const CHUNK_CHARS = 65536;

async function* rowObjects(body: Readable, text: ReturnType<typeof jsonValuesText>): AsyncGenerator<string> {
  let header: string[] | undefined;
  let chunk = '';
  for await (const { fields } of readCsvRows({ name: 'the result CSV', open: () => body })) {
    if (header === undefined) {
      header = fields;
      continue;
    }
    const row: Record<string, string> = {};
    fields.forEach((field, i) => setOwnField(row, header![i] ?? `column ${i + 1}`, field));
    chunk += text.value(row);
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  chunk += text.end();
  if (chunk !== '') yield chunk;
}
