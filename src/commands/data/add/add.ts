import type { Readable } from 'node:stream';
import type { Context } from '../../../context.js';
import type { HttpClient } from '../../../core/http/client.js';
import { UsageError } from '../../../core/errors.js';
import { checkRecord, deliveredEarlier, nothingSentLine, problemLine, problemOfRecord, setAside, SkipFile } from '../../../core/bulk/checked-records.js';
import { spoolRecords, type SpoolFormat } from '../../../core/bulk/record-spool.js';
import { MAX_LINE_BYTES } from '../../../core/input/lines.js';
import { haltLine } from '../../../core/bulk/fail-fast.js';
import { FailedFile } from '../../../core/files/failed-file.js';
import { defaultFailedPath } from '../../../core/files/failed-path.js';
import { unlessReaderGone, type IOStreams } from '../../../core/terminal/io.js';
import { parseFlags } from '../../../core/cli/options.js';
import { refuseSharedFiles } from '../../../core/files/distinct-files.js';
import { resultWriter, type OutputFormat, type StreamView } from '../../../core/terminal/output.js';
import { countOf } from '../../../core/terminal/words.js';
import type { ReadRecord } from '../../../core/input/json-records.js';
import type { ObjectLines } from '../../../core/json/scan.js';
import { fileOrStdin, readAcceptedRecordBatches, type InputSource } from '../../../core/input/sources.js';
import { inOtherShard, otherShardsNote, shardedName } from '../../../core/bulk/shard.js';
import { csafeCommandLine, sameServiceCommand, shellWord } from '../../../core/cli/command-line.js';
import { inputCutShortNote, inputReadInPart, interruptedRun, reportedIfInterrupted, reportInterruption, resendCommandLine, resendHint, sameStdinHint, STILL_READING, wholeInputAgain } from '../../../core/cli/resume.js';
import { interruptionOf } from '../../../core/signals.js';
import { startSpinner } from '../../../core/terminal/spinner.js';
import { inputToRead } from '../../../core/input/spool.js';
import { batchOutcome, positional, type Outcome } from '../../app.js';
import { parseNamespace } from '../../namespace.js';
import type { AddFlags, AddOptions } from './options.js';
import { RangeCheckpoint, unacknowledged } from '../../../core/bulk/range-checkpoint.js';
import { addBatchLimits, addJob, type AcceptedRequest, type NumberedObject } from './deliver.js';
import { bulkRun, deliverInBatches, type Delivered } from '../../../core/bulk/engine.js';
import { planBatches } from '../../../core/bulk/dry-run.js';
import { emptyCounts, type BulkCounts } from '../../../core/bulk/counts.js';
import { bodyFrameBytes, fastObjectLines, objectCheck } from '../shared/objects.js';
import { schemaFlag } from '../../namespace-schema.js';
import { describeFailure, largeItemOf, requestRecordsView } from '../shared/render.js';
import { isLargeRecord } from '../shared/output.js';
import { followRequests, type WaitOptions } from '../shared/wait.js';
import { waitTimeoutMs } from '../../../core/cli/wait.js';
import { flushAfterMs } from '../../../core/cli/bulk-flags.js';
import type { Action } from '../../app.js';
import { DATA_REQUEST_STATUSES } from '../../../schemas/data.js';

// `csafe data add`: sends the objects of a file to a namespace in batches, resumable with a
// checkpoint, and waits for their labels when asked.

