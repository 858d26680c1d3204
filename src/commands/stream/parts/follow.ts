import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Context } from '../../../context.js';
import { checkRecords, numbered, problemLine, setAside, SkipFile, type CheckedRecord, type InvalidRecord, type Numbered, type SendableRecord } from '../../../core/bulk/checked-records.js';
import { flushAfterMs } from '../../../core/cli/bulk-flags.js';
import { InputError, UsageError } from '../../../core/errors.js';
import { haltLine } from '../../../core/bulk/fail-fast.js';
import { bulkRun } from '../../../core/bulk/engine.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import type { JsonRecord } from '../../../core/json/position.js';
import { countOf } from '../../../core/terminal/words.js';
import { isRegularFile, openFileStream, readRecords, type InputSource } from '../../../core/input/sources.js';
import { interruptionOf } from '../../../core/signals.js';
import { startSpinner } from '../../../core/terminal/spinner.js';
import type { Outcome } from '../../app.js';
import { oneByOne } from '../../../core/bulk/lanes.js';
import { deliverParts, emptyPartsTally, partsFailureFiles, partsOutcome, type PartsDelivery, type PartsTally } from './deliver.js';
import { givesFlagPart } from './flag-part.js';
import { partCheck } from './input.js';
import type { PartsOptions } from './options.js';
import { printSummary } from './summary.js';

/** How often the status line is redrawn from the counters. */
const STATUS_EVERY_MS = 250;

/** What a followed run has read, and what ended its reading other than the end of the input. Counters only: no part is kept. */
interface Reading {
  inputName: string;
  io: IOStreams;
  invalid?: SkipFile;
  /** Where the invalid parts set aside are counted. */
  tally: PartsTally;
  read: number;
  /** The invalid line that stopped the reading (no --skip-invalid). */
  stoppedAt?: InvalidRecord;
  /** A read that failed (a line over the length limit, an I/O error): thrown once what was read before it is sent. */
  failure?: unknown;
}

/**
 * `stream parts --follow`: parts read from a pipe as they come and sent in order, a batch as soon
 * as --batch-size parts wait or the oldest has waited --flush-interval. While a batch is sent or
 * retried, reading goes on into a buffer of --max-buffer parts; a full buffer pauses reading.
 * At the end of the input, on Ctrl-C or SIGTERM, what is held is sent before csafe exits.
 */
export async function followParts(ctx: Context, namespace: string, file: string | undefined, options: PartsOptions): Promise<Outcome> {
  const started = ctx.now();
  const flushAfter = flushAfterMs(options);
  const input = openFollowedInput(ctx, file, options);
  // A key refused or missing: the pipe is let go, or its writer would keep csafe waiting.
  const http = await ctx.http().catch((error: unknown) => {
    input.close();
    throw error;
  });
  const tally = emptyPartsTally();
  const reading: Reading = {
    inputName: input.source.name,
    io: ctx.io,
    invalid: options.skipInvalid === undefined ? undefined : new SkipFile(options.skipInvalid),
    tally,
    read: 0,
  };
  const files = partsFailureFiles(options, ctx.now());
  // Reading ends at the end of the input, on Ctrl-C or SIGTERM, or when a failure halts the sending.
  const halting = new AbortController();
  // What was read is sent before csafe exits: the run's signal never aborts; Ctrl-C and SIGTERM end the reading.
  const run = { ...bulkRun(ctx, http, options, { counts: tally, ...files }), signal: new AbortController().signal };
  const delivery: PartsDelivery = {
    run,
    http,
    namespace,
    id: options.id,
    inputName: reading.inputName,
    options,
    tally,
    flushAfterMs: flushAfter,
    maxBuffer: options.maxBuffer,
    halt: () => halting.abort(),
  };
  const status = await startStatusLine(ctx.io, () => statusLine(`${namespace}/${options.id}`, tally, reading));
  try {
    const stop = AbortSignal.any([ctx.signal, halting.signal]);
    const records = readUntilStopped(readRecords(input.source, { jsonLines: true, allowEmpty: true }), stop, input.close, reading);
    await deliverParts(oneByOne(partsToSend(numbered(checkRecords(records, partCheck(options))), reading)), delivery);
  } finally {
    status.stop();
    input.close();
    await files.failed.close();
    await files.unconfirmed.close();
    await reading.invalid?.close();
  }
  if (endedWithNothing(reading, ctx.signal)) {
    throw new InputError(`${reading.inputName}: ended with no parts, expected at least one JSON part a line; nothing was sent`);
  }
  tally.valid = reading.read;
  await printSummary(ctx, { namespace, id: options.id, tally, ...files, invalid: reading.invalid, durationMs: ctx.now() - started, checkpoint: false });
  const unreachable = run.failFast.stoppedBy;
  if (unreachable) {
    ctx.io.warn(haltLine(unreachable, files.failed.path));
    return partsOutcome(tally, { setAside: reading.invalid, stoppedBy: unreachable });
  }
  throwWhatStopped(reading, ctx.signal);
  return partsOutcome(tally, { setAside: reading.invalid });
}

