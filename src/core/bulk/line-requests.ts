import { bulkRun, deliverInBatches, type BulkJob, type Delivered, type LeftAtOnce } from './engine.js';
import { planBatches } from './dry-run.js';
import type { DryRunPlan } from '../http/dry-run.js';
import { emptyCounts, type BulkCounts } from './counts.js';
import { RangeCheckpoint, unacknowledged } from './range-checkpoint.js';
import { deliveredEarlier, nothingSentLine, problemLine, setAside, SkipFile } from './checked-records.js';
import { spoolRecords, type SpoolFormat } from './record-spool.js';
import { haltLine } from './fail-fast.js';
import { inOtherShard, otherShardsNote, shardedName, type Shard } from './shard.js';
import { MAX_LINE_BYTES } from '../input/lines.js';
import { readRecords } from '../input/sources.js';
import { inputToRead } from '../input/spool.js';
import { FailedFile } from '../files/failed-file.js';
import { defaultFailedPath } from '../files/failed-path.js';
import { refuseSharedFiles } from '../files/distinct-files.js';
import type { HttpClient } from '../http/client.js';
import { unlessReaderGone, type IOStreams } from '../terminal/io.js';
import { resultWriter, type OutputFormat, type ResultShape, type StreamView } from '../terminal/output.js';
import { countOf } from '../terminal/words.js';
import { startSpinner } from '../terminal/spinner.js';
import { csafeCommandLine, sameServiceCommand, withFlag } from '../cli/command-line.js';
import { inputCutShortNote, inputReadInPart, interruptedRun, noResumeAfterLeaving, reportedIfInterrupted, reportInterruption, reportNoResume, resendCommandLine, resendHint, sameStdinHint, STILL_READING, wholeInputAgain } from '../cli/resume.js';
import { interruptionOf } from '../signals.js';
import type { JsonRecord } from '../json/position.js';

// The bulk commands that send each line of a JSONL file as a request of its own (classify --batch,
// agent-decision send, deletion-request send): every line checked first, several in flight,
// results printed in input order.

/** What a command gives the pipeline: how a line becomes its request, how it is sent, and how its answer is shown. */
export interface LineRequests<R, A, P, Row> {
  /** As the default failed file names the command: `classify`. */
  command: string;
  /** As a checkpoint file not written by this command is told: `a csafe classify --batch checkpoint`. */
  checkpointWhat: string;
  /** A line's JSON value as the request to send, or what the service would refuse in it; called for each line in input order. */
  check(value: unknown, line: number): CheckedRequest<R>;
  /**
   * The check compares a line with the lines before it: it is given those of other shards and
   * before --from-line too (their results unused), which another worker or an earlier run sends.
   */
  checksAgainstEarlierLines?: boolean;
  send(http: HttpClient, request: R): Promise<A>;
  /** Whether a line whose answer was lost may be sent again (the service applies it once). */
  replaySafe: boolean;
  /** What is printed of a line the service answered. */
  printed(line: number, request: R, answer: A): P;
  view: StreamView<P, Row>;
  /** Told of each answer as it is printed, in input order (a tally the summary or the exit code tells). */
  answered?(answer: A): void;
  /** The spinner's text before the first answer, and after each. */
  spinner: { start: string; progress(counts: BulkCounts): string };
  /** The summary's first words: `classified 3 lines`. */
  summary(counts: BulkCounts): string;
  /** The command that sends lines again, given their input (a path, or `-` for stdin) to quote, after `csafe` and the global flags: `classify --batch failed.jsonl`. */
  resendCommand(input: string): string;
}

/** A line's request, or why it cannot be sent. */
export type CheckedRequest<R> = { request: R } | { problem: string };

