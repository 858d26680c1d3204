import type { JsonRecord } from '../../../core/json/position.js';
import { eventProblems, type EventCheck } from '../../../schemas/events.js';
import { describeProblem } from '../../../schemas/issues.js';

/** One input record after checking: its position among all records (1-based), its line, and the event or why it is not one. */
export type CheckedRecord = ValidRecord | { position: number; line: number; original: unknown; problems: string[] };
export type ValidRecord = { position: number; line: number; event: Record<string, unknown> };

/**
 * Records checked against the event schemas, in input order, a chunk of input at a time (as
 * core/input/sources readRecordBatches gives them): each record is parsed once, and checked in a
 * synchronous loop.
 */
export async function* checkRecords(batches: AsyncIterable<readonly JsonRecord[]>, check: EventCheck): AsyncGenerator<CheckedRecord[]> {
  let position = 0;
  for await (const records of batches) {
    const checked: CheckedRecord[] = [];
    for (const record of records) checked.push(checkRecord(record, ++position, check));
    yield checked;
  }
}

function checkRecord(record: JsonRecord, position: number, check: EventCheck): CheckedRecord {
  if ('error' in record) return { position, line: record.line, original: record.text, problems: [record.error] };
  const problems = eventProblems(record.value, check);
  return problems.length === 0
    ? { position, line: record.line, event: record.value as Record<string, unknown> }
    : { position, line: record.line, original: record.value, problems: problems.map(describeProblem) };
}

/** `events.jsonl:12: target_user_id: is required: …`, one line per problem. */
export const problemLines = (inputName: string, record: { line: number; problems: string[] }) =>
  record.problems.map((problem) => `${inputName}:${record.line}: ${problem}`);

export const isUnknownTypeProblem = (problem: string) => problem.startsWith('type: unknown event type');
