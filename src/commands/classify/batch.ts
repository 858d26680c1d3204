import { classifyContent, requestProblems } from '../../api/content.js';
import type { Context } from '../../context.js';
import { mapInOrder } from '../../core/bulk/concurrency.js';
import { InterruptedError, stopsTheRun } from '../../core/errors.js';
import { reportInvalid, setAsideOrStop } from '../../core/bulk/checked-records.js';
import { FailFast, haltLine } from '../../core/bulk/fail-fast.js';
import { Pace } from '../../core/bulk/pace.js';
import { InFlight } from '../../core/bulk/in-flight.js';
import { FailedFile } from '../../core/files/failed-file.js';
import { defaultFailedPath } from '../../core/files/failed-path.js';
import type { IOStreams } from '../../core/terminal/io.js';
import { toNdjsonLine } from '../../core/terminal/output.js';
import { countOf } from '../../core/terminal/words.js';
import type { JsonRecord } from '../../core/json/position.js';
import { readRecords } from '../../core/input/sources.js';
import { refuseSharedFiles } from '../../core/files/distinct-files.js';
import { otherShardsNote, shardedName, shardRecords } from '../../core/bulk/shard.js';
import { csafeCommandLine, withFlag } from '../../core/cli/command-line.js';
import { failedFileNote, reportInterruption, sayAwaitedAnswersOnInterrupt } from '../../core/cli/resume.js';
import { interruptionOf } from '../../core/signals.js';
import { startSpinner } from '../../core/terminal/spinner.js';
import { inputToRead } from '../../core/input/spool.js';
import type { ContentRequest } from '../../schemas/content.js';
import { describeProblemWith } from '../../schemas/issues.js';
import { batchOutcome, type Outcome } from '../app.js';
import { failOnHolds, labelRows } from './labels.js';
import type { ClassifyOptions } from './options.js';
import { lineLabels, printLineLabels, type LineLabel } from './render.js';

// `csafe classify --batch`: classifies each line of a file as a request of its own, several in flight,
// printing results in input order.

interface Job {
  line: number;
  input: unknown;
  request?: ContentRequest;
  problem?: string;
}

/**
 * How far, in multiples of --concurrency, sending may run ahead of the oldest line not yet
 * printed: the lines after a slow one (a retry, say) keep every slot busy while their results
 * wait to be printed in input order. Past it, reading pauses until the slow line is answered.
 */
const REORDER_WINDOW = 8;

/** Where a line's missing required field can come from. */
const describeLineProblem = describeProblemWith({
  user_id: 'give --user-id or a "user_id" field on the line',
  content: 'give a "text" or "content" field on the line',
});

/**
 * Each line is a current-version request body, or the shorthand {text, user_id, content_id, metadata}.
 * Every line is checked before the first request: an invalid one is named and nothing is sent,
 * unless --skip-invalid sets it aside. Lines are classified with bounded concurrency; results go
 * to stdout in input order, tagged with their line: as NDJSON in a pipe, or on a terminal (and
 * with -o table or tsv) as one table of labels at the end; failed lines go to the --failed file
 * with their reason.
 */
export async function classifyBatch(ctx: Context, path: string, options: ClassifyOptions, defaultUserId: string | undefined): Promise<Outcome> {
  refuseSharedFiles(path, options);
  const checkFirst = options.skipInvalid === undefined;
  // Read twice (checked in full before anything is sent): stdin or a pipe is kept in a temporary file.
  const input = await inputToRead(path, ctx.io, ctx.signal, checkFirst);
  const { source } = input;
  // Sharded by line number: every line has one, so each worker checks and reports the problems of its own lines only.
  const jobs: Jobs = (tally) => toJobs(shardRecords(readRecords(source, { jsonLines: true }), options.shard, (record) => `line:${record.line}`, tally), defaultUserId, options);
  try {
    if (checkFirst) {
      const invalid = await reportInvalid(jobs({ otherShards: 0 }), source.name, ctx.io, 'invalid line');
      if (invalid > 0) return { kind: 'checked', invalid };
    }
    return await classifyLines(ctx, { path, name: source.name }, jobs, options);
  } finally {
    await input.remove();
  }
}

/** The lines of this shard as jobs; `tally` counts those of other shards. */
type Jobs = (tally: { otherShards: number }) => AsyncIterable<Job>;