/** The flags every command of this pipeline shares. */
export interface LineRequestOptions {
  concurrency: number;
  maxConsecutiveFailures: number;
  maxRate?: number;
  failed?: string;
  /** Of a command whose lines may not be sent twice: where a line goes whose answer was lost. */
  unconfirmed?: string;
  skipInvalid?: string;
  checkpoint?: string;
  shard?: Shard;
  /** The first line to send (default 1); an interrupted run prints it. */
  fromLine?: number;
}

/** What a command of this pipeline is given to work with (a command's Context). */
export interface LineRequestsContext {
  io: IOStreams;
  signal: AbortSignal;
  argv: readonly string[];
  now(): number;
  sleep(ms: number): Promise<void>;
  http(): Promise<HttpClient>;
  outputFormat(shape: ResultShape): Promise<OutputFormat>;
  /** With --dry-run: the lines are checked and planned, none sent (core/bulk/dry-run.ts). */
  dryRun?: DryRunPlan;
}

/** How the run ended when it was not interrupted: nothing sent, invalid lines found by the check; or what was sent. */
export type LineRequestsRun =
  | { kind: 'checked'; invalid: number }
  | { kind: 'sent'; counts: BulkCounts; skipped: number; deliveredEarlier: number; stoppedBy?: Error };

/**
 * How far, in multiples of --concurrency, sending may run ahead of the oldest line not yet
 * printed: the lines after a slow one (a retry, say) keep every slot busy while their results
 * wait to be printed in input order. Past it, reading pauses until the slow line is answered.
 */
const REORDER_WINDOW = 8;

/**
 * Every line is checked before the first request: an invalid one is named and nothing is sent,
 * unless --skip-invalid sets it aside. Lines are sent with bounded concurrency; results go to
 * stdout in input order, tagged with their line: as NDJSON in a pipe, or on a terminal (and with
 * -o table or tsv) as one table at the end; failed lines go to the --failed file with their
 * reason, and a line whose answer was lost, of a command whose lines may not be sent twice, to
 * the --unconfirmed file. Ctrl-C, SIGTERM or the reader of stdout going away prints what was
 * done and the command that continues, and throws.
 */
export async function sendEachLine<R, A, P, Row>(ctx: LineRequestsContext, path: string, options: LineRequestOptions, job: LineRequests<R, A, P, Row>): Promise<LineRequestsRun> {
  refuseSharedFiles(path, options);
  const counts = emptyCounts();
  const cutShortReading = () => reportCutShortReading({ ctx, path, options, job, counts });
  const beforeSending = <T>(step: Promise<T>) => reportedIfInterrupted(step, ctx.signal, cutShortReading);
  // Fingerprinted for the checkpoint: stdin or a pipe is kept in a temporary file.
  const input = await beforeSending(inputToRead(path, ctx.io, ctx.signal, options.checkpoint !== undefined));
  const { source } = input;
  const reading = { fromLine: options.fromLine ?? 1, shard: options.shard, counts, lastLine: 0 };
  const lines = checkedLines(readRecords(source, { jsonLines: true }), reading, job);
  const run = { ctx, input: { path, name: source.name, file: input.path, lastLine: () => reading.lastLine }, options, job, counts };
  try {
    if (options.skipInvalid !== undefined && ctx.dryRun === undefined) {
      const skipped = new SkipFile(options.skipInvalid);
      try {
        return await sendLines(run, settingAside(lines, { inputName: source.name, io: ctx.io, skipped, counts }), skipped);
      } finally {
        await skipped.close();
      }
    }
    // Every line is checked, and kept as it will be sent, before the first request.
    const spoolFormat = lineSpool<R>();
    const spool = await beforeSending(spoolRecords(refusingInvalid(lines, source.name, ctx.io, counts), spoolFormat, ctx.signal));
    try {
      // Interrupted as the check ended: nothing was sent, and nothing is.
      if (ctx.signal.aborted) {
        await cutShortReading();
        throw interruptionOf(ctx.signal);
      }
      if (counts.invalid > 0) {
        ctx.io.warn(nothingSentLine(counts.invalid, 'invalid line', ctx.dryRun !== undefined));
        return { kind: 'checked', invalid: counts.invalid };
      }
      if (ctx.dryRun) {
        const http = await ctx.http();
        const checkpoint = await openCheckpoint(run, true);
        const due = unacknowledged(spool.records(), checkpoint && ((line) => checkpoint.isAcknowledged(line.line)), counts);
        return await planBatches(ctx.dryRun, due, ONE_LINE_A_REQUEST, 'line', ([line]) => job.send(http, line!.request));
      }
      return await sendLines(run, spool.records(), undefined);
    } finally {
      await spool.remove();
    }
  } finally {
    await input.remove();
  }
}

