import { fileOrStdin } from '../../core/input/sources.js';
import { createImport, getImport } from '../../api/older-imports.js';
import type { Context } from '../../context.js';
import { checkEveryLine } from '../../core/bulk/checked-records.js';
import { toJsonLines, type LineCheck } from '../../core/input/jsonl-checker.js';
import { uploadBeforeExpiry, type ExpiringUpload } from '../../core/upload/expiring-upload.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { formatBytes } from '../../core/terminal/progress.js';
import { withUploadableInput } from '../../core/input/spool.js';
import { waitOptions, type WaitOptions } from '../../core/cli/wait.js';
import { describeProblem } from '../../schemas/issues.js';
import { importLineProblems, OLDER_IMPORT_CONTENT_TYPE, OLDER_IMPORT_UPLOAD_TTL_SECONDS, type ImportCreated } from '../../schemas/older-imports.js';
import { positional, type Outcome } from '../app.js';
import { followImport } from './shared.js';
import type { Action } from '../app.js';
import { parseFlags } from '../../core/cli/options.js';
import type { importCreate } from './create-command.js';

/** Each line `{"type": non-empty string, "data": object}`; a JSON array is refused at once. */
const importLines = (name: string): LineCheck => ({
  problemOf: (value) => importLineProblems(value).map((p) => (p.path.length === 0 ? p.message : describeProblem(p))).join('; ') || undefined,
  hint: 'each line must be one JSON object {"type": "<kind of data>", "data": {…}}; fix the lines above',
  arrayHint: toJsonLines(name, 'records.jsonl'),
});

export async function importCreateRun(ctx: Context, path: string, options: WaitOptions): Promise<Outcome | void> {
  const format = await ctx.outputFormat('single');
  const summary = uploadSummary(await uploadInput(ctx, path));
  if (options.wait) {
    ctx.io.note(`uploaded ${formatBytes(summary.bytes)} in ${summary.seconds.toFixed(1)} s to import ${summary.import_id}`);
    return followImport(ctx, summary.import_id, options.timeoutMs);
  }
  await printResult(ctx.io, format, summary, recordView(summary));
}

/** Checks every line, then creates the import and uploads the file. */
function uploadInput(ctx: Context, path: string): Promise<ExpiringUpload<ImportCreated>> {
  return withUploadableInput(path, ctx.io, ctx.signal, async (source, file) => {
    await checkEveryLine(source, ctx.io, ctx.signal, importLines(source.name));
    const http = await ctx.http();
    return uploadBeforeExpiry({ http, io: ctx.io, now: () => ctx.now() }, file, OLDER_IMPORT_CONTENT_TYPE, async () => {
      // The spec gives the address's lifetime, not its end: it is counted from before the request, to be safe.
      const expiresAt = new Date(ctx.now() + OLDER_IMPORT_UPLOAD_TTL_SECONDS * 1000).toISOString();
      const created = await createImport(http);
      const received = async () => RECEIVED_STATUSES.has((await getImport(http, created.import_id)).import_status);
      return { issued: created, id: created.import_id, url: created.upload_url, expiresAt, received };
    });
  });
}

/** The statuses of an import that has its file: each follows the upload (spec, States and transitions). */
const RECEIVED_STATUSES: ReadonlySet<string> = new Set(['IN_PROGRESS', 'COMPLETE', 'FAILED']);

/** What the upload did: the import and its status as this run knows it (uploaded: the service processes it from here). */
function uploadSummary(upload: ExpiringUpload<ImportCreated>) {
  const seconds = upload.durationMs / 1000;
  return {
    import_id: upload.issued.import_id,
    status: 'uploaded',
    bytes: upload.bytes,
    seconds: Number(seconds.toFixed(3)),
    bytes_per_second: seconds > 0 ? Math.round(upload.bytes / seconds) : null,
    imports_created: upload.addresses,
    upload_retries: upload.retries,
  };
}

/** The action of the command declared in create-command.ts, loaded when it runs. */
export const importCreateAction: Action<typeof importCreate.flags> = async (ctx, command, flags) => {
      const [path] = positional(command) as [string | undefined];
      return importCreateRun(ctx, fileOrStdin(path, ctx.io.stdinIsTTY), waitOptions(parseFlags(flags, command.opts())));
    };
