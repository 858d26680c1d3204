import type { Command } from 'commander';
import { createImport } from '../../api/older-imports.js';
import type { Context } from '../../context.js';
import { checkEveryLine, type LineCheck } from '../../core/checked-records.js';
import { uploadBeforeExpiry, type ExpiringUpload } from '../../core/expiring-upload.js';
import { printResult, recordView } from '../../core/output.js';
import { formatBytes } from '../../core/progress.js';
import { withUploadableInput } from '../../core/spool.js';
import { waitOptions, waitTimeoutHelp, type WaitOptions } from '../../core/wait.js';
import { describeProblem } from '../../schemas/issues.js';
import { importLineProblems, OLDER_IMPORT_CONTENT_TYPE, OLDER_IMPORT_UPLOAD_TTL_SECONDS, type ImportCreated } from '../../schemas/older-imports.js';
import { positional, type App, type Outcome } from '../app.js';
import { followImport } from './shared.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/help.js';

/** Each line `{"type": non-empty string, "data": object}`. */
const IMPORT_LINES: LineCheck = {
  problemOf: (value) => importLineProblems(value).map((p) => (p.path.length === 0 ? p.message : describeProblem(p))).join('; ') || undefined,
  hint: 'each line must be one JSON object {"type": "<kind of data>", "data": {…}}; fix the lines above',
};

export function registerImportCreate(group: Command, app: App): void {
  const verb = group
    .command('create')
    .description('Create an import and upload a JSONL file to it (POST /v1/import, then PUT to the pre-signed address)')
    .argument('<file>', 'JSON Lines, one {"type": …, "data": {…}} per line, kinds mixed; `-` reads stdin (kept in a temporary file first)')
    .option('--wait', 'poll the import until it is COMPLETE or FAILED (exit 1 when FAILED), then print it')
    .option('--timeout <duration>', waitTimeoutHelp('10m'))
    .addHelpText('after', `
This is the older import (POST /v1/import): its lines carry their own kind of data, and it is
followed with \`csafe import get\`. To load objects into a namespace, use \`csafe data import\`.

Every line is checked before anything is sent; a bad line is reported as file:line: field: …
(exit 2). The file is then streamed from disk with its Content-Length and Content-Type
application/jsonl, with a progress bar on a terminal. The upload address lives 1 hour: when it
has expired, a new import is created and the old one's id named on stderr.`);
  addHelpSections(verb, {
    examples: [
      'csafe import create examples/records.jsonl --wait',
      'cat examples/records.jsonl | csafe import create - --json',
      'csafe import create examples/records.jsonl --wait --timeout 10m --json | jq -r .import_status',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => {
      const [path] = positional(command) as [string];
      return importCreateRun(ctx, path, waitOptions(command.opts()));
    }));
}

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
    await checkEveryLine(source, ctx.io, ctx.signal, IMPORT_LINES);
    const http = await ctx.http();
    return uploadBeforeExpiry({ http, io: ctx.io, now: () => ctx.now() }, file, OLDER_IMPORT_CONTENT_TYPE, async () => {
      // The spec gives the address's lifetime, not its end: it is counted from before the request, to be safe.
      const expiresAt = new Date(ctx.now() + OLDER_IMPORT_UPLOAD_TTL_SECONDS * 1000).toISOString();
      const created = await createImport(http);
      return { issued: created, id: created.import_id, url: created.upload_url, expiresAt };
    });
  });
}

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
