import type { Command } from 'commander';
import { z } from 'zod';
import type { Context } from '../../../context.js';
import { checkEveryLine, type LineCheck } from '../../../core/checked-records.js';
import { parseOptions } from '../../../core/options.js';
import { refuseEmptyRecords, regularFileSize } from '../../../core/readers.js';
import { rereadableInput } from '../../../core/spool.js';
import type { UploadFile } from '../../../core/upload.js';
import { positional, type App, type Outcome } from '../../app.js';
import { parseNamespace } from '../../namespace.js';
import { importFile, type ImportedFile } from './upload.js';
import { printUploadSummary, uploadNote, uploadSummary } from './output.js';
import { waitAndPrintRecord } from '../shared/wait.js';
import { waitOptions, waitTimeoutHelp, type WaitOptions } from '../../../core/wait.js';
import { dataObjectProblem } from '../../../schemas/data.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../../core/help.js';

const importOptionsSchema = z.object({
  wait: z.boolean().default(false),
  timeout: z.string().optional(),
  validate: z.boolean().default(true),
});

/** Each line a data object with a non-empty string id. */
const DATA_LINES: LineCheck = {
  problemOf: dataObjectProblem,
  hint: 'each line must be one JSON object with a non-empty string "id"; fix the lines above, or pass --no-validate to upload the file as it is',
};

export interface ImportOptions extends WaitOptions {
  validate: boolean;
}

export function registerDataImport(group: Command, app: App): void {
  const verb = group
    .command('import')
    .description('Upload a large JSONL file into a namespace (POST …/import, then PUT to the pre-signed address)')
    .argument('<namespace>', 'namespace to import into')
    .argument('<file>', 'JSON Lines, one data object per line; `-` reads stdin (kept in a temporary file first)')
    .option('--wait', 'poll the import until it has succeeded or failed, then print its record')
    .option('--timeout <duration>', waitTimeoutHelp('30m'))
    .option('--no-validate', 'upload without checking every line first (for trusted dumps)')
    .addHelpText('after', `
The file is streamed from disk with its Content-Length (never held in memory), with a progress
bar on a terminal. A failed upload is retried from the start (--max-retries); an expired upload
address is replaced by a new import request. The upload has no overall time limit, only
--request-timeout with no byte moving; every other request is bounded by --request-timeout.
(The older import, a file of {"type", "data"} lines sent to POST /v1/import, is \`csafe import create\`.)`);
  addHelpSections(verb, {
    examples: [
      'csafe data import listings dump.jsonl --wait',
      'zcat dump.jsonl.gz | csafe data import listings - --no-validate',
      'csafe data import listings dump.jsonl --wait --timeout 30m --json | jq .data_count',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => {
      const [namespace, path] = positional(command) as [string, string];
      return importRun(ctx, parseNamespace(namespace), path, importOptions(command.opts()));
    }));
}

function importOptions(raw: unknown): ImportOptions {
  const options = parseOptions(importOptionsSchema, raw);
  return { ...waitOptions(options), validate: options.validate };
}

export async function importRun(ctx: Context, namespace: string, path: string, options: ImportOptions): Promise<Outcome | void> {
  const format = await ctx.outputFormat('single');
  const imported = await uploadInput(ctx, namespace, path, options.validate);
  const summary = uploadSummary(namespace, imported);
  if (options.wait) {
    ctx.io.note(uploadNote(summary));
    return waitAndPrintRecord(ctx, namespace, summary.request_id, options.timeoutMs);
  }
  await printUploadSummary(ctx.io, format, summary);
}

/** Validates (unless told not to) and uploads the file; stdin or a pipe is kept in a temporary file, removed however this ends. */
async function uploadInput(ctx: Context, namespace: string, path: string, validate: boolean): Promise<ImportedFile> {
  const input = await rereadableInput(path, ctx.io, ctx.signal);
  try {
    const { source } = input;
    const file: UploadFile = { path: input.path, size: await regularFileSize(source.name, input.path) };
    if (validate) await checkEveryLine(source, ctx.io, ctx.signal, DATA_LINES);
    else await refuseEmptyRecords(source);
    return await importFile({ http: await ctx.http(), io: ctx.io, now: () => ctx.now() }, namespace, file);
  } finally {
    await input.remove();
  }
}
