import { partsFrameBytes } from '../../../api/streams.js';
import { checkRecords, checkValue, type CheckedRecord, type RecordCheck } from '../../../core/checked-records.js';
import { UsageError } from '../../../core/errors.js';
import { inputSource, readCaptionCues, readRecords, type InputSource } from '../../../core/readers.js';
import { rereadableInput } from '../../../core/spool.js';
import type { Context } from '../../../context.js';
import { describeProblem } from '../../../schemas/issues.js';
import { streamPartProblems } from '../../../schemas/streams.js';
import { captionParts } from './captions.js';
import { givesFlagPart, partFromFlags } from './flag-part.js';
import type { PartsOptions } from './options.js';

/** Where a run's parts come from, checked; `records()` reads them again from the start (the check, then the sending). */
export interface PartsInput {
  /** How messages name it: the file as given, `stdin`, `flags`. */
  name: string;
  records(): AsyncIterable<CheckedRecord>;
  /** Removes the copy of stdin or a pipe made to read it twice. */
  remove(): Promise<void>;
}

const PART_FLAGS = '--chat, --transcript, --frame or --audio';

/** A part as the service would take it, or every reason it would not: `url: expected …; timestamp: expected …`. */
export const partProblem = (value: unknown): string | undefined => {
  const problems = streamPartProblems(value);
  if (problems.length === 0) return undefined;
  return problems.map((problem) => (problem.path.length === 0 ? problem.message : describeProblem(problem))).join('; ');
};

export const partCheck = (options: Pick<PartsOptions, 'id' | 'maxBatchBytes'>): RecordCheck => ({
  noun: 'part',
  problemOf: partProblem,
  maxRequestBytes: options.maxBatchBytes,
  frameBytes: partsFrameBytes(options.id),
});

/** The one source the flags name: a FILE (or stdin), --captions, or one part by flags; anything else is a usage error. */
export async function partsInput(ctx: Context, file: string | undefined, options: PartsOptions): Promise<PartsInput> {
  refuseMixedSources(file, options);
  const check = partCheck(options);
  if (givesFlagPart(options)) {
    const part = partFromFlags(options, ctx.now());
    const records = async function* () {
      yield checkValue(1, part, check);
    };
    return { name: 'flags', records, remove: async () => undefined };
  }
  if (file === undefined && options.captions === undefined && ctx.io.stdinIsTTY) {
    throw new UsageError(`no parts: give a FILE (\`-\` reads stdin), --captions FILE, or one part by flags (${PART_FLAGS})`);
  }
  const start = options.start === undefined ? undefined : Date.parse(options.start);
  const read = (source: InputSource) =>
    start === undefined ? checkRecords(readRecords(source), check) : captionParts(readCaptionCues(source), start, check);
  const path = options.captions ?? file ?? '-';
  // Checked in full before anything is sent, so read twice: stdin or a pipe is kept in a temporary file.
  if (options.skipInvalid === undefined) {
    const input = await rereadableInput(path, ctx.io.stdin, ctx.signal);
    return { name: input.source.name, records: () => read(input.source), remove: input.remove };
  }
  const source = inputSource(path, ctx.io.stdin, ctx.signal);
  return { name: source.name, records: () => read(source), remove: async () => undefined };
}

function refuseMixedSources(file: string | undefined, options: PartsOptions): void {
  const sources = [
    ...(file !== undefined ? [file === '-' ? 'stdin (-)' : file] : []),
    ...(options.captions !== undefined ? ['--captions'] : []),
    ...(givesFlagPart(options) ? ['a part by flags'] : []),
  ];
  if (sources.length > 1) throw new UsageError(`${sources.join(' and ')} conflict: give parts one way, a FILE, --captions FILE or one part by flags`);
  if (options.start !== undefined && options.captions === undefined) throw new UsageError('--start goes with --captions FILE');
  if (options.captions !== undefined && options.start === undefined) {
    throw new UsageError("--captions needs --start DATE-TIME: the date-time the captions' 00:00 stands for, e.g. 2026-11-21T10:00:00Z");
  }
}
