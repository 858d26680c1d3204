import { classifyContent, requestProblems, type ClassifyResponse } from '../../api/content.js';
import type { Context } from '../../context.js';
import { bulkRun, deliverInBatches, type BulkJob, type Delivered } from '../../core/bulk/engine.js';
import { emptyCounts, type BulkCounts } from '../../core/bulk/counts.js';
import { RangeCheckpoint, unacknowledged } from '../../core/bulk/range-checkpoint.js';
import { nothingSentLine, problemLine, setAside } from '../../core/bulk/checked-records.js';
import { spooledRecords, spoolRecords, type SpoolFormat } from '../../core/bulk/record-spool.js';
import { MAX_LINE_BYTES } from '../../core/input/lines.js';
import { haltLine } from '../../core/bulk/fail-fast.js';
import { FailedFile } from '../../core/files/failed-file.js';
import { defaultFailedPath } from '../../core/files/failed-path.js';
import type { IOStreams } from '../../core/terminal/io.js';
import { resultWriter } from '../../core/terminal/output.js';
import { countOf } from '../../core/terminal/words.js';
import type { JsonRecord } from '../../core/json/position.js';
import { readRecords } from '../../core/input/sources.js';
import { refuseSharedFiles } from '../../core/files/distinct-files.js';
import { otherShardsNote, shardedName, shardRecords } from '../../core/bulk/shard.js';
import { csafeCommandLine, withFlag } from '../../core/cli/command-line.js';
import { interruptedRun, reportInterruption } from '../../core/cli/resume.js';
import { interruptionOf } from '../../core/signals.js';
import { startSpinner } from '../../core/terminal/spinner.js';
import { inputToRead } from '../../core/input/spool.js';
import type { ContentRequest } from '../../schemas/content.js';
import { describeProblemWith } from '../../schemas/issues.js';
import { batchOutcome, type Outcome } from '../app.js';
import { failOnHolds, labelRows } from './labels.js';
import type { ClassifyOptions } from './options.js';
import { lineResultsView } from './render.js';

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
  // Fingerprinted for the checkpoint: stdin or a pipe is kept in a temporary file.
  const input = await inputToRead(path, ctx.io, ctx.signal, options.checkpoint !== undefined);
  const { source } = input;
  const counts = emptyCounts();
  // Sharded by line number: every line has one, so each worker checks and reports the problems of its own lines only.
  const jobs = toJobs(shardRecords(readRecords(source, { jsonLines: true }), options.shard, (record) => `line:${record.line}`, counts), defaultUserId, options);
  const batchInput = { path, name: source.name, file: input.path };
  try {
    if (options.skipInvalid !== undefined) {
      const skipped = new FailedFile(options.skipInvalid);
      try {
        return await classifyLines(ctx, batchInput, { lines: settingAside(jobs, { inputName: source.name, io: ctx.io, skipped, counts }), counts, skipped }, options);
      } finally {
        await skipped.close();
      }
    }
    // Every line is checked, and kept as it will be sent, before the first request.
    const spool = await spoolRecords(checkedLines(jobs, source.name, ctx.io, counts), LINE_SPOOL, ctx.signal);
    try {
      if (ctx.signal.aborted) throw interruptionOf(ctx.signal);
      if (counts.invalid > 0) {
        ctx.io.warn(nothingSentLine(counts.invalid, 'invalid line'));
        return { kind: 'checked', invalid: counts.invalid };
      }
      return await classifyLines(ctx, batchInput, { lines: spooledRecords(spool.path, LINE_SPOOL), counts, skipped: undefined }, options);
    } finally {
      await spool.remove();
    }
  } finally {
    await input.remove();
  }
}

/** A line as the spool keeps it: `line TAB request TAB the line as read` (JSON text holds no raw tab or newline). */
const LINE_SPOOL: SpoolFormat<ClassifyLine> = {
  encode: (line) => `${line.line}\t${JSON.stringify(line.request)}\t${line.json}`,
  decode(text) {
    const lineEnd = text.indexOf('\t');
    const requestEnd = text.indexOf('\t', lineEnd + 1);
    return { line: Number(text.slice(0, lineEnd)), request: JSON.parse(text.slice(lineEnd + 1, requestEnd)) as ContentRequest, json: text.slice(requestEnd + 1) };
  },
  // A request and the line it came from, each at most 6 bytes for each character of a line of at most MAX_LINE_BYTES (core/bulk/checked-records).
  maxLineBytes: 16 * MAX_LINE_BYTES,
};

/** The lines to classify, checked, with their counts, and the --skip-invalid file. */
interface LinesToClassify {
  lines: AsyncIterable<readonly ClassifyLine[]>;
  counts: BulkCounts;
  skipped: FailedFile | undefined;
}

/** The input as given (`path`), as messages name it, and the file that holds it (a copy of stdin), which a checkpoint fingerprints. */
interface BatchInput {
  path: string;
  name: string;
  file: string;
}

