import { fileOrStdin } from '../../../core/input/sources.js';
import type { Context } from '../../../context.js';
import { deliveredEarlier, nothingSentLine, SkipFile } from '../../../core/bulk/checked-records.js';
import { InterruptedError } from '../../../core/errors.js';
import { haltLine } from '../../../core/bulk/fail-fast.js';
import { FailedFile } from '../../../core/files/failed-file.js';
import { defaultFailedPath } from '../../../core/files/failed-path.js';
import { parseFlags } from '../../../core/cli/options.js';
import { refuseSharedFiles } from '../../../core/files/distinct-files.js';
import { type OutputFormat } from '../../../core/terminal/output.js';
import { shardedName } from '../../../core/bulk/shard.js';
import { csafeCommandLine, withPositional } from '../../../core/cli/command-line.js';
import { flagsWithValue, longFlag } from '../../../core/cli/flags.js';
import { inputCutShortNote, inputReadInPart, interruptedRun, noResumeAfterLeaving, reportedIfInterrupted, reportInterruption, reportNoResume, resendCommandLine, sameStdinHint, STILL_READING, wholeInputAgain, type AppendedRecords } from '../../../core/cli/resume.js';
import { eventsSend } from './send-command.js';
import { interruptionOf } from '../../../core/signals.js';
import { startSpinner } from '../../../core/terminal/spinner.js';
import { inputToRead } from '../../../core/input/spool.js';
import { batchOutcome, positional, type Outcome } from '../../app.js';
import { Checkpoint } from './checkpoint.js';
import { eventBatchLimits, eventLanes, eventsJob, ingestBatch, queueBatch } from './deliver.js';
import { planBatches } from '../../../core/bulk/dry-run.js';
import type { DryRunPlan } from '../../../core/http/dry-run.js';
import type { SendFlags, SendOptions } from './options.js';
import { printSummaryRecord, reportSummary, summarise } from './summary.js';
import { emptyCounts, type BulkCounts } from '../../../core/bulk/counts.js';
import { bulkRun, deliverInBatches, type BulkJob, type LeftAtOnce } from '../../../core/bulk/engine.js';
import { flushAfterMs } from '../../../core/cli/bulk-flags.js';
import { countOf } from '../../../core/terminal/words.js';
import { unacknowledged } from '../../../core/bulk/range-checkpoint.js';
import { SyncIngestion } from './sync.js';
import { checkedEvents } from './validate.js';
import { EVENT_SPOOL, EventPreparer, type OutgoingEvent } from './outgoing.js';
import { spoolRecords } from '../../../core/bulk/record-spool.js';
import type { Action } from '../../app.js';

// `csafe events send`: validates the events of a file and sends them in ordered batches, then says
// what happened.

export async function sendRun(ctx: Context, path: string, options: SendOptions): Promise<Outcome> {
  refuseSharedFiles(path, options);
  const flushAfter = flushAfterMs(options);
  const started = ctx.now();
  const check = { allowUnknownTypes: options.allowUnknownTypes };
  const tally = emptyCounts();
  // The check counts what it reads apart from the tally, which takes them once it is over; the events of other shards go straight to the tally.
  const checked = emptyCounts();
  // A dry run's stdout holds its plan or nothing, and there is nothing to continue.
  const beforeSending = <T>(step: Promise<T>, inputName: string) =>
    reportedIfInterrupted(step, ctx.signal, async () => {
      if (!ctx.dryRun) await reportInterrupted({ ctx, options, tally: { ...checked, other_shards: tally.other_shards }, started, input: { name: inputName, path } }, { stillReading: true });
    });
  // The input is read once; with --checkpoint, stdin or a pipe is kept in a temporary file, whose first bytes the checkpoint takes as the fingerprint of its input.
  const input = await beforeSending(inputToRead(path, ctx.io, ctx.signal, options.checkpoint !== undefined), path === '-' ? 'stdin' : path);
  const { source } = input;
  try {
    // Events read as they come from a pipe (--skip-invalid) wait for it at most --flush-interval; an input read whole first never trickles.
    const run = { ctx, input: { name: source.name, path: input.path }, options, tally, started, flushAfterMs: inputReadInPart(path, ctx.io.stdin, options) ? flushAfter : undefined };
    const preparer = new EventPreparer(options, tally);
    if (options.skipInvalid !== undefined && ctx.dryRun === undefined) {
      const setAside = new SkipFile(options.skipInvalid);
      try {
        return await sendAndReport(checkedEvents(source, check, { io: ctx.io, tally, preparer, setAside }), { ...run, setAside });
      } finally {
        await setAside.close();
      }
    }
    // Nothing half-sent: every record is checked, and its event made ready in a temporary file, before the first is sent.
    const spool = await beforeSending(spoolRecords(checkedEvents(source, check, { io: ctx.io, tally: checked, preparer }), EVENT_SPOOL, ctx.signal), source.name);
    try {
      if (checked.invalid > 0) {
        // A dry run's stdout holds its plan or nothing.
        if (!ctx.dryRun) await report(ctx, checked, { input: source.name, started });
        ctx.io.warn(nothingSentLine(checked.invalid, 'invalid record', ctx.dryRun !== undefined));
        return { kind: 'checked', invalid: checked.invalid };
      }
      if (ctx.dryRun) return await planEvents(run, ctx.dryRun, spool.records());
      Object.assign(tally, { read: checked.read, valid: checked.valid });
      return await sendAndReport(spool.records(), run);
    } finally {
      await spool.remove();
    }
  } finally {
    await input.remove();
  }
}