export async function dataAddRun(ctx: Context, namespace: string, path: string, options: AddOptions): Promise<Outcome> {
  refuseSharedFiles(path, options);
  const waitMs = waitTimeoutMs(options);
  const flushAfter = flushAfterMs(options);
  // Serialised once: it goes with every batch.
  const schemaJson = options.schema === undefined ? undefined : JSON.stringify(await schemaFlag(ctx.io, options.schema, path, ctx.signal));
  refuseSchemaOverCap(schemaJson, options.maxBatchBytes);
  // A stream: without --wait the accepted requests, one JSON line each in a pipe as they are accepted; with it the final records, as `data status` prints them.
  const format = await ctx.outputFormat('stream');
  const counts = emptyCounts();
  const beforeSending = <T>(step: Promise<T>) => reportedIfInterrupted(step, ctx.signal, () => reportCutShortReading(ctx, path, counts, format));
  // Fingerprinted for the checkpoint: stdin or a pipe is kept in a temporary file.
  const input = await beforeSending(inputToRead(path, ctx.io, ctx.signal, options.checkpoint !== undefined));
  const { source } = input;
  try {
    const sorting = { inputName: source.name, io: ctx.io, options, counts, frameBytes: bodyFrameBytes(schemaJson) };
    const added = await withObjectsToSend(ctx, source, sorting, beforeSending, async (objects, invalid) => {
      // Before the checkpoint's lock is taken: a run refused for want of a base URL or key would leave the lock behind.
      const http = await ctx.http();
      // Opened once the input has passed its check: a run refused for invalid input leaves no checkpoint behind.
      const checkpoint = options.checkpoint === undefined
        ? undefined
        : await RangeCheckpoint.open({ path: options.checkpoint, inputPath: input.path, inputName: source.name, what: 'a csafe data add checkpoint', identity: { namespace }, shard: options.shard, now: () => ctx.now(), readOnly: ctx.dryRun !== undefined });
      invalid?.keepIn(checkpoint);
      const due = unacknowledged(objects, checkpoint && ((object) => checkpoint.isAcknowledged(object.position)), counts);
      if (ctx.dryRun) return planBatches(ctx.dryRun, due, addBatchLimits(options, schemaJson), 'object', addJob(http, namespace, source.name, schemaJson, async () => undefined).send);
      return addObjects(ctx, http, namespace, { inputName: source.name, objects: due, counts, checkpoint, invalid, schemaJson, ...readAsItComes(path, ctx.io.stdin, options, flushAfter) }, options, format);
    });
    if (added === undefined) {
      ctx.io.warn(nothingSentLine(counts.invalid, 'invalid record', ctx.dryRun !== undefined));
      return { kind: 'checked', invalid: counts.invalid };
    }
    const { accepted, failed, sent, done, otherShards, skipped, stoppedBy } = added;
    let failedRequests = 0;
    // A service that could not be reached would fail the wait too.
    if (options.wait && accepted.length > 0 && stoppedBy === undefined) {
      failedRequests = await followAndPrint(ctx, namespace, accepted, { timeoutMs: waitMs, concurrency: options.concurrency }, format);
    }
    return batchOutcome({ sent, done, otherShards, failed, skipped, failedRequests, stoppedBy });
  } finally {
    await input.remove();
  }
}

/**
 * --wait: prints each request as `data status` does once it and those before it have ended, and
 * keeps none; a request that ended failed is explained at the end, as when all were printed at
 * once. Returns how many did not end succeeded: failed, or at a status csafe does not know (said
 * on stderr as it ended).
 */
async function followAndPrint(ctx: Context, namespace: string, accepted: readonly AcceptedRequest[], wait: WaitOptions, format: OutputFormat): Promise<number> {
  const printer = resultWriter(ctx.io, format, requestRecordsView);
  const failures: string[] = [];
  let notSucceeded = 0;
  try {
    await followRequests(ctx, namespace, accepted.map((r) => r.request_id), wait, async (record) => {
      // A record over the 5 MiB answered inline: its objects are printed as they are downloaded, and what failed is known after.
      if (isLargeRecord(record)) await record.withObjects((objects) => printer.printLarge(largeItemOf(record, objects)));
      else await printer.print(record);
      if (record.status !== DATA_REQUEST_STATUSES.succeeded) notSucceeded++;
      if (record.status === 'failed') failures.push(describeFailure(record));
    });
  } catch (error) {
    // What was printed stays well-formed (a JSON array closed); the error that ended the wait is the one reported.
    await printer.end().catch(() => undefined);
    throw error;
  }
  await printer.end();
  for (const failure of failures) ctx.io.warn(failure);
  return notSucceeded;
}

/**
 * Calls `send` with the objects to send. Without --skip-invalid every record is checked first,
 * and this shard's made ready and kept in a spool (core/bulk/record-spool) as they will be sent:
 * one invalid record and nothing is sent (undefined). With it, objects go as they are read, and
 * invalid records to its file. `beforeSending` reports the check cut short.
 */
