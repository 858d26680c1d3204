import type { JsonRecord } from '../../../core/json-position.js';
import { eventProblems, type EventCheck } from '../../../schemas/events.js';
import { describeProblem } from '../../../schemas/issues.js';

/** One input record after checking: its position among all records (1-based), its line, and the event or why it is not one. */
export type CheckedRecord =
  | { position: number; line: number; event: Record<string, unknown> }
  | { position: number; line: number; original: unknown; problems: string[] };

/** Records checked against the event schemas, in input order; stops after `limit` records when given. */
export async function* checkRecords(records: AsyncIterable<JsonRecord>, check: EventCheck, limit = Infinity): AsyncGenerator<CheckedRecord> {
  let position = 0;
  for await (const record of records) {
    if (++position > limit) return;
    if ('error' in record) {
      yield { position, line: record.line, original: record.text, problems: [record.error] };
      continue;
    }
    const problems = eventProblems(record.value, check);
    yield problems.length === 0
      ? { position, line: record.line, event: record.value as Record<string, unknown> }
      : { position, line: record.line, original: record.value, problems: problems.map(describeProblem) };
  }
}

/** `events.jsonl:12: target_user_id: is required: …`, one line per problem. */
export const problemLines = (inputName: string, record: { line: number; problems: string[] }) =>
  record.problems.map((problem) => `${inputName}:${record.line}: ${problem}`);

export const isUnknownTypeProblem = (problem: string) => problem.startsWith('type: unknown event type');