/** One sending run: the input (its name, and the file a checkpoint fingerprints), the tally so far. */
interface SendingRun {
  ctx: Context;
  input: { name: string; path: string };
  options: SendOptions;
  tally: BulkCounts;
  started: number;
  /** --flush-interval, for events read as they come from a pipe: a batch that is not full goes once its oldest event has waited this long. */
  flushAfterMs: number | undefined;
  /** --skip-invalid's file, which the checkpoint keeps account of. */
  setAside?: SkipFile;
}

/** Sends the events, then says what happened: the summary, why sending stopped, the outcome. */
async function sendAndReport(events: AsyncIterable<readonly OutgoingEvent[]>, run: SendingRun): Promise<Outcome> {
  const { ctx, options, tally, started } = run;
  const { failedFile, failed, unconfirmedFile, halted, readStoppedAfter } = await sendChecked(events, run);
  // With --sync, stdout holds the event ids; the summary would break their NDJSON.
  await report(ctx, tally, { input: run.input.name, started, failedFile, failedRecords: failed, unconfirmedFile, invalidFile: options.skipInvalid, toStdout: !options.sync, checkpoint: options.checkpoint });
  if (halted) ctx.io.warn(haltLine(halted, failedFile, readStoppedAfter, 'event'));
  const invalid = options.skipInvalid === undefined ? { invalid: tally.invalid } : { skipped: tally.invalid };
  return batchOutcome({ sent: tally.sent, done: deliveredEarlier(tally.skipped_checkpoint, run.setAside), otherShards: tally.other_shards, failed: tally.failed, unconfirmed: tally.unconfirmed, ...invalid, stoppedBy: halted });
}

/** The sending pass over events already checked and made ready. */
async function sendChecked(events: AsyncIterable<readonly OutgoingEvent[]>, { ctx, input, options, tally, started, flushAfterMs, setAside }: SendingRun) {
  const failedPath = options.failed ?? defaultFailedPath(shardedName('events', options.shard), ctx.now());
  const failed = new FailedFile(failedPath);
  const unconfirmedPath = options.unconfirmed ?? defaultFailedPath(shardedName('events', options.shard), ctx.now(), 'unconfirmed');
  const unconfirmed = new FailedFile(unconfirmedPath);
  // Before the checkpoint is opened: a run refused for want of a base URL or key would leave one behind, of nothing sent.
  const http = await ctx.http();
  const checkpoint = await openCheckpoint(ctx, input, options, false);
  setAside?.keepIn(checkpoint);
  // Only the checked copy is read to its end after Ctrl-C; events read as they are checked (--skip-invalid) stop there, and those not read would be in no file.
  const unsentToFailed = keylessWithoutCheckpoint(options) && setAside === undefined;
  const progress = await startSpinner(ctx.io, 'Sending events…');
  let halted: Error | undefined;
  let readStoppedAfter: number | undefined;
  let completed = false;
  let sync: SyncIngestion | undefined;
  try {
    if (options.sync) sync = new SyncIngestion(http, ctx.io, await ctx.outputFormat('stream'));
    const onProgress = () => progress.update(`sent ${tally.sent}, failed ${tally.failed}, skipped ${tally.skipped_checkpoint + tally.other_shards}`);
    const leftAtOnce = (left: LeftAtOnce) => reportLeftAtOnce(ctx, left, { inputPath: input.path, options, tally, failed, unsentToFailed });
    const run = bulkRun(ctx, http, options, { counts: tally, failed, unconfirmed, checkpoint, onProgress, leftAtOnce });
    const due = unacknowledged(events, checkpoint && ((event) => checkpoint.isSettled(event.slot, event.position)), tally);
    // With --sync, each batch's event ids are printed once it is counted as acknowledged.
    // A pipe read as it goes may never end: a halt stops reading it.
    const readInPart = inputReadInPart(input.path, ctx.io.stdin, options);
    const reading = { setAsideUnsent: unsentToFailed, stopReadingAtHalt: readInPart, setAsideUnsentRead: readInPart };
    const send = <A>(sending: BulkJob<OutgoingEvent, A>) => deliverInBatches(due, { ...eventBatchLimits(options), flushAfterMs }, eventLanes(options), { ...sending, ...reading }, run);
    const delivered = await (sync === undefined ? send(eventsJob(queueBatch(http), input.name, checkpoint)) : send(eventsJob(sync.send, input.name, checkpoint, sync.print)));
    if (delivered.interrupted) throw new InterruptedError();
    halted = delivered.stoppedBy;
    readStoppedAfter = delivered.readStoppedAfter;
    completed = true;
  } catch (error) {
    if (!(error instanceof InterruptedError)) throw error;
    await reportInterrupted({ ctx, input, options, tally, started }, { failedFile: failedPath, unconfirmedFile: unconfirmedPath, ...(unsentToFailed && { unsentIn: failed }) });
    throw interruptionOf(ctx.signal, tally.sent);
  } finally {
    progress.stop();
    try {
      await failed.close();
      await unconfirmed.close();
      // When the run stopped, the error that stopped it is the one to report.
      await (completed ? checkpoint?.close() : checkpoint?.close().catch(() => undefined));
    } finally {
      // Last: a reader of stdout gone (`| head`) must not keep the checkpoint or the files from being saved.
      await sync?.finish();
    }
  }
  return { failedFile: failedPath, failed, unconfirmedFile: unconfirmedPath, halted, readStoppedAfter };
}

