import { getRequest } from '../../../api/data.js';
import type { Context } from '../../../context.js';
import { mapInOrder } from '../../../core/concurrency.js';
import type { IOStreams } from '../../../core/io.js';
import { countOf } from '../../../core/output.js';
import { pollUntil } from '../../../core/poll.js';
import { startSpinner } from '../../../core/spinner.js';
import { shellWord } from '../../../core/shell.js';
import { TERMINAL_STATUSES, type RequestRecord } from '../../../schemas/data.js';
import type { Outcome } from '../../app.js';
import { describeFailure, printRequestRecord, statusCounts } from './render.js';

export interface WaitOptions {
  /** Give up after this long with WaitTimeoutError (exit 124); Infinity waits for ever. */
  timeoutMs: number;
  /** Status lookups in flight at once (default 4). */
  concurrency?: number;
}

/**
 * Polls every request until each is succeeded or failed (1 s → 10 s backoff), with a spinner on
 * a terminal counting requests per status. Returns the final records in the order of the ids.
 * When the wait ends early, on timeout (exit 124), Ctrl-C (exit 130) or an error (the service
 * gone: exit 1), it first lists the requests still pending and the command that checks each.
 */
export async function waitForRequests(ctx: Context, namespace: string, requestIds: readonly string[], options: WaitOptions): Promise<RequestRecord[]> {
  const http = await ctx.http();
  const latest = new Map<string, RequestRecord>();
  const pending = () => requestIds.filter((id) => !TERMINAL_STATUSES.has(latest.get(id)?.status ?? ''));
  const refresh = async () => {
    for await (const { item: id, outcome } of mapInOrder(pending(), options.concurrency ?? 4, (id) => getRequest(http, namespace, id))) {
      if (!outcome.ok) throw outcome.error;
      latest.set(id, outcome.value);
    }
  };
  const spinner = await startSpinner(ctx.io, `Waiting for ${countOf(requestIds.length, 'request')}…`);
  try {
    await pollUntil(refresh, () => pending().length === 0, {
      timeoutMs: options.timeoutMs,
      now: () => ctx.now(),
      sleep: (ms) => ctx.sleep(ms),
      onPoll: () => spinner.update(statusCounts(latest.values())),
      describe: requestIds.length === 1 ? `request ${requestIds[0]}` : countOf(requestIds.length, 'request'),
    });
  } catch (error) {
    spinner.stop();
    // However the wait ends early (timeout, Ctrl-C, the service gone), no accepted request id is lost.
    reportPending(ctx.io, namespace, pending());
    throw error;
  }
  spinner.stop();
  return requestIds.map((id) => latest.get(id)!);
}

/** Waits for one request of either kind, prints its final record; exit 1 when it ended failed. */
export async function waitAndPrintRecord(ctx: Context, namespace: string, requestId: string, timeoutMs: number): Promise<Outcome> {
  const format = await ctx.outputFormat('single');
  const [record] = await waitForRequests(ctx, namespace, [requestId], { timeoutMs });
  await printRequestRecord(ctx.io, format, record!);
  const failed = record!.status === 'failed';
  if (failed) ctx.io.warn(describeFailure(record!));
  return { kind: 'followed', failed };
}

function reportPending(io: IOStreams, namespace: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  io.warn(`${countOf(ids.length, 'request')} still pending; check on ${ids.length === 1 ? 'it' : 'them'} with:`);
  for (const id of ids) io.warn(`  csafe data status ${shellWord(namespace)} ${shellWord(id)} --wait`);
}
