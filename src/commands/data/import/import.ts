import type { Context } from '../../../context.js';
import type { LineCheck } from '../../../core/input/jsonl-checker.js';
import { parseFlags } from '../../../core/cli/options.js';
import type { dataImport } from './import-command.js';
import { fileOrStdin, refuseEmptyRecords, regularFileSize } from '../../../core/input/sources.js';
import { rereadableInput } from '../../../core/input/spool.js';
import type { UploadFile } from '../../../core/upload/file-upload.js';
import { positional, type Outcome } from '../../app.js';
import { parseNamespace } from '../../namespace.js';
import { importCheckedFile, importFile, type ImportedFile } from './upload.js';
import { printUploadSummary, uploadNote, uploadSummary } from './output.js';
import { waitAndPrintRecord } from '../shared/wait.js';
import { fastObjectLines } from '../shared/objects.js';
import { waitOptions, type WaitOptions } from '../../../core/cli/wait.js';
import { dataObjectProblem, type NamespaceSchema } from '../../../schemas/data.js';
import { schemaFlag } from '../../namespace-schema.js';
import { shellWord } from '../../../core/cli/command-line.js';
import { toJsonLines } from '../../../core/input/jsonl-checker.js';
import type { Action } from '../../app.js';

/** Each line a data object with a non-empty string id; a JSON array is pointed to the command that takes one. */
const dataLines = (namespace: string, name: string): LineCheck => ({
  problemOf: dataObjectProblem,
  fast: fastObjectLines(),
  hint: 'each line must be one JSON object with a non-empty string "id"; fix the lines above, or pass --no-validate to upload the file as it is',
  arrayHint: `${toJsonLines(name, 'objects.jsonl')}, or send it as it is with \`csafe data add ${shellWord(namespace)} ${name === 'stdin' ? '-' : shellWord(name)}\`, which takes a JSON array`,
});

export interface ImportOptions extends WaitOptions {
  validate: boolean;
  /** --schema FILE. */
  schema?: string;
}

function importOptions(flags: typeof dataImport.flags, raw: unknown): ImportOptions {
  const options = parseFlags(flags, raw);
  return { ...waitOptions(options), validate: options.validate, schema: options.schema };
}

export async function importRun(ctx: Context, namespace: string, path: string, options: ImportOptions): Promise<Outcome | void> {
  const format = await ctx.outputFormat('single');
  const schema = options.schema === undefined ? undefined : await schemaFlag(ctx.io, options.schema, path, ctx.signal);
  const imported = await uploadInput(ctx, namespace, path, options.validate, schema);
  const summary = uploadSummary(namespace, imported);
  if (options.wait) {
    ctx.io.note(uploadNote(summary));
    return waitAndPrintRecord(ctx, namespace, summary.request_id, options.timeoutMs);
  }
  await printUploadSummary(ctx.io, format, summary);
}

/**
 * Validates (unless told not to) while it uploads the file, reading it once; stdin or a pipe is
 * kept in a temporary file (it needs a Content-Length), removed however this ends.
 */
async function uploadInput(ctx: Context, namespace: string, path: string, validate: boolean, schema: NamespaceSchema | undefined): Promise<ImportedFile> {
  const input = await rereadableInput(path, ctx.io, ctx.signal);
  try {
    const { source } = input;
    const file: UploadFile = { path: input.path, name: source.name, size: await regularFileSize(source.name, input.path) };
    const deps = { http: await ctx.http(), io: ctx.io, now: () => ctx.now(), signal: ctx.signal };
    // Only --schema has a choice of endpoint to remember.
    const request = { schema, memory: schema === undefined ? undefined : await ctx.serviceMemory() };
    if (validate) return await importCheckedFile(deps, namespace, source.name, file, dataLines(namespace, source.name), request);
    await refuseEmptyRecords(source);
    return await importFile(deps, namespace, file, request);
  } finally {
    await input.remove();
  }
}

/** The action of the command declared in import-command.ts, loaded when it runs. */
export const dataImportAction: Action<typeof dataImport.flags> = async (ctx, command, flags) => {
      const [namespace, path] = positional(command) as [string, string | undefined];
      return importRun(ctx, parseNamespace(namespace), fileOrStdin(path, ctx.io.stdinIsTTY), importOptions(flags, command.opts()));
    };
