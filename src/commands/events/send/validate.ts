import type { IOStreams } from '../../../core/io.js';
import { readRecords, type InputSource } from '../../../core/readers.js';
import type { EventCheck } from '../../../schemas/events.js';
import { checkRecords, isUnknownTypeProblem, problemLines } from './checked.js';
import type { Tally } from './summary.js';

/** Checks every record before anything is sent, printing each problem with file:line and field. */
export async function validateInput(source: InputSource, check: EventCheck, io: IOStreams, tally: Tally): Promise<void> {
  let unknownTypes = false;
  for await (const record of checkRecords(readRecords(source), check)) {
    tally.read++;
    if ('event' in record) {
      tally.valid++;
      continue;
    }
    tally.invalid++;
    unknownTypes ||= record.problems.some(isUnknownTypeProblem);
    for (const line of problemLines(source.name, record)) io.warn(line);
  }
  if (unknownTypes) io.warn('hint: the spec says an eighth event type exists; pass --allow-unknown-types to send types it does not show unchecked');
}
