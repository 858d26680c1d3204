import type { Context } from '../../../context.js';
import type { CheckedRecord } from '../../../core/bulk/checked-records.js';
import { RangeCheckpoint } from '../../../core/bulk/range-checkpoint.js';
import { UsageError } from '../../../core/errors.js';
import { inRanges, type Ranges } from '../../../core/files/position-ranges.js';
import type { PartsOptions } from './options.js';

// `stream parts --checkpoint`: its file, which numbers parts by their position in the input, and
// how a checkpoint of a csafe that numbered them by line is read.

/**
 * Version 2 numbers parts by position among the input's records. Version 1 numbered them by the
 * line they start on, which tells apart neither the parts of a JSON array on one line nor any two
 * that share a line: a line acknowledged once counted as wholly sent, and its other parts were lost.
 */
const VERSION = 2;

/** The input the checkpoint belongs to: its name and file (fingerprinted), and its records read again from the start. */
export interface CheckpointedInput {
  name: string;
  file?: string;
  records(): AsyncIterable<CheckedRecord>;
}

/** --checkpoint's file, if given; `readOnly` for a dry run, which checks it and skips what it covers but never writes it. */
export function openPartsCheckpoint(ctx: Context, namespace: string, input: CheckpointedInput, options: PartsOptions, readOnly: boolean): Promise<RangeCheckpoint | undefined> {
  if (options.checkpoint === undefined) return Promise.resolve(undefined);
  return RangeCheckpoint.open({
    path: options.checkpoint,
    inputPath: input.file!,
    inputName: input.name,
    what: 'a csafe stream parts checkpoint',
    identity: { namespace, stream: options.id },
    now: () => ctx.now(),
    readOnly,
    version: VERSION,
    upgrade: (lines, _version, hint) => positionsOfLines(lines, input, options.checkpoint!, hint),
  });
}

/**
 * A version 1 checkpoint's acknowledged lines as positions, read off the input: exact wherever
 * each line it holds starts one valid part (JSON Lines; an array of one part a line). A line it
 * holds that starts two or more cannot be told apart (some of them may never have been sent), so
 * the checkpoint is refused rather than resumed wrongly.
 */
async function positionsOfLines(lines: Ranges, input: CheckpointedInput, path: string, hint: string): Promise<Ranges> {
  const positions: Ranges = [];
  let position = 0;
  let lastLine: number | undefined;
  for await (const record of input.records()) {
    position++;
    if (!inRanges(lines, record.line)) continue;
    if ('json' in record) {
      if (record.line === lastLine) {
        throw new UsageError(`${path} was written by an older csafe, which kept parts by line, and line ${record.line} of ${input.name} starts more than one part: which of them were sent is not known`, {
          hint: `${hint} (the stream may then hold some parts of those lines twice)`,
        });
      }
      lastLine = record.line;
    }
    const last = positions.at(-1);
    if (last !== undefined && last[1] === position - 1) last[1] = position;
    else positions.push([position, position]);
  }
  return positions;
}
