import type { SkipFile } from '../../../core/bulk/checked-records.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import { readRecordBatches, type InputSource } from '../../../core/input/sources.js';
import type { EventCheck } from '../../../schemas/events.js';
import { checkRecords, isUnknownTypeProblem, problemLines } from './checked.js';
import type { EventPreparer, OutgoingEvent } from './outgoing.js';
import type { BulkCounts } from '../../../core/bulk/counts.js';

// `csafe events send`: reads and checks each record, reporting every problem, and yields the valid
// events to send.

export interface CheckingRun {
  io: IOStreams;
  /** Counts read, valid and invalid. */
  tally: BulkCounts;
  /** Makes each valid event ready to send. */
  preparer: EventPreparer;
  /** --skip-invalid: each invalid record is appended here and the rest still sent; without it one invalid record means nothing is sent. */
  setAside?: SkipFile;
}

/**
 * Reads and checks every record once, printing each problem with file:line and field, and gives
 * the valid events ready to send, a chunk of input at a time. Without --skip-invalid, none is
 * prepared after the first invalid record: nothing will be sent, so only the problems are left to find.
 */
export async function* checkedEvents(source: InputSource, check: EventCheck, run: CheckingRun): AsyncGenerator<OutgoingEvent[]> {
  const { io, tally, preparer, setAside } = run;
  let unknownTypes = false;
  for await (const records of checkRecords(readRecordBatches(source), check)) {
    const ready: OutgoingEvent[] = [];
    for (const record of records) {
      tally.read++;
      if ('event' in record) {
        tally.valid++;
        const event = tally.invalid === 0 || setAside !== undefined ? preparer.prepare(record) : undefined;
        if (event !== undefined) ready.push(event);
        continue;
      }
      const report = () => {
        for (const line of problemLines(source.name, record)) io.warn(line);
      };
      if (setAside === undefined) {
        tally.invalid++;
        unknownTypes ||= record.problems.some(isUnknownTypeProblem);
        report();
      } else {
        const text = typeof record.original === 'string' ? record.original : JSON.stringify(record.original);
        await setAside.setAside({ line: record.line, position: record.position, problem: record.problems.join('; '), text }, tally, report);
      }
    }
    if (ready.length > 0) yield ready;
  }
  if (unknownTypes && setAside === undefined) io.warn('hint: the spec says an eighth event type exists; pass --allow-unknown-types to send types it does not show unchecked');
}
