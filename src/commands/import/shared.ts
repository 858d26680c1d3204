import { getImport } from '../../api/older-imports.js';
import { errorMessage } from '../../api/responses.js';
import type { Context } from '../../context.js';
import type { IOStreams } from '../../core/terminal/io.js';
import { printResult, recordView, type OutputFormat } from '../../core/terminal/output.js';
import { shellWord } from '../../core/cli/command-line.js';
import { waitForOne } from '../../core/cli/wait.js';
import { OLDER_IMPORT_STATUSES, type OlderImport } from '../../schemas/older-imports.js';
import type { Outcome } from '../app.js';

// How an older import is printed and waited for, shared by `import create` and `import get`.

const IMPORT_FIELDS = ['import_id', 'import_status', 'filename', 's3_key', 'created_at'] as const;

/** The spec's fields in its order (an optional one not set yet shows empty), then anything else the service sent. */
function importView(record: OlderImport) {
  const ordered: Record<string, unknown> = {};
  for (const field of IMPORT_FIELDS) ordered[field] = record[field] ?? '';
  for (const [field, value] of Object.entries(record)) if (!(field in ordered)) ordered[field] = value;
  return recordView(ordered);
}

/** A `key: value` view on a terminal (JSON in a pipe, as the service returned it). */
export const printImport = (io: IOStreams, format: OutputFormat, record: OlderImport) => printResult(io, format, record, importView(record));

/** Polls the import until it is COMPLETE or FAILED (spinner, --timeout: 124, Ctrl-C: 130, each naming the command that checks again). */
async function waitForImport(ctx: Context, importId: string, timeoutMs: number): Promise<OlderImport> {
  const http = await ctx.http();
  return waitForOne(ctx, {
    timeoutMs,
    get: () => getImport(http, importId),
    status: (record) => record.import_status,
    statuses: OLDER_IMPORT_STATUSES,
    describe: `import ${importId}`,
    progress: (record) => record.import_status,
    checkAgain: `csafe import get ${shellWord(importId)} --wait`,
  });
}

/** Waits for the import to settle and prints it; exit 1 when it FAILED or ended at a status csafe does not know. */
export async function followImport(ctx: Context, importId: string, timeoutMs: number): Promise<Outcome> {
  const format = await ctx.outputFormat('single');
  const record = await waitForImport(ctx, importId, timeoutMs);
  await printImport(ctx.io, format, record);
  const failed = record.import_status !== OLDER_IMPORT_STATUSES.succeeded;
  if (record.import_status === 'FAILED') ctx.io.warn(`import ${importId} FAILED: ${errorMessage(record) ?? 'the service gave no reason'}`);
  return { kind: 'followed', failed };
}