/**
 * What a run cut short by Ctrl-C or SIGTERM did, and the command that continues it, on stderr; in a
 * pipe the summary is the run's record on stdout, cut short or not, and whether it was still
 * checking its input or sending (with --sync, stdout holds the event ids).
 */
async function reportInterrupted(
  { ctx, input, options, tally, started }: Pick<SendingRun, 'ctx' | 'input' | 'options' | 'tally' | 'started'>,
  { stillReading = false, unsentIn, ...files }: { failedFile?: string; unconfirmedFile?: string; stillReading?: boolean; unsentIn?: FailedFile },
): Promise<void> {
  // Read as they are checked (--skip-invalid), events of a pipe stop at the signal: the rest is in no file.
  const cutShort = !stillReading && inputReadInPart(input.path, ctx.io.stdin, options);
  const done = `${interruptedRun(tally, 'event', files.failedFile ?? '')}${stillReading ? STILL_READING : ''}${cutShort ? inputCutShortNote(tally.read, 'event') : ''}`;
  if (unsentIn !== undefined) reportUnsentInFailed(ctx, done, unsentIn);
  else reportInterruption(ctx.io, done, csafeCommandLine(ctx.argv), stillReading ? nothingSentHint(input.path) : options.checkpoint === undefined ? noCheckpointHint(options.autoIdempotency, cutShort, input.path) : undefined);
  if (options.sync) return;
  const summary = summarise(tally, { input: input.name, durationMs: ctx.now() - started, ...files, invalidFile: options.skipInvalid });
  await printSummaryRecord(ctx.io, summary, await summaryFormat(ctx));
}

/**
 * What a run csafe left at once (a second Ctrl-C) did, and the command that continues it, as
 * reportInterrupted says it: the same command line with a checkpoint, or when every event it
 * would send again has an idempotency key and none is in the unconfirmed file; the failed file
 * where the events not sent went there. Else, in words, why none does.
 */
function reportLeftAtOnce(ctx: Context, left: LeftAtOnce, run: { inputPath: string; options: SendOptions; tally: BulkCounts; failed: FailedFile; unsentToFailed: boolean }): void {
  const { options, tally, failed } = run;
  const cutShort = !left.readAll && inputReadInPart(run.inputPath, ctx.io.stdin, options);
  const done = `${interruptedRun(tally, 'event', failed.path)}${cutShort ? inputCutShortNote(tally.read, 'event') : ''}`;
  const why = noResumeAfterLeaving(left, 'event', !run.unsentToFailed);
  if (why !== undefined) return reportNoResume(ctx.io, done, why);
  if (run.unsentToFailed) return reportUnsentInFailed(ctx, done, failed);
  if (options.checkpoint !== undefined) return reportInterruption(ctx.io, done, csafeCommandLine(ctx.argv));
  // Without a checkpoint the same command line sends every event again, the unconfirmed ones too, which have no idempotency key.
  if (left.unconfirmed.length > 0) return reportNoResume(ctx.io, done, `the same command would send again the ${countOf(left.unconfirmed.length, 'event')} without an idempotency key now in the unconfirmed file; add --checkpoint FILE to continue where a run stopped`);
  reportInterruption(ctx.io, done, csafeCommandLine(ctx.argv), noCheckpointHint(options.autoIdempotency, cutShort, run.inputPath));
}

