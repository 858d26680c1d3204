import type { Context } from '../../../context.js';
import { mapInOrder } from '../../../core/bulk/concurrency.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import { countOf } from '../../../core/terminal/words.js';
import { NotFoundError } from '../../../core/errors.js';
import { pollUntil } from '../../../core/cli/poll.js';
import { startSpinner } from '../../../core/terminal/spinner.js';
import { isStillRunning, unlistedStatusNote } from '../../../core/cli/statuses.js';
import { DATA_REQUEST_STATUSES, type RequestRecord } from '../../../schemas/data.js';
import type { Outcome } from '../../app.js';
import { describeFailure, printRequestRecord, statusCounts } from './render.js';
import { requestRecord, statusCommand, type LargeRecord } from './output.js';

// How `data` commands wait for their requests to end and print each final record, shared by add,
// import and status.

export interface WaitOptions {
  /** Give up after this long with WaitTimeoutError (exit 124); Infinity waits for ever. */
  timeoutMs: number;
  /** Status lookups in flight at once (default 4). */
  concurrency?: number;
}

/**
 * Polls every request until each has ended: succeeded, failed, or a status the spec does not list
 * (said on stderr, as waitForOne does) (1 s → 10 s backoff), with a spinner on
 * a terminal counting requests per status. Each final record goes to `onEnded` in the order of
 * the ids, as soon as it and those before it have ended, and is not kept: memory stays flat
 * however many requests there are. When the wait ends early, on timeout (exit 124), Ctrl-C (exit
 * 130) or an error (the service gone: exit 1), it first lists the requests still pending and the
 * command that checks each, then those that ended behind a pending one and so were not printed.
 */
export async function followRequests(
  ctx: Context,
  namespace: string,
  requestIds: readonly string[],
  options: WaitOptions,
  onEnded: (record: RequestRecord | LargeRecord) => Promise<void> | void,
): Promise<void> {
  const deps = { http: await ctx.http(), io: ctx.io, now: () => ctx.now(), argv: ctx.argv };
  const statuses = new Map<string, { status: string }>();
  // A request the service does not know is not pending: no check on it later would find it either.
  const unknown = new Set<string>();
  // Ended records wait here only while a request before them is still pending.
  const ended = new Map<string, RequestRecord | LargeRecord>();
  let handedOn = 0;
  // Not yet looked up, or at a status the spec says is under way.
  const running = (id: string) => {
    const status = statuses.get(id)?.status;
    return status === undefined || isStillRunning(DATA_REQUEST_STATUSES, status);
  };
  const pending = () => requestIds.slice(handedOn).filter((id) => running(id) && !unknown.has(id));
  const handOnInOrder = async () => {
    for (let record = ended.get(requestIds[handedOn]!); record !== undefined; record = ended.get(requestIds[handedOn]!)) {
      ended.delete(requestIds[handedOn++]!);
      await onEnded(record);
    }
  };
  const refresh = async () => {
    for await (const { item: id, outcome } of mapInOrder(pending(), options.concurrency ?? 4, (id) => requestRecord(deps, namespace, id))) {
      if (!outcome.ok) {
        if (outcome.error instanceof NotFoundError) unknown.add(id);
        throw outcome.error;
      }
      statuses.set(id, { status: outcome.value.status });
      if (running(id)) continue;
      const unlisted = unlistedStatusNote(DATA_REQUEST_STATUSES, `request ${id}`, outcome.value.status, `${statusCommand(ctx.argv, namespace, id)} --wait`);
      if (unlisted !== undefined) ctx.io.warn(unlisted);
      ended.set(id, outcome.value);
      await handOnInOrder();
    }
  };
  const spinner = await startSpinner(ctx.io, `Waiting for ${countOf(requestIds.length, 'request')}…`);
  try {
    await pollUntil(refresh, () => handedOn === requestIds.length, {
      timeoutMs: options.timeoutMs,
      now: () => ctx.now(),
      sleep: (ms) => ctx.sleep(ms),
      onPoll: () => spinner.update(statusCounts(statuses.values())),
      describe: requestIds.length === 1 ? `request ${requestIds[0]}` : countOf(requestIds.length, 'request'),
    });
  } catch (error) {
    spinner.stop();
    // However the wait ends early (timeout, Ctrl-C, the service gone), no accepted request id is lost:
    // neither those still pending nor those that ended behind one and so were never printed.
    reportPending(ctx.io, ctx.argv, namespace, pending());
    reportUnprinted(ctx.io, ctx.argv, namespace, requestIds.slice(handedOn).filter((id) => ended.has(id)));
    throw error;
  }
  spinner.stop();
}

/** Waits for one request of either kind, prints its final record; exit 1 when it did not end succeeded. */
export async function waitAndPrintRecord(ctx: Context, namespace: string, requestId: string, timeoutMs: number): Promise<Outcome> {
  const format = await ctx.outputFormat('single');
  let record: RequestRecord | LargeRecord | undefined;
  await followRequests(ctx, namespace, [requestId], { timeoutMs }, (ended) => void (record = ended));
  await printRequestRecord(ctx.io, format, record!);
  const failed = record!.status !== DATA_REQUEST_STATUSES.succeeded;
  if (record!.status === 'failed') ctx.io.warn(describeFailure(record!));
  return { kind: 'followed', failed };
}

/** Requests that ended while one before them was still pending: their records were held back for the order, and never printed. */
function reportUnprinted(io: IOStreams, argv: readonly string[], namespace: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  const one = ids.length === 1;
  io.warn(`${countOf(ids.length, 'request')} ended but ${one ? 'its record was' : 'their records were'} not printed (a request before ${one ? 'it' : 'them'} was still pending); see ${one ? 'it' : 'them'} with:`);
  for (const id of ids) io.warn(`  ${statusCommand(argv, namespace, id)}`);
}

function reportPending(io: IOStreams, argv: readonly string[], namespace: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  io.warn(`${countOf(ids.length, 'request')} still pending; check on ${ids.length === 1 ? 'it' : 'them'} with:`);
  for (const id of ids) io.warn(`  ${statusCommand(argv, namespace, id)} --wait`);
}
