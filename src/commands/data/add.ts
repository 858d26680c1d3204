import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { CsafeError, ExitCode, UsageError } from '../../core/errors.js';
import { defaultFailedPath, FailedFile } from '../../core/failed-file.js';
import type { IOStreams } from '../../core/io.js';
import { parseOptions } from '../../core/options.js';
import { countOf, printResult, renderTable, type OutputFormat } from '../../core/output.js';
import { inputSource, readRecords, type InputSource } from '../../core/readers.js';
import { startSpinner } from '../../core/spinner.js';
import { spooledSource, spoolToTempFile } from '../../core/spool.js';
import { positional, type App } from '../app.js';
import { parseNamespace } from '../namespace.js';
import { addOptionsSchema, type AddOptions } from './add-options.js';
import { deliverObjects, type AcceptedRequest, type AddDelivery } from './deliver.js';
import { checkObjects, problemLine, type CheckedObject, type SendableObject } from './objects.js';
import { describeFailure, objectLines, printObjects } from './shared/render.js';
import { waitForRequests, waitTimeoutMs } from './shared/wait.js';

export function registerDataAdd(group: Command, app: App): void {
  group
    .command('add')
    .description('Add objects to a namespace in batches (POST /v1/data/{namespace}); with --wait, print each object\'s labels')
    .argument('<namespace>', 'the namespace (created on first use)')
    .argument('[file]', 'JSON Lines, a JSON array, or one JSON object, each object with a string "id"; `-` reads stdin')
    .option('--batch-size <n>', 'objects per request', '100')
    .option('--max-batch-bytes <n>', 'bytes per request, at most 6000000', '5000000')
    .option('--concurrency <n>', 'requests in flight', '4')
    .option('--failed <file>', 'append objects of batches that could not be sent (default csafe-data-add-failed-<time>.jsonl)')
    .option('--skip-invalid <file>', 'send the valid objects; append each invalid record here as {line, error, record} (default: send nothing if any is invalid)')
    .option('--wait', 'wait until every request has finished, then print each object with its labels and url')
    .option('--timeout <duration>', 'with --wait: how long to wait, e.g. 30m (default: for ever); the timeout of each request goes before the command')
    .addHelpText('after', `
Every object is checked before the first request; an invalid one is named as file:line: field.
Prints one record per request (request id, status, objects, first and last line); with --wait,
one per object instead. Exit codes: 0 all added, 1 a request ended failed (or nothing could be
sent), 2 invalid input (nothing sent), 5 some batches failed (written to the failed file),
124 --wait timed out, 130 interrupted (the pending request ids are printed).

Examples:
  csafe data add listings items.jsonl --wait
  cat items.json | csafe data add listings - --batch-size 500
  csafe data add listings items.jsonl --wait --timeout 10m -o ndjson`)
    .action(app.action(async (ctx, command) => {
      const options = parseOptions(addOptionsSchema, command.opts());
      const [namespace, file] = positional(command) as [string, string | undefined];
      if (file === undefined && ctx.io.stdinIsTTY) throw new UsageError('no input: give a FILE, or `-` to read stdin');
      return dataAddRun(ctx, parseNamespace(namespace), file ?? '-', options);
    }));
}

export async function dataAddRun(ctx: Context, namespace: string, path: string, options: AddOptions): Promise<number> {
  const waitMs = waitTimeoutMs(options);
  const format = await ctx.outputFormat('table');
  const checkFirst = options.skipInvalid === undefined;
  // Checked in full before anything is sent, so stdin (read once) is kept in a temporary file in between.
  const spool = path === '-' && checkFirst ? await spoolToTempFile(ctx.io.stdin, ctx.signal) : undefined;
  const source = spool ? spooledSource(spool) : inputSource(path, ctx.io.stdin);
  try {
    if (checkFirst) {
      const invalid = await reportInvalid(source, options, ctx.io);
      if (invalid > 0) {
        ctx.io.warn(`nothing was sent: fix the ${countOf(invalid, 'invalid record')}, or pass --skip-invalid FILE to send the rest`);
        return ExitCode.usage;
      }
    }
    const { accepted, failed } = await addObjects(ctx, namespace, source, options, format);
    if (options.wait && accepted.length > 0) {
      const records = await waitForRequests(ctx, namespace, accepted.map((r) => r.request_id), { timeoutMs: waitMs, concurrency: options.concurrency });
      await printObjects(ctx.io, format, objectLines(records));
      const failures = records.filter((r) => r.status === 'failed');
      for (const record of failures) ctx.io.warn(describeFailure(record));
      if (failures.length > 0) return ExitCode.failure;
    }
    if (failed > 0) return accepted.length > 0 ? ExitCode.partial : ExitCode.failure;
    return ExitCode.ok;
  } finally {
    await spool?.remove();
  }
}