async function classifyLines(ctx: Context, input: BatchInput, toClassify: LinesToClassify, options: ClassifyOptions): Promise<Outcome> {
  const { counts, skipped } = toClassify;
  const failed = new FailedFile(options.failed ?? defaultFailedPath(shardedName('classify', options.shard), ctx.now()));
  const format = await ctx.outputFormat('stream');
  // Printed as each line is answered (a table once, when the run ends however it ends).
  const results = resultWriter(ctx.io, format, lineResultsView);
  const http = await ctx.http();
  const checkpoint = options.checkpoint === undefined
    ? undefined
    : await RangeCheckpoint.open({ path: options.checkpoint, inputPath: input.file, inputName: input.name, what: 'a csafe classify --batch checkpoint', identity: {}, shard: options.shard, now: () => ctx.now() });
  const spinner = await startSpinner(ctx.io, 'Classifying…');
  let flagged = 0;
  // Results are settled in input order: every line up to this one is classified or in the failed file.
  let lastDone = options.fromLine - 1;
  const job: BulkJob<ClassifyLine, ClassifyResponse> = {
    noun: 'line',
    inputName: input.name,
    sentAlone: true,
    send: ([line]) => classifyContent(http, line!.request, options.apiVersion, true),
    // Classifying stores nothing: a line whose answer was lost is classified again.
    replaySafe: () => true,
    async acknowledged([line], result) {
      lastDone = line!.line;
      checkpoint?.acknowledge(line!.line, line!.line);
      if (failOnHolds(labelRows(result), options.failOn)) flagged++;
      await results.print({ line: line!.line, result });
    },
    notAcknowledged: ([line]) => void (lastDone = line!.line),
  };
  const run = bulkRun(ctx, http, options, { counts, failed, checkpoint, onProgress: () => spinner.update(`Classified ${counts.sent}, failed ${counts.failed}`) });
  let delivered: Delivered | undefined;
  try {
    delivered = await deliverInBatches(unacknowledged(toClassify.lines, checkpoint && ((line) => checkpoint.isAcknowledged(line.line)), counts), ONE_LINE_A_REQUEST, { concurrency: options.concurrency, window: options.concurrency * REORDER_WINDOW }, job, run);
  } finally {
    spinner.stop();
    try {
      await failed.close();
      // When the run stopped, the error that stopped it is the one to report.
      await (delivered !== undefined ? checkpoint?.close() : checkpoint?.close().catch(() => undefined));
    } finally {
      // Last: a reader of stdout gone (`| head`) must not keep the checkpoint from being saved.
      await results.end();
    }
  }
  if (delivered.interrupted) {
    reportResume(ctx, { path: input.path, next: lastDone + 1, counts, failedPath: failed.path, checkpoint: options.checkpoint !== undefined });
    throw interruptionOf(ctx.signal);
  }
  const otherShards = otherShardsNote(counts.other_shards, 'line', options.shard);
  const done = counts.skipped_checkpoint > 0 ? `; ${countOf(counts.skipped_checkpoint, 'line')} skipped by checkpoint` : '';
  const failedNote = counts.failed > 0 ? `; ${counts.failed} failed, written to ${failed.path}` : '';
  const skippedNote = skipped?.count ? `; ${countOf(skipped.count, 'invalid line')} written to ${skipped.path}` : '';
  ctx.io.note(`classified ${countOf(counts.sent, 'line')}${done}${otherShards}${failedNote}${skippedNote}`);
  const { stoppedBy } = delivered;
  if (stoppedBy) ctx.io.warn(haltLine(stoppedBy, failed.path));
  return batchOutcome({ sent: counts.sent, done: counts.skipped_checkpoint, otherShards: counts.other_shards, failed: counts.failed, skipped: skipped?.count ?? 0, flagged, stoppedBy });
}

/** A line to classify: its request, and its text as read (what the failed file keeps, to be classified again). */
interface ClassifyLine {
  line: number;
  json: string;
  request: ContentRequest;
}

const ONE_LINE_A_REQUEST = { maxItems: 1, maxBytes: Number.POSITIVE_INFINITY, sizeOf: () => 0 };

/**
 * What an interrupted run did, and the command that continues it: with --checkpoint the same
 * one, which skips the lines answered; without, the same one from the first line not done
 * (--from-line), its failures going to the same file. The results on stdout are the record of
 * what was done, so the next run only needs where to start.
 */
function reportResume(ctx: Context, run: { path: string; next: number; counts: BulkCounts; failedPath: string; checkpoint: boolean }): void {
  const { counts } = run;
  const done = interruptedRun(counts, 'line', run.failedPath);
  if (run.checkpoint) {
    reportInterruption(ctx.io, done, csafeCommandLine(ctx.argv), 'it skips the lines already answered: append its output (>>) to this run\'s');
    return;
  }
  const resume = csafeCommandLine(withFlag(withFlag(ctx.argv, '--from-line', String(run.next)), '--failed', run.failedPath));
  const hint = run.path === '-' ? `give it the same input on stdin: the lines before ${run.next} are skipped` : undefined;
  reportInterruption(ctx.io, `${done}; line ${run.next} on not done`, resume, hint);
}

/** The check before anything is sent: every problem reported and counted; the valid lines, until the first invalid one. */
async function* checkedLines(jobs: AsyncIterable<Job>, inputName: string, io: IOStreams, counts: BulkCounts): AsyncGenerator<[ClassifyLine]> {
  for await (const job of jobs) {
    counts.read++;
    if (job.problem === undefined) {
      counts.valid++;
      if (counts.invalid === 0) yield [classifyLine(job)];
    } else {
      counts.invalid++;
      io.warn(problemLine(inputName, { line: job.line, problem: job.problem }));
    }
  }
}

/** --skip-invalid: the valid lines, as they are read; each invalid one reported and set aside. */
async function* settingAside(jobs: AsyncIterable<Job>, run: { inputName: string; io: IOStreams; skipped: FailedFile; counts: BulkCounts }): AsyncGenerator<[ClassifyLine]> {
  for await (const job of jobs) {
    run.counts.read++;
    if (job.problem === undefined) {
      run.counts.valid++;
      yield [classifyLine(job)];
    } else {
      run.counts.invalid++;
      await setAside(run.skipped, run.inputName, { line: job.line, text: textOf(job.input), problem: job.problem }, run.io);
    }
  }
}

const classifyLine = (job: Job): ClassifyLine => ({ line: job.line, json: textOf(job.input), request: job.request! });

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
