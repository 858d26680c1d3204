import type { Context } from '../../../context.js';
import { nothingSentLine, numbered, problemLine, SkipFile, validRecords, type CheckedRecord, type Numbered, type SendableRecord } from '../../../core/bulk/checked-records.js';
import { spoolRecords, type SpoolFormat } from '../../../core/bulk/record-spool.js';
import { MAX_LINE_BYTES } from '../../../core/input/lines.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import { stopsTheRun, UsageError } from '../../../core/errors.js';
import { bulkRun, type Delivered, type LeftAtOnce } from '../../../core/bulk/engine.js';
import { haltLine } from '../../../core/bulk/fail-fast.js';
import type { FailedFile } from '../../../core/files/failed-file.js';
import type { HttpClient } from '../../../core/http/client.js';
import { parseOptions } from '../../../core/cli/options.js';
import { refuseSharedFiles } from '../../../core/files/distinct-files.js';
import { countOf } from '../../../core/terminal/words.js';
import { csafeCommandLine, withPositional } from '../../../core/cli/command-line.js';
import { inputCutShortNote, interruptedRun, noResumeAfterLeaving, reportedIfInterrupted, reportInterruption, reportNoResume, resendCommandLine, STILL_READING } from '../../../core/cli/resume.js';
import { unacknowledged } from '../../../core/bulk/range-checkpoint.js';
import { interruptionOf } from '../../../core/signals.js';
import { startSpinner } from '../../../core/terminal/spinner.js';
import { positional, type Outcome } from '../../app.js';
import { parseNamespace } from '../../namespace.js';
import { oneByOne } from '../../../core/bulk/lanes.js';
import { deliverParts, emptyPartsTally, partsBatchLimits, partsFailureFiles, partsOutcome, partsSender, type PartsTally } from './deliver.js';
import { planBatches } from '../../../core/bulk/dry-run.js';
import type { DryRunPlan } from '../../../core/http/dry-run.js';
import { followParts } from './follow.js';
import { choosePartsInput, type PartsInput } from './input.js';
import { openPartsCheckpoint, type CheckpointedInput } from './checkpoint.js';
import { partsOptionsSchema, type PartsFlags, type PartsOptions } from './options.js';
import { printInterruptedSummary, printSummary } from './summary.js';
import type { Action } from '../../app.js';
import { flagsWithValue, longFlag } from '../../../core/cli/flags.js';

// `csafe stream parts`: appends parts to a stream from a file, caption cues or flags.

export async function streamPartsRun(ctx: Context, namespace: string, file: string | undefined, options: PartsOptions, flags: PartsFlags): Promise<Outcome> {
  refuseSharedFiles(options.captions ?? file, options);
  if (options.follow && ctx.dryRun) throw new UsageError('--dry-run reads the input to its end, and --follow never ends: leave out one of them');
  if (options.follow) return followParts(ctx, namespace, file, options);
  const started = ctx.now();
  const source = choosePartsInput(ctx, file, options);
  // The key before the input is read: a run that cannot send says so first, and alone.
  const http = await ctx.http();
  const tally = emptyPartsTally();
  // Cut short while the input is copied or checked: nothing was sent, and the run says so as one cut short while sending does (a dry run's stdout holds its plan or nothing).
  const interruptedBeforeSending = async () => {
    if (ctx.dryRun) return;
    const files = partsFailureFiles(options, ctx.now());
    reportInterruption(ctx.io, `${interruptedRun(tally, 'part', files.failed.path)}${STILL_READING}`, csafeCommandLine(ctx.argv));
    await printInterruptedSummary(ctx, { namespace, id: options.id, tally, ...files, durationMs: ctx.now() - started, checkpoint: options.checkpoint !== undefined });
  };
  // Left at once: with a checkpoint the same command line continues the run, without one the failed file, when it holds every part not done.
  const leftAtOnce = (left: LeftAtOnce, files: { failed: FailedFile; unconfirmed: FailedFile }) => {
    const why = noResumeAfterLeaving(left, 'part', options.checkpoint !== undefined);
    if (why === undefined) reportResume(ctx, { namespace, id: options.id, tally, ...files, checkpoint: options.checkpoint !== undefined, inputCutShort: !input.readsOnAfterSignal && options.skipInvalid !== undefined }, flags);
    else reportNoResume(ctx.io, interruptedRun(tally, 'part', files.failed.path), why);
  };
  const input = await reportedIfInterrupted(source.open(), ctx.signal, interruptedBeforeSending);
  try {
    const sent = await withPartsToSend(ctx, input, options, tally, interruptedBeforeSending, (parts, invalid) =>
      ctx.dryRun
        ? planParts(ctx, ctx.dryRun, namespace, { name: input.name, file: input.file, records: () => input.records(), parts, tally, invalid, interruptedBeforeSending, leftAtOnce }, options)
        : sendParts(ctx, http, namespace, { name: input.name, file: input.file, records: () => input.records(), parts, tally, invalid, interruptedBeforeSending, leftAtOnce }, options));
    if (sent === undefined) {
      ctx.io.warn(nothingSentLine(tally.invalid, 'invalid part', ctx.dryRun !== undefined));
      return { kind: 'checked', invalid: tally.invalid };
    }
    const { files, invalid, stoppedBy } = sent;
    if (ctx.signal.aborted) {
      reportResume(ctx, { namespace, id: options.id, tally, ...files, checkpoint: options.checkpoint !== undefined, inputCutShort: !input.readsOnAfterSignal && options.skipInvalid !== undefined }, flags);
      await printInterruptedSummary(ctx, { namespace, id: options.id, tally, ...files, invalid, durationMs: ctx.now() - started, checkpoint: options.checkpoint !== undefined });
      throw interruptionOf(ctx.signal, tally.sent);
    }
    await printSummary(ctx, { namespace, id: options.id, tally, ...files, invalid, durationMs: ctx.now() - started, checkpoint: options.checkpoint !== undefined });
    if (stoppedBy) ctx.io.warn(haltLine(stoppedBy, files.failed.path));
    return partsOutcome(tally, { setAside: invalid, stoppedBy });
  } finally {
    await input.remove();
  }
}

