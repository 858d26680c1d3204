import { fstatSync } from 'node:fs';
import { partsFrameBytes } from '../../../api/streams.js';
import { checkRecords, checkValue, type CheckedRecord, type RecordCheck } from '../../../core/bulk/checked-records.js';
import { UsageError } from '../../../core/errors.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import { endsAtHand, inputSource, openFileStream, readCaptionCues, readRecords, type InputSource } from '../../../core/input/sources.js';
import { rereadableInput } from '../../../core/input/spool.js';
import type { Context } from '../../../context.js';
import { describeProblem } from '../../../schemas/issues.js';
import { streamPartProblems } from '../../../schemas/streams.js';
import { captionParts } from './captions.js';
import { flagPartFlags, givesFlagPart, partFromFlags } from './flag-part.js';
import type { PartsOptions } from './options.js';

/** Where a run's parts come from, checked; `records()` reads them again from the start (the check, then the sending). */
export interface PartsInput {
  /** How messages name it: the file as given, `stdin`, `flags`. */
  name: string;
  /**
   * `toTheEnd`: read on after Ctrl-C, so the parts a run did not send can all go to its failed
   * file. Only a regular file (the one given, on stdin, or the copy of a pipe) is; a pipe read once stops.
   */
  records(toTheEnd?: boolean): AsyncIterable<CheckedRecord>;
  /** Removes the copy of stdin or a pipe made to read it twice. */
  remove(): Promise<void>;
  /** Whether `records(true)` reads on to the end after Ctrl-C (a regular file, or nothing to read); a pipe read once stops there. */
  readsOnAfterSignal: boolean;
  /** The regular file that holds the input (the one given, or the copy of a pipe), which a checkpoint fingerprints; none for a part by flags. */
  file?: string;
}

const PART_FLAGS = '--chat, --transcript, --frame or --audio';

/** A part as the service would take it, or every reason it would not: `url: expected …; timestamp: expected …`. */
const partProblem = (value: unknown): string | undefined => {
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

/**
 * The one source the flags name: a FILE (or stdin), --captions, or one part by flags; anything
 * else is a usage error, found before anything is read. `open()` then reads it (see PartsInput).
 */
export function choosePartsInput(ctx: Context, file: string | undefined, options: PartsOptions): { open(): Promise<PartsInput> } {
  refuseMixedSources(file, options);
  const check = partCheck(options);
  if (givesFlagPart(options)) {
    const part = partFromFlags(options, ctx.now());
    const records = async function* () {
      yield checkValue(1, part, check);
    };
    return { open: async () => ({ name: 'flags', records, remove: async () => undefined, readsOnAfterSignal: true }) };
  }
  if (file === undefined && options.captions === undefined && stdinHoldsNoParts(ctx.io)) {
    throw new UsageError(`no parts: give a FILE (\`-\` reads stdin), --captions FILE, or one part by flags (${PART_FLAGS})`);
  }
  const start = options.start === undefined ? undefined : Date.parse(options.start);
  const read = (source: InputSource) =>
    start === undefined ? checkRecords(readRecords(source), check) : captionParts(readCaptionCues(source), start, check);
  const path = options.captions ?? file ?? '-';
  return {
    async open() {
      // Fingerprinted for the checkpoint: stdin or a pipe is kept in a temporary file.
      if (options.checkpoint !== undefined) {
        const input = await rereadableInput(path, ctx.io, ctx.signal);
        const whole: InputSource = { name: input.source.name, open: () => openFileStream(input.path) };
        return { name: input.source.name, records: (toTheEnd) => read(toTheEnd ? whole : input.source), remove: input.remove, file: input.path, readsOnAfterSignal: true };
      }
      const source = inputSource(path, ctx.io.stdin, ctx.signal);
      // Read on after Ctrl-C only where the input has an end at hand: a pipe's writer may keep it open for ever.
      const whole = endsAtHand(path, ctx.io.stdin) ? inputSource(path, ctx.io.stdin) : source;
      return { name: source.name, records: (toTheEnd) => read(toTheEnd ? whole : source), remove: async () => undefined, readsOnAfterSignal: whole !== source };
    },
  };
}

/** A terminal, or a device such as /dev/null: no one is piping parts in, so the user forgot to say where they are. */
function stdinHoldsNoParts(io: IOStreams): boolean {
  if (io.stdinIsTTY) return true;
  if ((io.stdin as { fd?: unknown }).fd !== 0) return false;
  return fstatSync(0).isCharacterDevice();
}

function refuseMixedSources(file: string | undefined, options: PartsOptions): void {
  const flags = flagPartFlags(options);
  if (flags.length > 0 && (file !== undefined || options.captions !== undefined)) {
    const named = flags.length === 1 ? `${flags[0]} belongs` : `${flags.slice(0, -1).join(', ')} and ${flags.at(-1)} belong`;
    throw new UsageError(`${named} to a part by flags; ${flags.length === 1 ? 'it' : 'they'} cannot be given with ${options.captions !== undefined ? '--captions' : 'a FILE'}`);
  }
  if (file !== undefined && options.captions !== undefined) {
    throw new UsageError(`${file === '-' ? 'stdin (-)' : file} and --captions conflict: give parts one way, a FILE, --captions FILE or one part by flags`);
  }
  if (options.start !== undefined && options.captions === undefined) throw new UsageError('--start goes with --captions FILE');
  if (options.checkpoint !== undefined && flags.length > 0) throw new UsageError('--checkpoint goes with a FILE or --captions FILE, not with a part by flags');
  if (options.captions !== undefined && options.start === undefined) {
    throw new UsageError("--captions needs --start DATE-TIME: the date-time the captions' 00:00 stands for, e.g. 2026-11-21T10:00:00Z");
  }
}