/** A line to send: its request, and its text as read (what the failed file keeps, to be sent again). */
interface LineRequest<R> {
  line: number;
  json: string;
  request: R;
}

/** A line as read and checked: its request, or why it cannot be sent. */
type CheckedLine<R> = { line: number; input: unknown } & CheckedRequest<R>;

/** A line as the spool keeps it: `line TAB request TAB the line as read` (JSON text holds no raw tab or newline). */
export const lineSpool = <R>(): SpoolFormat<LineRequest<R>> => ({
  encode: (line) => `${line.line}\t${JSON.stringify(line.request)}\t${line.json}`,
  decode(text) {
    const lineEnd = text.indexOf('\t');
    const requestEnd = text.indexOf('\t', lineEnd + 1);
    return { line: Number(text.slice(0, lineEnd)), request: JSON.parse(text.slice(lineEnd + 1, requestEnd)) as R, json: text.slice(requestEnd + 1) };
  },
  // A request and the line it came from, each at most 6 bytes for each character of a line of at most MAX_LINE_BYTES (core/bulk/checked-records).
  maxLineBytes: 16 * MAX_LINE_BYTES,
  weight: (line) => 2 * line.json.length + PARSED_VALUE_CHARS * valuesIn(line.json),
});

/**
 * What a parsed value costs beyond its text, in characters: an object or array, a member or
 * element takes some tens of bytes of its own. Without it, a line of small values (`[{},{},…]`)
 * weighed a tenth of what it held, and the spool held several times its bound.
 */
const PARSED_VALUE_CHARS = 32;

/** About how many values a line of JSON holds: its commas and opening brackets (those in strings too: it errs high). */
function valuesIn(json: string): number {
  let values = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x2c || c === 0x7b || c === 0x5b) values++;
  }
  return values;
}

/** A run of the pipeline: its command, input and flags, and the counts its summary tells. */
interface LineRun<R, A, P, Row> {
  ctx: LineRequestsContext;
  /**
   * The input as given (`path`), as messages name it, and the file that holds it (a copy of stdin),
   * which a checkpoint fingerprints; the number of the last line read (those before --from-line
   * and of other shards too).
   */
  input: { path: string; name: string; file: string; lastLine(): number };
  options: LineRequestOptions;
  job: LineRequests<R, A, P, Row>;
  counts: BulkCounts;
}