async function withObjectsToSend<T>(
  ctx: Context,
  source: InputSource,
  sorting: Omit<ObjectSorting, 'invalid' | 'fast'> & { options: Pick<AddOptions, 'skipInvalid'> },
  beforeSending: <S>(step: Promise<S>) => Promise<S>,
  send: (objects: AsyncIterable<readonly NumberedObject[]>, invalid: SkipFile | undefined) => Promise<T>,
): Promise<T | undefined> {
  const { options } = sorting;
  if (options.skipInvalid !== undefined && ctx.dryRun === undefined) {
    const invalid = new SkipFile(options.skipInvalid);
    try {
      const fast = fastObjectLines();
      return await send(objectsToSend(readAcceptedRecordBatches(source, fast), { ...sorting, invalid, fast }), invalid);
    } finally {
      await invalid.close();
    }
  }
  const fast = fastObjectLines();
  const spool = await beforeSending(spoolRecords(objectsToSend(readAcceptedRecordBatches(source, fast, { measured: true }), { ...sorting, invalid: undefined, fast }), OBJECT_SPOOL, ctx.signal));
  try {
    return sorting.counts.invalid > 0 ? undefined : await send(spool.records(), undefined);
  } finally {
    await spool.remove();
  }
}

/** An object as the spool keeps it: `position TAB line TAB bytes TAB json`. */
const OBJECT_SPOOL: SpoolFormat<NumberedObject> = {
  encode: (object) => `${object.position}\t${object.line}\t${object.bytes}\t${object.json}`,
  decode(text) {
    const positionEnd = text.indexOf('\t');
    const lineEnd = text.indexOf('\t', positionEnd + 1);
    const bytesEnd = text.indexOf('\t', lineEnd + 1);
    return { position: Number(text.slice(0, positionEnd)), line: Number(text.slice(positionEnd + 1, lineEnd)), bytes: Number(text.slice(lineEnd + 1, bytesEnd)), json: text.slice(bytesEnd + 1) };
  },
  // An object read from at most MAX_LINE_BYTES: a line as written, or compact JSON, at most 6 bytes for each character it was read from (core/bulk/checked-records).
  maxLineBytes: 8 * MAX_LINE_BYTES,
  weight: (object) => object.json.length,
};

/** The objects to send (read and checked), their counts, the checkpoint, and the --skip-invalid file. */
interface ObjectsToAdd {
  inputName: string;
  objects: AsyncIterable<readonly NumberedObject[]>;
  counts: BulkCounts;
  checkpoint: RangeCheckpoint | undefined;
  invalid: SkipFile | undefined;
  /** --schema, serialised: sent with every batch. */
  schemaJson: string | undefined;
  /** --flush-interval, for a pipe read as the objects go (readInPartOf): a batch that is not full goes once its oldest object has waited this long. */
  flushAfterMs: number | undefined;
  /** The input as given, when it is a pipe read as the objects go (inputReadInPart), which a signal leaves read in part. */
  readInPartOf: string | undefined;
}

/** A pipe read as the objects go (--skip-invalid, no checkpoint): a signal leaves it read in part, and a batch waits for it at most --flush-interval. */
function readAsItComes(path: string, stdin: Readable, options: AddOptions, flushAfter: number): Pick<ObjectsToAdd, 'readInPartOf' | 'flushAfterMs'> {
  return inputReadInPart(path, stdin, options) ? { readInPartOf: path, flushAfterMs: flushAfter } : { readInPartOf: undefined, flushAfterMs: undefined };
}

