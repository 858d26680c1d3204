import type { CaptionRecord } from '../../../core/input/captions.js';
import { checkValue, type CheckedRecord, type RecordCheck } from '../../../core/bulk/checked-records.js';

// `csafe stream parts --captions`: turns caption cues into transcript parts.

const LAST_DATE = new Date(8.64e15).toISOString();

/**
 * One transcript part per cue, in file order, stamped `start` plus the cue's start offset (ISO,
 * with milliseconds), with the speaker of the cue's voice tag. A malformed cue is an invalid
 * record at its line, reported and set aside (its lines as in the file) like any other.
 */
export async function* captionParts(cues: AsyncIterable<CaptionRecord>, startMs: number, check: RecordCheck): AsyncGenerator<CheckedRecord> {
  for await (const cue of cues) {
    if ('problem' in cue) {
      yield { line: cue.line, text: cue.raw, problem: cue.problem };
      continue;
    }
    const time = new Date(startMs + cue.startMs);
    if (Number.isNaN(time.getTime())) {
      yield { line: cue.line, text: '', problem: `--start plus the cue's start is past ${LAST_DATE}, the last date there is` };
      continue;
    }
    const timestamp = time.toISOString();
    yield checkValue(cue.line, { type: 'transcript', text: cue.text, timestamp, ...(cue.speaker !== undefined && { speaker: cue.speaker }) }, check);
  }
}