async function sendLines<R, A, P, Row>(run: LineRun<R, A, P, Row>, lines: AsyncIterable<readonly LineRequest<R>[]>, skipped: SkipFile | undefined): Promise<LineRequestsRun> {
  const { ctx, input, options, job, counts } = run;
  const failed = new FailedFile(options.failed ?? defaultFailedPath(shardedName(job.command, options.shard), ctx.now()));
  const unconfirmed = job.replaySafe ? undefined : new FailedFile(options.unconfirmed ?? defaultFailedPath(shardedName(job.command, options.shard), ctx.now(), 'unconfirmed'));
  const format = await ctx.outputFormat('stream');
  // Printed as each line is answered (a table once, when the run ends however it ends).
  const results = resultWriter(ctx.io, format, job.view);
  const http = await ctx.http();
  const checkpoint = await openCheckpoint(run, false);
  skipped?.keepIn(checkpoint);
  const spinner = await startSpinner(ctx.io, job.spinner.start);
  // Results are settled in input order: every line up to this one is answered or in the failed file.
  let lastDone = (options.fromLine ?? 1) - 1;
  // A pipe read as it goes may never end: a halt stops reading it, after the lines read then.
  const readInPart = inputReadInPart(input.path, ctx.io.stdin, options);
  let linesReadAtHalt = 0;
  const bulkJob: BulkJob<LineRequest<R>, A> = {
    noun: 'line',
    inputName: input.name,
    sentAlone: true,
    stopReadingAtHalt: readInPart,
    onHalt: () => void (linesReadAtHalt = input.lastLine()),
    send: ([line]) => job.send(http, line!.request),
    replaySafe: () => job.replaySafe,
    async acknowledged([line], answer) {
      lastDone = line!.line;
      checkpoint?.acknowledge(line!.line, line!.line);
      job.answered?.(answer);
      await results.print(job.printed(line!.line, line!.request, answer)).catch(unlessReaderGone);
    },
    notAcknowledged([line], file) {
      lastDone = line!.line;
      // In the unconfirmed file, it is dealt with: the next run must not send it again.
      if (file === 'unconfirmed') checkpoint?.acknowledge(line!.line, line!.line);
    },
  };
  // A pipe read in part (see inputReadInPart): the lines after the last one read are in no file.
  const resumeRun = (next: number) => ({ path: input.path, next, counts, failedPath: failed.path, unconfirmedPath: unconfirmed?.path, checkpoint: options.checkpoint !== undefined, linesRead: readInPart ? input.lastLine() : undefined });
  const leftAtOnce = (left: LeftAtOnce) => {
    const why = noResumeAfterLeaving(left, 'line', true);
    const next = left.notDone[0] ?? Math.max(lastDone, ...left.inFiles) + 1;
    // Past the first line not done, a line in a file would be sent again by --from-line.
    const sentAgain = options.checkpoint === undefined ? left.inFiles.filter((line) => line > next) : [];
    if (why === undefined && sentAgain.length === 0) return reportResume(ctx, resumeRun(next));
    const done = `${interruptedRun(counts, 'line', failed.path)}; line ${next} is not done`;
    reportNoResume(ctx.io, done, why ?? `${countOf(sentAgain.length, 'later line')} (from line ${sentAgain[0]}) ${sentAgain.length === 1 ? 'is' : 'are'} in the failed or the unconfirmed file, which --from-line ${next} would send again`);
  };
  const bulk = bulkRun(ctx, http, options, { counts, failed, unconfirmed, checkpoint, onProgress: () => spinner.update(job.spinner.progress(counts)), leftAtOnce });
  let delivered: Delivered | undefined;
  try {
    delivered = await deliverInBatches(unacknowledged(lines, checkpoint && ((line) => checkpoint.isAcknowledged(line.line)), counts), ONE_LINE_A_REQUEST, { concurrency: options.concurrency, window: options.concurrency * REORDER_WINDOW }, bulkJob, bulk);
  } finally {
    spinner.stop();
    try {
      await failed.close();
      await unconfirmed?.close();
      // When the run stopped, the error that stopped it is the one to report.
      await (delivered !== undefined ? checkpoint?.close() : checkpoint?.close().catch(() => undefined));
    } finally {
      // Last: a reader of stdout gone (`| head`) must not keep the checkpoint from being saved, nor the run from saying what it did.
      await results.end().catch(unlessReaderGone);
    }
  }
  if (delivered.interrupted) {
    reportResume(ctx, resumeRun(lastDone + 1));
    throw interruptionOf(ctx.signal, counts.sent);
  }
  const otherShards = otherShardsNote(counts.other_shards, 'line', options.shard);
  const done = counts.skipped_checkpoint > 0 ? `; ${countOf(counts.skipped_checkpoint, 'line')} skipped by checkpoint` : '';
  const failedNote = counts.failed > 0 ? `; ${counts.failed} failed, written to ${failed.path}` : '';
  const skippedNote = skipped?.count ? `; ${countOf(skipped.count, 'invalid line')} written to ${skipped.path}` : '';
  const unconfirmedNote = counts.unconfirmed > 0 ? `; ${counts.unconfirmed} unconfirmed, written to ${unconfirmed!.path}: the service may have recorded them, so check before sending them again` : '';
  ctx.io.note(`${job.summary(counts)}${done}${otherShards}${failedNote}${unconfirmedNote}${skippedNote}`);
  const { stoppedBy } = delivered;
  if (stoppedBy) ctx.io.warn(haltLine(stoppedBy, failed.path, delivered.readStoppedAfter === undefined ? undefined : linesReadAtHalt, 'line'));
  if (counts.failed > 0) ctx.io.warn(`hint: ${resendHint(resendCommandLine(failed, (input) => sameServiceCommand(ctx.argv, job.resendCommand(input))), options.checkpoint !== undefined)}`);
  return { kind: 'sent', counts, skipped: skipped?.count ?? 0, deliveredEarlier: deliveredEarlier(counts.skipped_checkpoint, skipped), stoppedBy };
}