async function addObjects(ctx: Context, http: HttpClient, namespace: string, input: ObjectsToAdd, options: AddOptions, format: OutputFormat) {
  const { counts, checkpoint, invalid } = input;
  const failed = new FailedFile(options.failed ?? defaultFailedPath(shardedName('data-add', options.shard), ctx.now()));
  // Without --wait the accepted requests are the result, printed as they are accepted; with it the final records follow instead.
  const requests = options.wait ? undefined : resultWriter(ctx.io, format, ACCEPTED_REQUESTS);
  const progress = await startSpinner(ctx.io, 'Adding objects…');
  // Filled as requests are accepted, so a run that stops part-way can still say what went.
  const accepted: AcceptedRequest[] = [];
  const job = addJob(http, namespace, input.inputName, input.schemaJson, async (request, batch) => {
    accepted.push(request);
    checkpoint?.acknowledge(batch[0]!.position, batch.at(-1)!.position);
    if (requests) await requests.print(request).catch(unlessReaderGone);
    else ctx.io.note(`accepted ${request.request_id}: ${countOf(request.objects, 'object')}, lines ${request.first_line}-${request.last_line}`);
  });
  // The service upserts objects by id: a batch whose answer was lost is resent, never unconfirmed.
  const run = bulkRun(ctx, http, options, {
    counts,
    failed,
    checkpoint,
    onProgress: () => progress.update(`Adding objects: ${countOf(accepted.length, 'request')} accepted, ${countOf(counts.failed, 'object')} failed`),
    // Every object may be sent again (upserted by id): the same command line continues the run however it left.
    leftAtOnce: () => reportResume(ctx, { namespace, accepted: accepted.length, counts, failed, checkpoint: options.checkpoint, readInPartOf: input.readInPartOf }),
  });
  let delivered: Delivered | undefined;
  try {
    // A pipe read as it goes may never end: a halt stops reading it, and what it gave is sent or in a file.
    const readInPart = input.readInPartOf !== undefined;
    delivered = await deliverInBatches(input.objects, { ...addBatchLimits(options, input.schemaJson), flushAfterMs: input.flushAfterMs }, { concurrency: options.concurrency }, { ...job, stopReadingAtHalt: readInPart, setAsideUnsentRead: readInPart }, run);
  } finally {
    progress.stop();
    const completed = delivered !== undefined && !delivered.interrupted;
    try {
      await failed.close();
      // When the run stopped, the error that stopped it is the one to report.
      await (completed ? checkpoint?.close() : checkpoint?.close().catch(() => undefined));
    } finally {
      // Printed after the checkpoint is saved: a reader of stdout gone (`| head`) must not keep it from being saved.
      const inOrder = inInputOrder(accepted);
      // With --wait, the accepted requests are what a user follows up whenever no wait follows (a run stopped, or nothing accepted).
      const waitFollows = completed && delivered!.stoppedBy === undefined && inOrder.length > 0;
      const printing = requests ? requests.end() : waitFollows ? undefined : printRequests(ctx.io, format, inOrder);
      await printing?.catch(unlessReaderGone);
      if (delivered?.interrupted) reportResume(ctx, { namespace, accepted: inOrder.length, counts, failed, checkpoint: options.checkpoint, readInPartOf: input.readInPartOf });
      else if (!completed) reportStop(ctx.io, namespace, inOrder.length, options.checkpoint);
    }
  }
  if (delivered.interrupted) throw interruptionOf(ctx.signal, counts.sent);
  const skipped = counts.skipped_checkpoint > 0 ? `; ${countOf(counts.skipped_checkpoint, 'object')} skipped by checkpoint` : '';
  const otherShards = otherShardsNote(counts.other_shards, 'object', options.shard);
  const invalidNote = invalid?.count ? `; ${countOf(invalid.count, 'invalid record')} written to ${invalid.path}` : '';
  ctx.io.note(`added ${countOf(counts.sent, 'object')} to ${namespace} in ${countOf(accepted.length, 'request')}${skipped}${otherShards}${invalidNote}`);
  if (failed.count > 0) {
    const resend = resendHint(resendCommandLine(failed, (input) => sameServiceCommand(ctx.argv, `data add ${shellWord(namespace)} ${shellWord(input)}`)), options.checkpoint !== undefined);
    ctx.io.warn(`${countOf(failed.count, 'object')} of failed batches written to ${failed.path}: ${resend}`);
  }
  const { stoppedBy } = delivered;
  const { readStoppedAfter } = delivered;
  if (stoppedBy) ctx.io.warn(haltLine(stoppedBy, failed.path, readStoppedAfter));
  // Answers are settled in input order; what follows (the table, --wait's objects) is in input order.
  return { accepted: inInputOrder(accepted), failed: failed.count, sent: counts.sent, done: deliveredEarlier(counts.skipped_checkpoint, invalid), otherShards: counts.other_shards, skipped: invalid?.count ?? 0, stoppedBy };
}

