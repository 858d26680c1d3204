import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { captionParts } from '../../../src/commands/stream/parts/captions.js';
import { partCheck } from '../../../src/commands/stream/parts/input.js';
import type { CaptionRecord } from '../../../src/core/input/captions.js';

const collect = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

async function* cues(records: CaptionRecord[]) {
  yield* records;
}

const START = Date.parse('2026-11-21T10:00:00+01:00');
const check = partCheck({ id: 'talk', maxBatchBytes: 1_000_000 });

describe('stream parts --captions: cues to transcript parts', () => {
  it('stamps each part --start plus the cue\'s start, in UTC with milliseconds, with the cue\'s speaker', async () => {
    const parts = await collect(captionParts(cues([
      { line: 3, startMs: 1_000, endMs: 2_000, text: 'Welcome back', speaker: 'Ann' },
      { line: 7, startMs: 3_723_004, endMs: 3_724_000, text: 'two\nlines' },
    ]), START, check));
    assert.deepEqual(parts.map((part) => ('json' in part ? { line: part.line, part: JSON.parse(part.json) } : part)), [
      { line: 3, part: { type: 'transcript', text: 'Welcome back', timestamp: '2026-11-21T09:00:01.000Z', speaker: 'Ann' } },
      { line: 7, part: { type: 'transcript', text: 'two\nlines', timestamp: '2026-11-21T10:02:03.004Z' } },
    ]);
  });

  it('passes a malformed cue on as an invalid record at its line, its text the cue as in the file', async () => {
    const malformed = { line: 12, problem: 'expected a timing line like 00:00:01.000 --> 00:00:04.000', raw: '00:01 --> 00:02\nhi' };
    const parts = await collect(captionParts(cues([malformed]), START, check));
    assert.deepEqual(parts, [{ line: 12, text: '00:01 --> 00:02\nhi', problem: 'expected a timing line like 00:00:01.000 --> 00:00:04.000' }]);
  });

  it('makes a cue whose time, --start plus its start, is past the last date there is a cue problem, not a crash', async () => {
    const last = 8.64e15;
    const parts = await collect(captionParts(cues([
      { line: 3, startMs: 0, endMs: 1, text: 'the last moment' },
      { line: 6, startMs: 1, endMs: 2, text: 'one ms too late' },
    ]), last, check));
    assert.deepEqual(parts.map((part) => ({ line: part.line, problem: 'problem' in part ? part.problem : undefined })), [
      { line: 3, problem: 'timestamp: expected an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z' },
      { line: 6, problem: "--start plus the cue's start is past +275760-09-13T00:00:00.000Z, the last date there is" },
    ]);
  });
});