/**
 * Calls `send` with the parts to send. Without --skip-invalid every part is checked first, and
 * the valid ones kept in a spool (core/bulk/record-spool) as they will be sent: one invalid part
 * and nothing is sent (undefined). With it, parts go as they are read, invalid ones to its file.
 */
async function withPartsToSend<T>(
  ctx: Context,
  input: PartsInput,
  options: PartsOptions,
  tally: PartsTally,
  interruptedBeforeSending: () => Promise<void>,
  send: (parts: AsyncIterable<readonly Numbered<SendableRecord>[]>, invalid: SkipFile | undefined) => Promise<T>,
): Promise<T | undefined> {
  if (options.skipInvalid !== undefined && ctx.dryRun === undefined) {
    const invalid = new SkipFile(options.skipInvalid);
    try {
      // With a checkpoint, reading stops at Ctrl-C: the parts not read are the same command's to send.
      return await send(oneByOne(validRecords(numbered(input.records(options.checkpoint === undefined)), input.name, ctx.io, invalid, tally)), invalid);
    } finally {
      await invalid.close();
    }
  }
  const spool = await reportedIfInterrupted(spoolRecords(checkedParts(numbered(input.records()), input.name, ctx.io, tally), PART_SPOOL, ctx.signal), ctx.signal, interruptedBeforeSending);
  try {
    // Interrupted as the check ended: nothing was sent, and nothing is.
    if (ctx.signal.aborted) {
      await interruptedBeforeSending();
      throw interruptionOf(ctx.signal);
    }
    return tally.invalid > 0 ? undefined : await send(spool.records(), undefined);
  } finally {
    await spool.remove();
  }
}

/** The check before anything is sent: every problem reported and counted; the valid parts, until the first invalid one. */
async function* checkedParts(records: AsyncIterable<Numbered<CheckedRecord>>, inputName: string, io: IOStreams, tally: PartsTally): AsyncGenerator<[Numbered<SendableRecord>]> {
  for await (const record of records) {
    if ('json' in record) {
      tally.valid++;
      if (tally.invalid === 0) yield [record];
    } else {
      tally.invalid++;
      io.warn(problemLine(inputName, record));
    }
  }
}

/** A part as the spool keeps it: `position TAB line TAB bytes TAB json`. */
const PART_SPOOL: SpoolFormat<Numbered<SendableRecord>> = {
  encode: (part) => `${part.position}\t${part.line}\t${part.bytes}\t${part.json}`,
  decode(text) {
    const positionEnd = text.indexOf('\t');
    const lineEnd = text.indexOf('\t', positionEnd + 1);
    const bytesEnd = text.indexOf('\t', lineEnd + 1);
    return { position: Number(text.slice(0, positionEnd)), line: Number(text.slice(positionEnd + 1, lineEnd)), bytes: Number(text.slice(lineEnd + 1, bytesEnd)), json: text.slice(bytesEnd + 1) };
  },
  // A part read from a line of at most MAX_LINE_BYTES, as compact JSON: at most 6 bytes for each character it was read from (core/bulk/checked-records).
  maxLineBytes: 8 * MAX_LINE_BYTES,
  weight: (part) => part.json.length,
};

/** The input (which a checkpoint fingerprints, and reads again to upgrade an older one), its parts to send, their counts, and the --skip-invalid file. */
interface PartsToSend extends CheckpointedInput {
  parts: AsyncIterable<readonly Numbered<SendableRecord>[]>;
  tally: PartsTally;
  invalid: SkipFile | undefined;
  /** Says what a run cut short before its first part went did (nothing sent), and the command that continues it. */
  interruptedBeforeSending(): Promise<void>;
  /** Says, as csafe leaves at once (a second Ctrl-C), what the run did and the command that continues it. */
  leftAtOnce(left: LeftAtOnce, files: { failed: FailedFile; unconfirmed: FailedFile }): void;
}