/** The input ended on its own before a single line: most likely the wrong pipe, or a producer that failed. */
const endedWithNothing = (reading: Reading, signal: AbortSignal) =>
  reading.read === 0 && (reading.invalid?.count ?? 0) === 0 && reading.stoppedAt === undefined && reading.failure === undefined && !signal.aborted;

/**
 * Once what was read is sent: the read that failed, the invalid line, or the signal. The reader of
 * stdout gone is not one: --follow writes stdout only for its summary, once all it read was sent,
 * so the run ends as its counts say.
 */
function throwWhatStopped(reading: Reading, signal: AbortSignal): void {
  if (reading.failure !== undefined) throw reading.failure;
  if (reading.stoppedAt) {
    throw new InputError(`stopped at ${reading.inputName}:${reading.stoppedAt.line}, an invalid part; the ${countOf(reading.read, 'valid part')} before it were sent or written to the failed file`, {
      hint: 'pass --skip-invalid FILE to set invalid lines aside and keep following',
    });
  }
  if (signal.aborted && signal.reason !== 'EPIPE') throw interruptionOf(signal);
}

/** The pipe to follow: stdin (no FILE, or `-`), a FIFO or a socket. A regular file has an end: it is sent without --follow. */
function openFollowedInput(ctx: Context, file: string | undefined, options: PartsOptions): { source: InputSource; close(): void } {
  const other = options.captions !== undefined ? '--captions' : givesFlagPart(options) ? 'a part by flags' : undefined;
  if (other !== undefined) throw new UsageError(`--follow reads parts from a pipe; ${other} cannot be followed`);
  if (options.checkpoint !== undefined) throw new UsageError('--checkpoint goes with a FILE or --captions FILE: --follow reads a pipe once, and sends what it read before it exits');
  const path = file ?? '-';
  if (path === '-' && ctx.io.stdinIsTTY) throw new UsageError('--follow reads stdin, which is a terminal: pipe parts into it, or give a FIFO');
  if (path !== '-' && existsSync(path) && isRegularFile(path)) {
    throw new UsageError(`--follow reads a pipe (stdin or a FIFO), and ${path} is a regular file`, {
      hint: `send it without --follow, or follow what is appended to it: \`tail -f ${path} | csafe stream parts … --follow\``,
    });
  }
  const stream: Readable = path === '-' ? ctx.io.stdin : openFileStream(path);
  return { source: { name: path === '-' ? 'stdin' : path, open: () => stream }, close: () => void stream.destroy() };
}

/**
 * Records until the input ends or `stop` aborts. Then the input is closed, so a read waiting on a
 * silent writer ends: the lines already read go on to be sent, and what the closing breaks is no
 * error. A read that fails ends the records too, its error kept for after the flush.
 */
async function* readUntilStopped(records: AsyncIterable<JsonRecord>, stop: AbortSignal, close: () => void, reading: Reading): AsyncGenerator<JsonRecord> {
  if (stop.aborted) return;
  stop.addEventListener('abort', close, { once: true });
  try {
    yield* records;
  } catch (error) {
    if (!stop.aborted) reading.failure = error;
  } finally {
    stop.removeEventListener('abort', close);
  }
}

/** Valid parts, counted as read; an invalid one is set aside with --skip-invalid, and ends the reading without it. */
async function* partsToSend(records: AsyncIterable<Numbered<CheckedRecord>>, reading: Reading): AsyncGenerator<Numbered<SendableRecord>> {
  for await (const record of records) {
    if ('json' in record) {
      reading.read++;
      yield record;
    } else if (reading.invalid !== undefined) {
      await setAside(reading.invalid, reading.inputName, record, reading.io, reading.tally);
    } else {
      reading.io.warn(problemLine(reading.inputName, record));
      reading.stoppedAt = record;
      return;
    }
  }
}

/** One line on stderr, redrawn from the counters while the run lasts (or printed now and then with --progress); otherwise nothing. */
async function startStatusLine(io: IOStreams, line: () => string): Promise<{ stop(): void }> {
  const spinner = await startSpinner(io, line());
  const redraw = io.animate || io.progressLines ? setInterval(() => spinner.update(line()), STATUS_EVERY_MS) : undefined;
  return {
    stop: () => {
      clearInterval(redraw);
      spinner.stop();
    },
  };
}

/** `live/show-42: sent 120 · buffered 30 · failed 0 · unconfirmed 0`, and the last error when a batch failed. */
function statusLine(stream: string, tally: PartsTally, reading: Reading): string {
  const buffered = reading.read - tally.sent - tally.failed - tally.unconfirmed;
  const line = `${stream}: sent ${tally.sent} · buffered ${buffered} · failed ${tally.failed} · unconfirmed ${tally.unconfirmed}`;
  return tally.lastError === null ? line : `${line} · last error: ${tally.lastError}`;
}