/** A schema that leaves no room for an object under --max-batch-bytes is the problem to name, not every object. */
function refuseSchemaOverCap(schemaJson: string | undefined, maxBatchBytes: number): void {
  if (schemaJson === undefined) return;
  // The smallest object, {"id":"x"}, beside the schema in a request.
  const smallest = bodyFrameBytes(schemaJson) + '{"id":"x"}'.length + 1;
  if (smallest <= maxBatchBytes) return;
  throw new UsageError(`--schema: the schema is ${Buffer.byteLength(schemaJson)} bytes serialised, and goes with every request: with it no object fits --max-batch-bytes ${maxBatchBytes}`, {
    hint: 'raise --max-batch-bytes, or set the schema once with `csafe settings put` and leave out --schema',
  });
}

/**
 * What an interrupted run did, and the command that continues it: the same one, which with
 * --checkpoint sends only what was not accepted. A pipe read in part gives it only what the user
 * pipes in again, which this run read in part: what it did not read is in no file.
 */
function reportResume(ctx: Context, run: { namespace: string; accepted: number; counts: BulkCounts; failed: FailedFile; checkpoint?: string; readInPartOf?: string }): void {
  const { readInPartOf } = run;
  const printed = ctx.signal.reason === 'EPIPE' ? 'the reader of stdout went away before every accepted request was printed' : 'the accepted requests are printed';
  const done = `${interruptedRun(run.counts, 'object', run.failed.path)}; ${printed}${readInPartOf === undefined ? '' : inputCutShortNote(run.counts.read, 'record')}`;
  const hint = run.checkpoint === undefined
    ? `without --checkpoint it sends every object ${readInPartOf === undefined ? 'again' : `it is given again: ${wholeInputAgain(readInPartOf)}`}; add --checkpoint FILE to continue where a run stopped`
    : run.accepted > 0 ? `follow an accepted request with \`csafe data status ${shellWord(run.namespace)} REQUEST_ID --wait\`` : undefined;
  reportInterruption(ctx.io, done, csafeCommandLine(ctx.argv), hint);
}

/**
 * What a run cut short while it still copied or checked its input did (nothing sent), and the
 * command that continues it: the same one. Its stdout is what a run cut short before any request
 * was accepted leaves there: the accepted requests, none. A dry run's stdout holds its plan or
 * nothing, and there is nothing to continue.
 */
async function reportCutShortReading(ctx: Context, path: string, counts: BulkCounts, format: OutputFormat): Promise<void> {
  if (ctx.dryRun) return;
  await printRequests(ctx.io, format, []).catch(unlessReaderGone);
  reportInterruption(ctx.io, `${interruptedRun(counts, 'object', '')}${STILL_READING}`, csafeCommandLine(ctx.argv), path === '-' ? sameStdinHint() : undefined);
}

const inInputOrder = (accepted: readonly AcceptedRequest[]) => [...accepted].sort((a, b) => a.first_line - b.first_line);

function reportStop(io: IOStreams, namespace: string, accepted: number, checkpoint: string | undefined): void {
  const rest = checkpoint ? `run the same command again to send the rest (--checkpoint ${checkpoint})` : 'later objects were not sent';
  if (accepted === 0) {
    io.warn(`stopped: no request was accepted; ${rest}`);
    return;
  }
  io.warn(`stopped: ${countOf(accepted, 'request')} ${accepted === 1 ? 'was' : 'were'} accepted (printed), ${rest}; follow one with \`csafe data status ${namespace} REQUEST_ID --wait\``);
}