/** --dry-run: the parts' batches, the first recorded by the HTTP core in place of sending. */
async function planParts(ctx: Context, plan: DryRunPlan, namespace: string, input: PartsToSend, options: PartsOptions): Promise<never> {
  const checkpoint = await openPartsCheckpoint(ctx, namespace, input, options, true);
  const parts = unacknowledged(input.parts, checkpoint && ((part) => checkpoint.isAcknowledged(part.position)), input.tally);
  return planBatches(plan, parts, partsBatchLimits(options, options.id), 'part', partsSender(await ctx.http(), namespace, options.id));
}

async function sendParts(ctx: Context, http: HttpClient, namespace: string, input: PartsToSend, options: PartsOptions) {
  const files = partsFailureFiles(options, ctx.now());
  const { tally, invalid } = input;
  // An older checkpoint is upgraded by reading the input again, which Ctrl-C or SIGTERM can cut short as any read before the first part goes.
  const checkpoint = await reportedIfInterrupted(openPartsCheckpoint(ctx, namespace, input, options, false), ctx.signal, input.interruptedBeforeSending);
  invalid?.keepIn(checkpoint);
  const progress = await startSpinner(ctx.io, 'Sending parts…');
  let delivered: Delivered | undefined;
  try {
    const onProgress = () => progress.update(`Sending parts: ${tally.sent} sent, ${tally.failed} failed, ${tally.unconfirmed} unconfirmed`);
    const run = bulkRun(ctx, http, options, { counts: tally, ...files, checkpoint, onProgress, leftAtOnce: (left) => input.leftAtOnce(left, files) });
    const parts = unacknowledged(input.parts, checkpoint && ((part) => checkpoint.isAcknowledged(part.position)), tally);
    delivered = await deliverParts(parts, { run, checkpoint, http, namespace, id: options.id, inputName: input.name, options, tally });
  } catch (error) {
    if (stopsTheRun(error)) {
      ctx.io.warn(`stopped after ${countOf(tally.sent, 'part')} ${tally.sent === 1 ? 'was' : 'were'} sent in ${countOf(tally.requests, 'request')}: later parts were not sent`);
    }
    throw error;
  } finally {
    progress.stop();
    await files.failed.close();
    await files.unconfirmed.close();
    // When the run stopped, the error that stopped it is the one to report.
    await (delivered !== undefined ? checkpoint?.close() : checkpoint?.close().catch(() => undefined));
  }
  return { tally, files, invalid, stoppedBy: delivered.stoppedBy };
}

/**
 * What an interrupted run sent, and the command that sends the rest: the parts not sent are in
 * the failed file, in order. Parts have no idempotency key, so the unconfirmed ones are not in it.
 * The global flags before the command are kept (the same profile and service), the API key aside.
 */
function reportResume(ctx: Context, run: { namespace: string; id: string; tally: PartsTally; failed: FailedFile; unconfirmed: FailedFile; checkpoint: boolean; inputCutShort: boolean }, flags: PartsFlags): void {
  const { tally, failed, unconfirmed } = run;
  // A pipe read as the parts go (--skip-invalid) stops at the signal.
  const cutShort = run.inputCutShort ? inputCutShortNote(tally.valid + tally.invalid, 'part') : '';
  const done = `${interruptedRun(tally, 'part', failed.path)}${cutShort}`;
  if (unconfirmed.count > 0) {
    ctx.io.warn(`${countOf(unconfirmed.count, 'part')} whose answer was lost are in ${unconfirmed.path}: the service may hold them, and resending them may store them twice`);
  }
  if (run.checkpoint) {
    reportInterruption(ctx.io, done, csafeCommandLine(ctx.argv));
    return;
  }
  if (failed.count === 0) {
    ctx.io.warn(`interrupted: ${done}${run.inputCutShort ? '' : '; none is left to send'}`);
    return;
  }
  reportInterruption(ctx.io, `${done}; the parts ${run.inputCutShort ? 'read and ' : ''}not sent are in the failed file too`, resendCommandLine(failed, (input) => csafeCommandLine(withPositional(ctx.argv, FILE_POSITION, input, resumeFlags(flags)))));
}

/** `stream parts NAMESPACE FILE`: the file is the command's fourth word. */
const FILE_POSITION = 3;

/**
 * The run's own command line continues it, with the failed file as its input: the global flags
 * (--base-url, --profile …) and the batch flags stay; the flags that chose the input go, and so
 * does --failed, which names the file the next run reads.
 */
const resumeFlags = (flags: PartsFlags) => ({
  withValue: flagsWithValue(flags),
  dropped: new Set(
    (['chat', 'senderId', 'senderName', 'transcript', 'speaker', 'frame', 'audio', 'timestamp', 'captions', 'start', 'failed', 'follow', 'flushInterval', 'maxBuffer'] as const).map((key) =>
      longFlag(key, flags[key]),
    ),
  ),
});

/** The action of the command declared in parts-command.ts, loaded when it runs. */
export const streamPartsAction: Action<PartsFlags> = async (ctx, command, flags) => {
      const options = parseOptions(partsOptionsSchema(flags), command.opts());
      const [namespace, file] = positional(command) as [string, string | undefined];
      return streamPartsRun(ctx, parseNamespace(namespace), file, options, flags);
    };