async function classifyLines(ctx: Context, input: { path: string; name: string }, jobsOf: Jobs, options: ClassifyOptions): Promise<Outcome> {
  const failed = new FailedFile(options.failed ?? defaultFailedPath(shardedName('classify', options.shard), ctx.now()));
  const skipped = options.skipInvalid === undefined ? undefined : new FailedFile(options.skipInvalid);
  const format = await ctx.outputFormat('stream');
  // A table is aligned over all its rows, so it is printed once, when the run ends however it ends.
  const table: LineLabel[] | undefined = format === 'table' || format === 'tsv' ? [] : undefined;
  const http = await ctx.http();
  const failFast = new FailFast(options.maxConsecutiveFailures, http.baseUrl, new Pace(options.maxRate, ctx));
  const spinner = await startSpinner(ctx.io, 'Classifying…');
  const counts = { classified: 0, failed: 0, flagged: 0, otherShards: 0 };
  // Results come in input order: every line up to this one is classified or in the failed file.
  let lastDone = options.fromLine - 1;
  let interrupted = false;
  const jobs = sendable(jobsOf(counts), input.name, ctx.io, skipped, ctx.signal);
  const inFlight = new InFlight();
  const stopListening = sayAwaitedAnswersOnInterrupt(ctx.signal, ctx.io, inFlight);
  try {
    const classify = (job: Job) => inFlight.run(() => failFast.send(() => classifyContent(http, job.request!, options.apiVersion, true)));
    for await (const { item: job, outcome } of mapInOrder(jobs, options.concurrency, classify, options.concurrency * REORDER_WINDOW)) {
      if (outcome.ok) {
        counts.classified++;
        if (failOnHolds(labelRows(outcome.value), options.failOn)) counts.flagged++;
        if (table) table.push(...lineLabels(job.line, labelRows(outcome.value)));
        else await ctx.io.out(toNdjsonLine({ line: job.line, result: outcome.value }));
      } else {
        if (stopsTheRun(outcome.error) && !failFast.isStop(outcome.error)) throw outcome.error;
        counts.failed++;
        const reason = (outcome.error as Error).message;
        // Once the run halts (the service unreachable, the key refused) every later line fails alike: the halt is said once, at the end.
        if (!failFast.isStop(outcome.error)) ctx.io.warn(`${input.name}:${job.line}: ${reason}`);
        await failed.append({ line: job.line, reason, input: job.input }, job.line);
      }
      lastDone = job.line;
      spinner.update(`Classified ${counts.classified}, failed ${counts.failed}`);
    }
    interrupted = ctx.signal.aborted;
  } catch (error) {
    if (!(error instanceof InterruptedError)) throw error;
    interrupted = true;
  } finally {
    stopListening();
    spinner.stop();
    await failed.close();
    await skipped?.close();
    if (table) await printLineLabels(ctx.io, format, table);
  }
  if (interrupted) {
    reportResume(ctx, { path: input.path, next: lastDone + 1, counts, failedPath: failed.path });
    throw interruptionOf(ctx.signal);
  }
  const otherShards = otherShardsNote(counts.otherShards, 'line', options.shard);
  const failedNote = counts.failed > 0 ? `; ${counts.failed} failed, written to ${failed.path}` : '';
  const skippedNote = skipped?.count ? `; ${countOf(skipped.count, 'invalid line')} written to ${skipped.path}` : '';
  ctx.io.note(`classified ${countOf(counts.classified, 'line')}${otherShards}${failedNote}${skippedNote}`);
  if (failFast.stoppedBy) ctx.io.warn(haltLine(failFast.stoppedBy, failed.path));
  return batchOutcome({ sent: counts.classified, otherShards: counts.otherShards, failed: counts.failed, skipped: skipped?.count ?? 0, flagged: counts.flagged, stoppedBy: failFast.stoppedBy });
}

/**
 * What an interrupted run did, and the same command from the first line not done (--from-line),
 * its failures going to the same file. --batch has no checkpoint: the results on stdout are the
 * record of what was done, so the next run only needs where to start.
 */
function reportResume(ctx: Context, run: { path: string; next: number; counts: { classified: number; failed: number }; failedPath: string }): void {
  const { counts } = run;
  const failedNote = failedFileNote(counts.failed, run.failedPath);
  const resume = csafeCommandLine(withFlag(withFlag(ctx.argv, '--from-line', String(run.next)), '--failed', run.failedPath));
  const hint = run.path === '-' ? `give it the same input on stdin: the lines before ${run.next} are skipped` : undefined;
  reportInterruption(ctx.io, `${countOf(counts.classified, 'line')} classified, ${counts.failed} failed${failedNote}; line ${run.next} on not done`, resume, hint);
}

/**
 * The lines to send, in input order. An invalid one is set aside when there is a --skip-invalid
 * file; met without one, the input was checked first, so it changed since: the run stops.
 * Ctrl-C ends them without an error: the lines in flight finish (their requests are not cut off)
 * and are printed, so the command printed to continue classifies none of them again.
 */
async function* sendable(jobs: AsyncIterable<Job>, inputName: string, io: IOStreams, skipped: FailedFile | undefined, signal: AbortSignal): AsyncGenerator<Job> {
  try {
    for await (const job of jobs) {
      if (signal.aborted) return;
      if (job.problem === undefined) yield job;
      else await setAsideOrStop({ line: job.line, text: textOf(job.input), problem: job.problem }, inputName, io, skipped);
    }
  } catch (error) {
    if (!(error instanceof InterruptedError)) throw error;
  }
}

/** A line as it was read: its text when it was not JSON, else its value as JSON. */
const textOf = (input: unknown) => (typeof input === 'string' ? input : JSON.stringify(input));

async function* toJobs(lines: AsyncIterable<JsonRecord>, defaultUserId: string | undefined, options: ClassifyOptions): AsyncGenerator<Job> {
  for await (const record of lines) {
    if (record.line < options.fromLine) continue;
    if ('error' in record) {
      yield { line: record.line, input: record.text, problem: record.error };
      continue;
    }
    const request = toRequest(record.value, defaultUserId);
    const problems = requestProblems(request, options.apiVersion);
    yield problems.length > 0
      ? { line: record.line, input: record.value, problem: problems.map(describeLineProblem).join('; ') }
      : { line: record.line, input: record.value, request };
  }
}

/** Expands the shorthand and fills user_id from --user-id or config; validation happens after. */
function toRequest(value: unknown, defaultUserId: string | undefined): ContentRequest {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value as ContentRequest;
  const record = value as Record<string, unknown>;
  const withUser = record.user_id === undefined && defaultUserId !== undefined ? { ...record, user_id: defaultUserId } : record;
  if (withUser.content !== undefined || typeof withUser.text !== 'string') return withUser as ContentRequest;
  const { text, ...rest } = withUser;
  return { ...rest, content: [{ type: 'text', text }] } as ContentRequest;
}
