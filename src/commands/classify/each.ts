import { classifyContent, requestProblems } from '../../api/content.js';
import type { Context } from '../../context.js';
import { mapInOrder } from '../../core/bulk/concurrency.js';
import { AuthenticationError, CsafeError, InputError, InterruptedError, PermissionDeniedError, UsageError } from '../../core/errors.js';
import { interruptionOf } from '../../core/signals.js';
import { parseMetadata } from '../../core/input/json-flags.js';
import { resultWriter } from '../../core/terminal/output.js';
import { startSpinner } from '../../core/terminal/spinner.js';
import { countOf } from '../../core/terminal/words.js';
import { CONTENT_LIMITS, type ContentRequest } from '../../schemas/content.js';
import { batchOutcome, type Outcome } from '../app.js';
import { failOnHolds, labelRows } from './labels.js';
import type { ClassifyOptions } from './options.js';
import { describeForFiles, partsFromFiles } from './parts.js';
import { fileResultsView } from './render.js';

// `csafe classify --each FILE…`: one request per file, as `clamscan *` or `file *` answer per
// file: each file's labels under its name, in the order given, --concurrency requests at once.

export async function classifyEach(ctx: Context, files: readonly string[], options: ClassifyOptions, userId: string): Promise<Outcome> {
  if (files.length === 0) throw new UsageError('--each classifies the files named, one request each: give them');
  if (files.includes('-')) throw new UsageError('--each classifies files one request each; stdin (-) is one input: leave out --each to classify it');
  const metadata = await parseMetadata(options.metadata, { stdin: ctx.io.stdin, maxBytes: CONTENT_LIMITS.requestBytes, signal: ctx.signal });
  const requestOf = async (file: string): Promise<ContentRequest> => ({
    content: (await partsFromFiles([file], ctx.io.stdin, ctx.signal)).map((p) => p.part),
    user_id: userId,
    ...(metadata && { metadata }),
  });
  await refuseInvalidFiles(files, requestOf, options);

  const format = await ctx.outputFormat('stream');
  const http = await ctx.http();
  if (ctx.dryRun) {
    // One request a file: the HTTP core records the first in place of sending it, and ends the run.
    ctx.dryRun.total = { requests: files.length, records: { count: files.length, noun: 'file' } };
    await classifyContent(http, await requestOf(files[0]!), options.apiVersion);
  }
  const spinner = await startSpinner(ctx.io, `Classifying ${countOf(files.length, 'file')}…`);
  const results = resultWriter(ctx.io, format, fileResultsView);
  let done = 0;
  let failed = 0;
  let flagged = 0;
  try {
    // Each file is read again as its request starts: memory holds the files in flight, not all of them.
    const answers = mapInOrder(files, options.concurrency, async (file) => classifyContent(http, await requestOf(file), options.apiVersion));
    for await (const { item: file, outcome } of answers) {
      spinner.update(`Classified ${++done} of ${countOf(files.length, 'file')}`);
      if (!outcome.ok) {
        // A refused key refuses every file, and Ctrl-C or SIGTERM ends the run: stop, as every bulk command does.
        if (ctx.signal.aborted) throw interruptionOf(ctx.signal);
        if (outcome.error instanceof AuthenticationError || outcome.error instanceof PermissionDeniedError || outcome.error instanceof InterruptedError) throw outcome.error;
        failed++;
        ctx.io.warn(`${file}: ${outcome.error instanceof CsafeError ? outcome.error.message : String(outcome.error)}`);
        continue;
      }
      if (failOnHolds(labelRows(outcome.value), options.failOn)) flagged++;
      await results.print({ file, ...outcome.value });
    }
  } finally {
    spinner.stop();
    // What was answered before the run stopped is printed all the same: those files were classified.
    await results.end();
  }
  return batchOutcome({ sent: files.length - failed, failed, flagged });
}

/**
 * Every file read and checked before the first request, each problem named (a file that cannot be
 * read as much as one the service would refuse): one such file, and nothing is sent.
 */
async function refuseInvalidFiles(files: readonly string[], requestOf: (file: string) => Promise<ContentRequest>, options: ClassifyOptions): Promise<void> {
  const problems: string[] = [];
  for (const file of files) {
    let request: ContentRequest;
    try {
      request = await requestOf(file);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(error.message.replace(/; nothing was sent$/, ''));
      continue;
    }
    const origin = [{ origin: file, part: request.content[0]! }];
    problems.push(...requestProblems(request, options.apiVersion).map((problem) => describeForFiles(problem, origin)));
  }
  if (problems.length > 0) throw new InputError(`${problems.join('\n')}\nnothing was sent`);
}
