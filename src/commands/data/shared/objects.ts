import type { JsonRecord } from '../../../core/json-position.js';
import { dataObjectProblem } from '../../../schemas/data.js';

/** An input record after checking: the object as it will be sent, or the record's text and why it cannot be. */
export type CheckedObject =
  | { line: number; json: string; bytes: number }
  | { line: number; text: string; problem: string };

export type SendableObject = Extract<CheckedObject, { json: string }>;

/**
 * A request body is `{"data":[` + the objects joined by commas + `]}`. Counting each object as
 * its bytes plus one comma, what is left of a request's byte cap for its objects is the cap less
 * this frame (the 11 bytes around them, less the comma the last object does not have).
 */
export const BODY_FRAME_BYTES = 10;

/** Every record checked against the data object schema and the per-request byte cap, in input order. */
export async function* checkObjects(records: AsyncIterable<JsonRecord>, maxRequestBytes: number): AsyncGenerator<CheckedObject> {
  for await (const record of records) {
    yield 'error' in record ? { line: record.line, text: record.text, problem: record.error } : checkObject(record.line, record.value, maxRequestBytes);
  }
}

function checkObject(line: number, value: unknown, maxRequestBytes: number): CheckedObject {
  const json = JSON.stringify(value);
  const problem = dataObjectProblem(value);
  if (problem !== undefined) return { line, text: json, problem };
  const bytes = Buffer.byteLength(json) + 1;
  if (bytes + BODY_FRAME_BYTES > maxRequestBytes) {
    return { line, text: json, problem: `the object alone makes a request of ${bytes + BODY_FRAME_BYTES} bytes, over the cap of ${maxRequestBytes} (--max-batch-bytes)` };
  }
  return { line, json, bytes };
}

/** `items.jsonl:3: id: expected a non-empty string id` */
export const problemLine = (inputName: string, object: { line: number; problem: string }) => `${inputName}:${object.line}: ${object.problem}`;