/** --checkpoint's file, if given; `readOnly` for a dry run, which checks it and skips what it covers but never writes it. */
function openCheckpoint<R, A, P, Row>({ ctx, input, options, job }: LineRun<R, A, P, Row>, readOnly: boolean): Promise<RangeCheckpoint | undefined> {
  if (options.checkpoint === undefined) return Promise.resolve(undefined);
  return RangeCheckpoint.open({ path: options.checkpoint, inputPath: input.file, inputName: input.name, what: job.checkpointWhat, identity: { command: job.command }, shard: options.shard, now: () => ctx.now(), readOnly });
}

const ONE_LINE_A_REQUEST = { maxItems: 1, maxBytes: Number.POSITIVE_INFINITY, sizeOf: () => 0 };

/**
 * What an interrupted run did, and the command that continues it: with --checkpoint the same
 * one, which skips the lines answered; without, the same one from the first line not done
 * (--from-line), its failures (and lines unconfirmed) going to the same files. The results on stdout are the record of
 * what was done, so the next run only needs where to start.
 */
function reportResume(ctx: LineRequestsContext, run: { path: string; next: number; counts: BulkCounts; failedPath: string; unconfirmedPath?: string; checkpoint: boolean; linesRead?: number }): void {
  const { counts } = run;
  const done = interruptedRun(counts, 'line', run.failedPath);
  if (run.checkpoint) {
    reportInterruption(ctx.io, done, csafeCommandLine(ctx.argv), 'it skips the lines already answered: append its output (>>) to this run\'s');
    return;
  }
  const sameFiles = withFlag(withFlag(ctx.argv, '--from-line', String(run.next)), '--failed', run.failedPath);
  const resume = csafeCommandLine(run.unconfirmedPath === undefined ? sameFiles : withFlag(sameFiles, '--unconfirmed', run.unconfirmedPath));
  // A pipe read as the lines went (--skip-invalid) stops at the signal: the rest is in no file.
  const readInPart = run.linesRead !== undefined;
  const hint = readInPart ? wholeInputAgain(run.path, run.next) : run.path === '-' ? sameStdinHint(run.next) : undefined;
  reportInterruption(ctx.io, `${done}; line ${run.next} on not done${readInPart ? inputCutShortNote(run.linesRead!, 'line') : ''}`, resume, hint);
}

/**
 * What a run cut short while it still copied or checked its input did (nothing sent), and the
 * command that continues it: the same one, which starts where this one would have (a --from-line
 * given stays). Its stdout is what a run cut short before its first answer leaves there: the
 * results, none. A dry run's stdout holds its plan or nothing, and there is nothing to continue.
 */