/** --dry-run: the events' batches as the lanes would cut them, the first recorded by the HTTP core in place of sending. */
async function planEvents({ ctx, input, options, tally }: SendingRun, plan: DryRunPlan, events: AsyncIterable<readonly OutgoingEvent[]>): Promise<never> {
  const http = await ctx.http();
  const send = options.sync ? ingestBatch(http) : queueBatch(http);
  const checkpoint = await openCheckpoint(ctx, input, options, true);
  const due = unacknowledged(events, checkpoint && ((event) => checkpoint.isSettled(event.slot, event.position)), tally);
  return planBatches(plan, due, eventBatchLimits(options), 'event', send, eventLanes(options).laneOf);
}

/** --checkpoint's file, if given; `readOnly` for a dry run, which checks it and skips what it covers but never writes it. */
function openCheckpoint(ctx: Context, input: SendingRun['input'], options: SendOptions, readOnly: boolean): Promise<Checkpoint | undefined> {
  if (options.checkpoint === undefined) return Promise.resolve(undefined);
  return Checkpoint.open({ path: options.checkpoint, inputPath: input.path, inputName: input.name, shard: options.shard, now: () => ctx.now(), readOnly });
}

async function report(ctx: Context, tally: BulkCounts, run: { input: string; started: number; failedFile?: string; failedRecords?: AppendedRecords; unconfirmedFile?: string; invalidFile?: string; toStdout?: boolean; checkpoint?: string }) {
  const summary = summarise(tally, { ...run, durationMs: ctx.now() - run.started });
  await reportSummary(ctx.io, summary, run.toStdout === false ? undefined : await summaryFormat(ctx), ctx.argv, run.checkpoint !== undefined, run.failedRecords);
}

/** A terminal's default table would only repeat the stderr line, so it prints nothing; `-o table` (flag or profile) asks for it. */
async function summaryFormat(ctx: Context): Promise<OutputFormat | undefined> {
  const format = await ctx.outputFormat('single');
  const asked = (await ctx.settings()).output !== undefined;
  return format === 'table' && !asked ? undefined : format;
}

/**
 * Without a checkpoint the same command starts from the first event again: harmless for an event
 * with an idempotency_key, which the service ingests once, but with --no-auto-idempotency an event
 * without one is stored again each time it is sent. A pipe read in part gives it nothing again:
 * only what the user pipes in, which the run read only in part.
 */
function noCheckpointHint(autoIdempotency: boolean, cutShort: boolean, path: string): string {
  const continueWhere = 'add --checkpoint FILE to continue where a run stopped';
  if (cutShort) {
    return autoIdempotency
      ? `without --checkpoint it sends every event it is given again (each keeps its idempotency_key, so the service ingests it once): ${wholeInputAgain(path)}; ${continueWhere}`
      : `with --no-auto-idempotency the service stores an event without an idempotency_key each time it is sent: give it on stdin only the events this run did not deliver, what it did not read included; ${continueWhere}`;
  }
  return autoIdempotency
    ? `without --checkpoint it sends every event again (each keeps its idempotency_key, so the service ingests it once); ${continueWhere}`
    : `without --checkpoint it sends every event again, and with --no-auto-idempotency the service stores those without an idempotency_key a second time (those with one, once); ${continueWhere}`;
}

/** Cut short before the first event went, the same command sends each event once: only stdin, read once, must be given again. */
const nothingSentHint = (path: string) => (path === '-' ? sameStdinHint() : undefined);

/**
 * Without a checkpoint, under --no-auto-idempotency: the same command line would store again the
 * events without a key that this run delivered. So, as `stream parts` does, the events not sent
 * go to the failed file, in order, and the command printed sends that (this run's bytes of it).
 */
const keylessWithoutCheckpoint = (options: SendOptions) => options.checkpoint === undefined && !options.autoIdempotency;

function reportUnsentInFailed(ctx: Context, done: string, failed: FailedFile): void {
  if (failed.count === 0) {
    ctx.io.warn(`interrupted: ${done}; none is left to send`);
    return;
  }
  const resend = resendCommandLine(failed, (input) => csafeCommandLine(withPositional(ctx.argv, FILE_POSITION, input, RESUME_FLAGS)));
  reportInterruption(ctx.io, `${done}; the events not sent are in the failed file too`, resend);
}

/** `events send FILE`: the file is the command's third word. */
const FILE_POSITION = 2;

/** The run's own command line with the failed file as its input: without --failed, which names the file the next run reads. */
const RESUME_FLAGS = { withValue: flagsWithValue(eventsSend.flags), dropped: new Set([longFlag('failed', eventsSend.flags.failed)]) };

/** The action of the command declared in send-command.ts, loaded when it runs. */
export const eventsSendAction: Action<SendFlags> = async (ctx, command, flags) => {
      const options = parseFlags(flags, command.opts());
      const [path] = positional(command) as [string | undefined];
      return sendRun(ctx, fileOrStdin(path, ctx.io.stdinIsTTY), options);
    };