/** The checking pass: prints every problem as file:line: field: expected …; returns how many records have one. */
async function reportInvalid(source: InputSource, options: AddOptions, io: IOStreams): Promise<number> {
  let invalid = 0;
  for await (const object of checkObjects(readRecords(source), options.maxBatchBytes)) {
    if ('json' in object) continue;
    invalid++;
    io.warn(problemLine(source.name, object));
  }
  return invalid;
}

async function addObjects(ctx: Context, namespace: string, source: InputSource, options: AddOptions, format: OutputFormat) {
  const failed = new FailedFile(options.failed ?? defaultFailedPath('data-add', ctx.now()));
  const invalid = options.skipInvalid === undefined ? undefined : new FailedFile(options.skipInvalid);
  const progress = await startSpinner(ctx.io, 'Adding objects…');
  const delivery: AddDelivery = { http: await ctx.http(), io: ctx.io, namespace, inputName: source.name, options, failed, progress, accepted: [] };
  const objects = sendable(checkObjects(readRecords(source), options.maxBatchBytes), source.name, ctx.io, invalid);
  let completed = false;
  try {
    await deliverObjects(objects, delivery);
    completed = true;
  } finally {
    progress.stop();
    await failed.close();
    await invalid?.close();
    // Accepted requests are printed even when the run stops part-way: they are what a user follows up.
    if (!options.wait || !completed) await printRequests(ctx.io, format, delivery.accepted);
    if (!completed && delivery.accepted.length > 0) {
      ctx.io.warn(`stopped: only the ${countOf(delivery.accepted.length, 'request')} printed were accepted, later objects were not sent; follow one with \`csafe data status ${namespace} REQUEST_ID --wait\``);
    }
  }
  const sent = delivery.accepted.reduce((total, r) => total + r.objects, 0);
  ctx.io.note(`added ${countOf(sent, 'object')} to ${namespace} in ${countOf(delivery.accepted.length, 'request')}` + (invalid?.count ? `; ${countOf(invalid.count, 'invalid record')} written to ${invalid.path}` : ''));
  if (failed.count > 0) ctx.io.warn(`${countOf(failed.count, 'object')} of failed batches written to ${failed.path}: resend them with \`csafe data add ${namespace} ${failed.path}\``);
  return { accepted: delivery.accepted, failed: failed.count };
}

/** Objects to send; with --skip-invalid the others go to its file, without it they were refused by the checking pass already. */
async function* sendable(objects: AsyncIterable<CheckedObject>, inputName: string, io: IOStreams, invalid?: FailedFile): AsyncGenerator<SendableObject> {
  for await (const object of objects) {
    if ('json' in object) {
      yield object;
    } else if (invalid === undefined) {
      throw new CsafeError(`${problemLine(inputName, object)}: the input changed after it was checked; nothing more was sent`);
    } else {
      io.warn(problemLine(inputName, object));
      await invalid.append({ line: object.line, error: object.problem, record: object.text });
    }
  }
}

const REQUEST_COLUMNS = [
  { header: 'REQUEST ID', value: (r: AcceptedRequest) => r.request_id },
  { header: 'STATUS', value: (r: AcceptedRequest) => r.status },
  { header: 'OBJECTS', value: (r: AcceptedRequest) => String(r.objects) },
  { header: 'FIRST LINE', value: (r: AcceptedRequest) => String(r.first_line) },
  { header: 'LAST LINE', value: (r: AcceptedRequest) => String(r.last_line) },
];

/** One record per accepted request; no table at all when none was. */
async function printRequests(io: IOStreams, format: OutputFormat, accepted: readonly AcceptedRequest[]): Promise<void> {
  if (format === 'table' && accepted.length === 0) return;
  await printResult(io, format, accepted, () => renderTable(accepted, REQUEST_COLUMNS, io));
}
