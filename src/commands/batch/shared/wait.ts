import { getBatch } from '../../../api/batches.js';
import { errorMessage } from '../../../api/responses.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../core/errors.js';
import { sameServiceCommand, shellWord } from '../../../core/cli/command-line.js';
import { givenDescriptor } from '../../../core/files/named-descriptor.js';
import { waitForOne, waitOptions, type WaitOptions } from '../../../core/cli/wait.js';
import { BATCH_STATUSES, type Batch } from '../../../schemas/batches.js';
import type { Outcome } from '../../app.js';
import { downloadResult } from '../download/fetch.js';
import { batchFailed, batchProgress, printBatch } from './render.js';

/** The options `batch create` and `batch get` share: --wait, its --timeout, and --download after it. */
export interface FollowOptions extends WaitOptions {
  /** Where --download writes the result CSV once the batch has succeeded. */
  download?: string;
}

export function followOptions(raw: { wait?: boolean; timeout?: string; download?: string }): FollowOptions {
  const wait = waitOptions(raw);
  if (raw.download !== undefined && !raw.wait) {
    throw new UsageError('--download writes the result of a finished batch, and needs --wait', { hint: 'add --wait, or fetch it later with: csafe batch download ID FILE' });
  }
  // A descriptor not open (`/dev/fd/9`) is refused before the batch is sent, not once it has ended.
  if (raw.download !== undefined) givenDescriptor(raw.download);
  return { ...wait, download: raw.download };
}

/**
 * Polls the batch until SUCCESS, CANCELLED or ERROR with a spinner showing its counts, prints it,
 * and with --download writes its result CSV. Exit 1 when it ended in ERROR, CANCELLED or a
 * status csafe does not know.
 */
export async function followBatch(ctx: Context, batchId: string, options: FollowOptions): Promise<Outcome> {
  const http = await ctx.http();
  const again = ['csafe', 'batch', 'get', shellWord(batchId), '--wait', ...(options.download === undefined ? [] : ['--download', shellWord(options.download)])];
  const batch = await waitForOne<Batch>(ctx, {
    timeoutMs: options.timeoutMs,
    get: () => getBatch(http, batchId),
    status: (value) => value.batch_status,
    statuses: BATCH_STATUSES,
    describe: `batch ${batchId}`,
    progress: batchProgress,
    checkAgain: again.join(' '),
  });
  await printBatch(ctx.io, await ctx.outputFormat('single'), batch);
  if (batchFailed(batch)) {
    const reason = errorMessage(batch);
    ctx.io.warn(`batch ${batchId} ended ${batchProgress(batch)}${reason === undefined ? '' : `: ${reason}`}`);
    return { kind: 'followed', failed: true };
  }
  if (options.download !== undefined) {
    // Run again, this command would send another batch: a result it could not write is fetched with batch download.
    const fetchAgain = sameServiceCommand(ctx.argv, `batch download ${shellWord(batchId)} ${shellWord(options.download)}`, { output: false });
    await downloadResult(ctx, batch, { path: options.download, fetchAgain });
  }
  return { kind: 'followed', failed: false };
}