/** An object is sharded by its id; a record without a string id is invalid, and reported by every shard. */
const objectKey = (record: ReadRecord) => {
  const value = 'accepted' in record ? JSON.parse(record.accepted) : 'value' in record ? record.value : undefined;
  const id = (value as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' ? `id:${id}` : undefined;
};

interface ObjectSorting {
  inputName: string;
  io: IOStreams;
  options: Pick<AddOptions, 'shard' | 'maxBatchBytes'>;
  counts: BulkCounts;
  /** The bytes of a request around its objects (more with --schema). */
  frameBytes: number;
  /** --skip-invalid: where invalid records go while the rest is sent. Without it, every record is checked before anything is sent. */
  invalid: SkipFile | undefined;
  /** The fast check the records were read with: it learns the shape of the objects accepted the exact way. */
  fast: ObjectLines;
}

/**
 * The objects of this shard to send, each checked and serialised once, numbered by its position
 * among the records of the input (of its shard, with --shard), a chunk of input at a time.
 * Checking before anything is sent, the records of other shards are checked too, without being
 * serialised, so that every worker refuses the input a run without --shard would; and once one is
 * invalid, none is made ready. One loop over each chunk's records, not a generator per step or per
 * record: each costs a promise per record.
 */
async function* objectsToSend(batches: AsyncIterable<ReadRecord[]>, run: ObjectSorting): AsyncGenerator<NumberedObject[]> {
  const { counts } = run;
  const check = objectCheck(run.options.maxBatchBytes, run.frameBytes);
  const checkingFirst = run.invalid === undefined;
  const sharded = run.options.shard !== undefined;
  let position = 0;
  for await (const records of batches) {
    const ready: NumberedObject[] = [];
    for (const record of records) {
      counts.read++;
      const mine = !inOtherShard(record, run.options.shard, objectKey);
      if (mine) position++;
      else counts.other_shards++;
      if (!mine || (checkingFirst && counts.invalid > 0)) {
        if (checkingFirst) await countInvalid({ line: record.line, position, problem: problemOfRecord(record, check) }, run);
        continue;
      }
      const checked = checkRecord(record, check);
      if (!('json' in checked)) await countInvalid({ ...checked, position }, run);
      else {
        counts.valid++;
        if ('value' in record) run.fast.learn(record.value);
        // A new object of four fields rather than a field added to `checked`: it is held until sent, and this way it is one allocation, not two.
        ready.push({ line: checked.line, json: sharded ? ownText(checked.json) : checked.json, bytes: checked.bytes, position });
      }
    }
    if (ready.length > 0) yield ready;
  }
}

/**
 * The text of a line, apart from the text of the lines read with it, which it is a slice of
 * (core/input/json-records): where most of those go to other shards, holding the slice held them
 * all, some n times what the spool weighed under --shard i/n.
 */
const ownText = (json: string) => Buffer.from(json).toString();

/**
 * A record checked: counted as valid, or as invalid and reported (and set aside with
 * --skip-invalid, numbered by its position, as the checkpoint numbers objects).
 */
async function countInvalid(record: { line: number; position: number; problem: string | undefined; text?: string }, run: ObjectSorting): Promise<void> {
  const { problem } = record;
  if (problem === undefined) {
    run.counts.valid++;
  } else if (run.invalid === undefined) {
    run.counts.invalid++;
    run.io.warn(problemLine(run.inputName, { line: record.line, problem }));
  } else {
    await setAside(run.invalid, run.inputName, { ...record, problem, text: record.text ?? '' }, run.io, run.counts);
  }
}

/** One row per accepted request, in input order on a terminal. */
const ACCEPTED_REQUESTS: StreamView<AcceptedRequest, AcceptedRequest> = {
  rows: (request) => [request],
  columns: [
    { header: 'REQUEST_ID', value: (r) => r.request_id },
    { header: 'STATUS', value: (r) => r.status },
    { header: 'OBJECTS', value: (r) => String(r.objects) },
    { header: 'FIRST_LINE', value: (r) => String(r.first_line) },
    { header: 'LAST_LINE', value: (r) => String(r.last_line) },
  ],
  order: (a, b) => a.first_line - b.first_line,
};

async function printRequests(io: IOStreams, format: OutputFormat, accepted: readonly AcceptedRequest[]): Promise<void> {
  const writer = resultWriter(io, format, ACCEPTED_REQUESTS);
  for (const request of accepted) await writer.print(request);
  await writer.end();
}

/** The action of the command declared in add-command.ts, loaded when it runs. */
export const dataAddAction: Action<AddFlags> = async (ctx, command, flags) => {
      const options = parseFlags(flags, command.opts());
      const [namespace, file] = positional(command) as [string, string | undefined];
      return dataAddRun(ctx, parseNamespace(namespace), fileOrStdin(file, ctx.io.stdinIsTTY), options);
    };
