import { classifyContent, requestProblems } from '../../api/content.js';
import type { Context } from '../../context.js';
import { mapInOrder } from '../../core/concurrency.js';
import { CsafeError, stopsTheRun } from '../../core/errors.js';
import { problemLine, reportInvalid, setAside } from '../../core/checked-records.js';
import { defaultFailedPath, FailedFile } from '../../core/failed-file.js';
import type { IOStreams } from '../../core/io.js';
import { countOf, toNdjsonLine } from '../../core/output.js';
import type { JsonRecord } from '../../core/json-position.js';
import { inputSource, readRecords } from '../../core/readers.js';
import { formatShard, shardedName, shardRecords } from '../../core/shard.js';
import { startSpinner } from '../../core/spinner.js';
import { rereadableInput } from '../../core/spool.js';
import type { ContentRequest } from '../../schemas/content.js';
import { describeProblemWith } from '../../schemas/issues.js';
import { batchOutcome, type Outcome } from '../app.js';
import { failOnHolds, labelRows } from './labels.js';
import type { ClassifyOptions } from './options.js';

interface Job {
  line: number;
  input: unknown;
  request?: ContentRequest;
  problem?: string;
}

/** Where a line's missing required field can come from. */
const describeLineProblem = describeProblemWith({
  user_id: 'give --user-id or a "user_id" field on the line',
  content: 'give a "text" or "content" field on the line',
});

/**
 * Each line is a current-version request body, or the shorthand {text, user_id, content_id, metadata}.
 * Every line is checked before the first request: an invalid one is named and nothing is sent,
 * unless --skip-invalid sets it aside. Lines are classified with bounded concurrency; results go
 * to stdout as NDJSON in input order, tagged with their line; failed lines go to the --failed
 * file with their reason.
 */
export async function classifyBatch(ctx: Context, path: string, options: ClassifyOptions, defaultUserId: string | undefined): Promise<Outcome> {
  const checkFirst = options.skipInvalid === undefined;
  // Read twice (checked in full before anything is sent): stdin or a pipe is kept in a temporary file.
  const input = checkFirst ? await rereadableInput(path, ctx.io, ctx.signal) : undefined;
  const source = input?.source ?? inputSource(path, ctx.io.stdin, ctx.signal);
  // Sharded by line number: every line has one, so each worker checks and reports the problems of its own lines only.
  const jobs: Jobs = (tally) => toJobs(shardRecords(readRecords(source, { jsonLines: true }), options.shard, (record) => `line:${record.line}`, tally), defaultUserId, options);
  try {
    if (checkFirst) {
      const invalid = await reportInvalid(jobs({ otherShards: 0 }), source.name, ctx.io);
      if (invalid > 0) {
        ctx.io.warn(`nothing was sent: fix the ${countOf(invalid, 'invalid line')}, or pass --skip-invalid FILE to send the rest`);
        return { kind: 'checked', invalid };
      }
    }
    return await classifyLines(ctx, source.name, jobs, options);
  } finally {
    await input?.remove();
  }
}

/** The lines of this shard as jobs; `tally` counts those of other shards. */
type Jobs = (tally: { otherShards: number }) => AsyncIterable<Job>;

async function classifyLines(ctx: Context, inputName: string, jobsOf: Jobs, options: ClassifyOptions): Promise<Outcome> {
  const failed = new FailedFile(options.failed ?? defaultFailedPath(shardedName('classify', options.shard), ctx.now()));
  const skipped = options.skipInvalid === undefined ? undefined : new FailedFile(options.skipInvalid);
  const http = await ctx.http();
  const spinner = await startSpinner(ctx.io, 'Classifying…');
  const counts = { classified: 0, failed: 0, flagged: 0, otherShards: 0 };
  const jobs = jobsOf(counts);
  try {
    for await (const { item: job, outcome } of mapInOrder(sendable(jobs, inputName, ctx.io, skipped), options.concurrency, (job) => classifyContent(http, job.request!, options.apiVersion))) {
      if (outcome.ok) {
        counts.classified++;
        if (failOnHolds(labelRows(outcome.value), options.failOn)) counts.flagged++;
        await ctx.io.out(toNdjsonLine({ line: job.line, result: outcome.value }));
      } else {
        if (stopsTheRun(outcome.error)) throw outcome.error;
        counts.failed++;
        const reason = (outcome.error as Error).message;
        ctx.io.warn(`${inputName}:${job.line}: ${reason}`);
        await failed.append({ line: job.line, reason, input: job.input }, job.line);
      }
      spinner.update(`Classified ${counts.classified}, failed ${counts.failed}`);
    }
  } finally {
    spinner.stop();
    await failed.close();
    await skipped?.close();
  }
  const otherShards = options.shard === undefined ? '' : `; ${countOf(counts.otherShards, 'line')} of other shards (--shard ${formatShard(options.shard)})`;
  const failedNote = counts.failed > 0 ? `; ${counts.failed} failed, written to ${failed.path}` : '';
  const skippedNote = skipped?.count ? `; ${countOf(skipped.count, 'invalid line')} written to ${skipped.path}` : '';
  ctx.io.note(`classified ${counts.classified} lines${otherShards}${failedNote}${skippedNote}`);
  return batchOutcome({ sent: counts.classified, otherShards: counts.otherShards, failed: counts.failed, skipped: skipped?.count ?? 0, flagged: counts.flagged });
}

/**
 * The lines to send, in input order. An invalid one is set aside when there is a --skip-invalid
 * file; met without one, the input was checked first, so it changed since: the run stops.
 */
async function* sendable(jobs: AsyncIterable<Job>, inputName: string, io: IOStreams, skipped: FailedFile | undefined): AsyncGenerator<Job> {
  for await (const job of jobs) {
    if (job.problem === undefined) yield job;
    else if (skipped === undefined) throw new CsafeError(`${problemLine(inputName, { line: job.line, problem: job.problem })}: the input changed after it was checked; nothing more was sent`);
    else await setAside(skipped, inputName, { line: job.line, text: textOf(job.input), problem: job.problem }, io);
  }
}

/** A line as it was read: its text when it was not JSON, else its value as JSON. */
const textOf = (input: unknown) => (typeof input === 'string' ? input : JSON.stringify(input));

async function* toJobs(lines: AsyncIterable<JsonRecord>, defaultUserId: string | undefined, options: ClassifyOptions): AsyncGenerator<Job> {
  for await (const record of lines) {
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