async function reportCutShortReading<R, A, P, Row>({ ctx, path, options, job, counts }: { ctx: LineRequestsContext; path: string; options: LineRequestOptions; job: LineRequests<R, A, P, Row>; counts: BulkCounts }): Promise<void> {
  if (ctx.dryRun) return;
  await resultWriter(ctx.io, await ctx.outputFormat('stream'), job.view).end().catch(unlessReaderGone);
  reportInterruption(ctx.io, `${interruptedRun(counts, 'line', '')}${STILL_READING}`, csafeCommandLine(ctx.argv), path === '-' ? sameStdinHint(options.fromLine) : undefined);
}

/** The check before anything is sent: every problem reported and counted; the valid lines, until the first invalid one. */
async function* refusingInvalid<R>(lines: AsyncIterable<CheckedLine<R>>, inputName: string, io: IOStreams, counts: BulkCounts): AsyncGenerator<[LineRequest<R>]> {
  for await (const line of lines) {
    counts.read++;
    if ('request' in line) {
      counts.valid++;
      if (counts.invalid === 0) yield [lineRequest(line)];
    } else {
      counts.invalid++;
      io.warn(problemLine(inputName, line));
    }
  }
}

/** --skip-invalid: the valid lines, as they are read; each invalid one reported and set aside. */
async function* settingAside<R>(lines: AsyncIterable<CheckedLine<R>>, run: { inputName: string; io: IOStreams; skipped: SkipFile; counts: BulkCounts }): AsyncGenerator<[LineRequest<R>]> {
  for await (const line of lines) {
    run.counts.read++;
    if ('request' in line) {
      run.counts.valid++;
      yield [lineRequest(line)];
    } else {
      // Numbered by its line, as the checkpoint numbers the lines answered.
      await setAside(run.skipped, run.inputName, { line: line.line, position: line.line, text: textOf(line.input), problem: line.problem }, run.io, run.counts);
    }
  }
}

const lineRequest = <R>(line: { line: number; input: unknown; request: R }): LineRequest<R> => ({ line: line.line, json: textOf(line.input), request: line.request });

/** A line as it was read: its text when it was not JSON, else its value as JSON. */
const textOf = (input: unknown) => (typeof input === 'string' ? input : JSON.stringify(input));

/**
 * The lines of this run, from `fromLine` on and of its shard, each with its request or its problem:
 * the reader's own (not JSON, …), or the command's check. Sharded by line number: every line has
 * one, so each worker reports the problems of its own lines only.
 */
async function* checkedLines<R>(
  records: AsyncIterable<JsonRecord>,
  run: { fromLine: number; shard: Shard | undefined; counts: BulkCounts; lastLine: number },
  job: Pick<LineRequests<R, unknown, unknown, unknown>, 'check' | 'checksAgainstEarlierLines'>,
): AsyncGenerator<CheckedLine<R>> {
  for await (const record of records) {
    run.lastLine = record.line;
    const ours = !inOtherShard(record, run.shard, (line) => `line:${line.line}`);
    if (!ours) run.counts.other_shards++;
    const due = ours && record.line >= run.fromLine;
    if (!due && !job.checksAgainstEarlierLines) continue;
    const checked: CheckedLine<R> = 'error' in record ? { line: record.line, input: record.text, problem: record.error } : { line: record.line, input: record.value, ...job.check(record.value, record.line) };
    if (due) yield checked;
  }
}

/**
 * What a line prints: the fields the command takes from the line, then the service's answer,
 * whose fields the line's do not name (an answer's field of the same name never hides the line's).
 */
export function lineWithAnswer<L extends Record<string, unknown>, A extends Record<string, unknown>>(line: L, answer: A): L & A {
  const printed: Record<string, unknown> = { ...line };
  for (const [key, value] of Object.entries(answer)) if (!Object.hasOwn(printed, key)) printed[key] = value;
  return printed as L & A;
}
