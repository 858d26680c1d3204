import { refuseSharedFiles } from '../../../core/files/distinct-files.js';
import { fileOrStdin } from '../../../core/input/sources.js';
import { createBatch, getBatch } from '../../../api/batches.js';
import type { Context } from '../../../context.js';
import { UnexpectedResponseError, UsageError } from '../../../core/errors.js';
import { printResult, recordView } from '../../../core/terminal/output.js';
import { formatBytes } from '../../../core/terminal/progress.js';
import { countOf } from '../../../core/terminal/words.js';
import { withUploadableInput } from '../../../core/input/spool.js';
import { uploadBeforeExpiry } from '../../../core/upload/expiring-upload.js';
import { shellWord } from '../../../core/cli/command-line.js';
import { BATCH_CONTENT_TYPE, BATCH_URL_TTL_SECONDS, type Batch } from '../../../schemas/batches.js';
import { positional, type Outcome } from '../../app.js';
import { followBatch, followOptions, type FollowOptions } from '../shared/wait.js';
import { checkBatchCsv } from './check-csv.js';
import type { Action } from '../../app.js';
import { parseFlags } from '../../../core/cli/options.js';
import type { batchCreate } from './create-command.js';

// `csafe batch create`: checks a CSV, uploads it as a batch, and follows it when asked.

export async function batchCreateRun(ctx: Context, type: string, path: string, options: FollowOptions): Promise<Outcome | void> {
  // The result replaces its file: named as the input, the CSV sent would be lost.
  refuseSharedFiles(path, { download: options.download });
  const format = await ctx.outputFormat('single');
  const summary = await sendCsv(ctx, type, path);
  const id = summary.batch_id;
  ctx.io.note(`uploaded ${formatBytes(summary.bytes)} (${countOf(summary.rows, 'row')}) in ${summary.seconds.toFixed(1)} s as batch ${id}`);
  if (options.wait) return followBatch(ctx, id, options);
  ctx.io.note(`check on it with: csafe batch get ${shellWord(id)} --wait`);
  await printResult(ctx.io, format, summary, recordView(summary));
}

/** Checks the CSV, creates the batch and uploads the file. */
function sendCsv(ctx: Context, type: string, path: string) {
  return withUploadableInput(path, ctx.io, ctx.signal, async (source, file) => {
    const rows = await checkBatchCsv(source, ctx.io, ctx.signal);
    const http = await ctx.http();
    const issue = async () => {
      // The spec gives the address's lifetime, not its end: it is counted from before the request, to be safe (as import create does).
      const expiresAt = new Date(ctx.now() + BATCH_URL_TTL_SECONDS * 1000).toISOString();
      const batch = await createBatch(http, type);
      const received = async () => RECEIVED_STATUSES.has((await getBatch(http, batch.batch_id)).batch_status);
      return { issued: batch, id: batch.batch_id, url: uploadUrl(batch), expiresAt, received };
    };
    const upload = await uploadBeforeExpiry({ http, io: ctx.io, now: () => ctx.now() }, file, BATCH_CONTENT_TYPE, issue);
    return {
      batch_id: upload.issued.batch_id,
      type: upload.issued.type,
      status: 'uploaded',
      rows,
      bytes: file.size,
      seconds: Number((upload.durationMs / 1000).toFixed(3)),
      batch_requests: upload.addresses,
      upload_retries: upload.retries,
    };
  });
}

/** The statuses of a batch that has its file; not CANCELLED, which a batch may be without one. */
const RECEIVED_STATUSES: ReadonlySet<string> = new Set(['PENDING', 'SUCCESS', 'ERROR']);

function uploadUrl(batch: Batch): string {
  if (typeof batch.upload_url === 'string' && batch.upload_url !== '') return batch.upload_url;
  throw new UnexpectedResponseError(`POST /v1/batches: batch ${batch.batch_id} came without an upload_url; nothing was sent`);
}

/** The action of the command declared in create-command.ts, loaded when it runs. */
export const batchCreateAction: Action<typeof batchCreate.flags> = async (ctx, command, flags) => {
      const [path] = positional(command) as [string | undefined];
      const options = parseFlags(flags, command.opts());
      // Checked here, not by commander: a missing flag is told as every missing field is.
      if (options.type === undefined) throw new UsageError('--type: is required: the kind of content to review, e.g. text');
      if (options.type.trim() === '') throw new UsageError('--type: expected the kind of content to review, e.g. text');
      return batchCreateRun(ctx, options.type, fileOrStdin(path, ctx.io.stdinIsTTY), followOptions(options));
    };
