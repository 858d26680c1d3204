import type { Readable } from 'node:stream';
import { readCsvRows } from '../../../core/input/csv.js';
import { InputError, UnexpectedResponseError } from '../../../core/errors.js';
import { toNdjsonLine } from '../../../core/terminal/output.js';
import { setOwnField } from '../../../core/json/own-field.js';

/**
 * A result CSV as NDJSON, row by row: one object per row keyed by the header's names
 * (`Content`, `Status`, `Service result`, `Expected result`, `Labels`, then the caller's own
 * columns), in the header's order. A row shorter than the header lacks the missing keys.
 */
export async function* resultRowsAsNdjson(body: Readable): AsyncGenerator<string> {
  try {
    yield* rowObjects(body);
  } catch (error) {
    // The file came from the service: a CSV it cannot read is its fault, not the user's input.
    throw error instanceof InputError ? new UnexpectedResponseError(error.message) : error;
  }
}

/** Lines are handed on in chunks of about this size: one write per row would cost more than the conversion. */
const CHUNK_CHARS = 65536;

async function* rowObjects(body: Readable): AsyncGenerator<string> {
  let header: string[] | undefined;
  let chunk = '';
  for await (const { fields } of readCsvRows({ name: 'the result CSV', open: () => body })) {
    if (header === undefined) {
      header = fields;
      continue;
    }
    const row: Record<string, string> = {};
    fields.forEach((field, i) => setOwnField(row, header![i] ?? `column ${i + 1}`, field));
    chunk += toNdjsonLine(row);
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}
