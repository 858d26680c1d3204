import type { Context } from '../../../context.js';
import { nothingSentLine } from '../../../core/checked-records.js';
import { AuthenticationError, InterruptedError, PermissionDeniedError, UnreachableError } from '../../../core/errors.js';
import { FailFast, unreachableLine } from '../../../core/fail-fast.js';
import { defaultFailedPath, FailedFile } from '../../../core/failed-file.js';
import { parseOptions } from '../../../core/options.js';
import { countOf, type OutputFormat } from '../../../core/output.js';
import { readRecords, type InputSource } from '../../../core/readers.js';
import { shardedName } from '../../../core/shard.js';
import { csafeCommandLine, failedFileNote, reportInterruption } from '../../../core/shell.js';
import { interruptionOf } from '../../../core/signals.js';
import { startSpinner } from '../../../core/spinner.js';
import { inputToRead } from '../../../core/spool.js';
import { batchOutcome, positional, type Outcome } from '../../app.js';
import { checkRecords } from './checked.js';
import { Checkpoint } from './checkpoint.js';
import { deliver, queueBatch, type Delivery } from './deliver.js';
import { sendOptionsSchema, type SendOptions } from './options.js';
import { emptyTally, reportSummary, summarise, type Tally } from './summary.js';
import { SyncIngestion } from './sync.js';
import { validateInput } from './validate.js';
import type { Action } from '../../app.js';

export async function sendRun(ctx: Context, path: string, options: SendOptions): Promise<Outcome> {
  const started = ctx.now();
  const check = { allowUnknownTypes: options.allowUnknownTypes };
  // Read twice (validate, then send), so stdin or a pipe is kept in a temporary file in between.
  const input = await inputToRead(path, ctx.io, ctx.signal, !options.dryRun);
  const { source } = input;
  try {
    const checked = emptyTally();
    if (options.dryRun || options.skipInvalid === undefined) {
      await validateInput(source, check, ctx.io, checked);
      if (options.dryRun || checked.invalid > 0) {
        await report(ctx, checked, { input: source.name, dryRun: options.dryRun, started });
        if (checked.invalid > 0 && !options.dryRun) ctx.io.warn(nothingSentLine(checked.invalid, 'invalid record'));
        return { kind: 'checked', invalid: checked.invalid };
      }
    }
    const { tally, failedFile, halted } = await sendChecked(ctx, source, input.path, options, checked.read || Infinity);
    // With --sync, stdout holds the event ids; the summary would break their NDJSON.
    await report(ctx, tally, { input: source.name, dryRun: false, started, failedFile, invalidFile: options.skipInvalid, toStdout: !options.sync });
    // The service unreachable is said as every bulk command says it; a refused key or a long Retry-After in the words of events.
    if (halted instanceof UnreachableError) ctx.io.warn(unreachableLine(halted, failedFile));
    else if (halted) ctx.io.warn(`sending stopped: ${whySendingStopped(halted)}; the unsent events are in ${failedFile}`);
    // Met without --skip-invalid, an invalid record means the input changed after it was checked.
    const invalid = options.skipInvalid === undefined ? { invalid: tally.invalid } : { skipped: tally.invalid };
    return batchOutcome({ sent: tally.sent, done: tally.skipped_checkpoint, otherShards: tally.other_shards, failed: tally.failed, ...invalid, stoppedBy: halted });
  } finally {
    await input.remove();
  }
}

/** The sending pass; `limit` keeps it to the records validated, even if the file has grown since. */
async function sendChecked(ctx: Context, source: InputSource, filePath: string, options: SendOptions, limit: number) {
  const tally = emptyTally();
  const failedPath = options.failed ?? defaultFailedPath(shardedName('events', options.shard), ctx.now());
  const failed = new FailedFile(failedPath);
  const invalid = options.skipInvalid === undefined ? undefined : new FailedFile(options.skipInvalid);
  const checkpoint = options.checkpoint === undefined
    ? undefined
    : await Checkpoint.open({ path: options.checkpoint, inputPath: filePath, inputName: source.name, shard: options.shard, now: () => ctx.now() });
  const progress = await startSpinner(ctx.io, 'Sending events…');
  let halted: Delivery['halted'];
  let sync: SyncIngestion | undefined;
  try {
    const http = await ctx.http();
    if (options.sync) sync = new SyncIngestion(http, ctx.io, await ctx.outputFormat('stream'));
    const records = checkRecords(readRecords(source), { allowUnknownTypes: options.allowUnknownTypes }, limit);
    const failFast = new FailFast(options.maxConsecutiveFailures, http.baseUrl);
    const delivery: Delivery = { send: sync?.send ?? queueBatch(http), io: ctx.io, inputName: source.name, options, tally, failed, invalid, checkpoint, progress, failFast };
    await deliver(records, delivery);
    halted = delivery.halted;
  } catch (error) {
    if (!(error instanceof InterruptedError)) throw error;
    const failedNote = failedFileNote(tally.failed, failedPath);
    reportInterruption(ctx.io, `${countOf(tally.sent, 'event')} sent, ${tally.failed} failed${failedNote}`, csafeCommandLine(ctx.argv), options.checkpoint === undefined ? NO_CHECKPOINT : undefined);
    throw interruptionOf(ctx.signal);
  } finally {
    progress.stop();
    await sync?.finish();
    await checkpoint?.close();
    await failed.close();
    await invalid?.close();
  }
  return { tally, failedFile: failedPath, halted };
}

async function report(ctx: Context, tally: Tally, run: { input: string; dryRun: boolean; started: number; failedFile?: string; invalidFile?: string; toStdout?: boolean }) {
  const summary = summarise(tally, { ...run, durationMs: ctx.now() - run.started });
  await reportSummary(ctx.io, summary, run.toStdout === false ? undefined : await summaryFormat(ctx));
}

/** A terminal's default table would only repeat the stderr line, so it prints nothing; `-o table` (flag or profile) asks for it. */
async function summaryFormat(ctx: Context): Promise<OutputFormat | undefined> {
  const format = await ctx.outputFormat('single');
  const asked = (await ctx.settings()).output !== undefined;
  return format === 'table' && !asked ? undefined : format;
}

/** Without a checkpoint the same command starts from the first event again. */
const NO_CHECKPOINT =
  'without --checkpoint it sends every event again (each keeps its idempotency_key, so the service ingests it once); add --checkpoint FILE to continue where a run stopped';

const whySendingStopped = (error: Error) =>
  error instanceof AuthenticationError || error instanceof PermissionDeniedError ? `the service refused the credentials (${error.status})` : error.message;

/** The action of registerEventsSend (send-command.ts), loaded when the command runs. */
export const eventsSendAction: Action = async (ctx, command) => {
      const options = parseOptions(sendOptionsSchema, command.opts());
      const [path] = positional(command) as [string];
      return sendRun(ctx, path, options);
    };
