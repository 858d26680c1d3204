import type { Context } from '../../context.js';
import { destinationOf, downloadFormat, writeDownloadedBytes, writeDownloadedJson } from '../../core/download/destination.js';
import { jsonValuesChunks } from '../../core/terminal/output.js';
import { positional, type Action } from '../app.js';
import { parseNamespace } from '../namespace.js';
import type { dataDownload } from './download-command.js';
import { downloadOutput, outputObjects } from './shared/output.js';

// `csafe data download`: fetches a request's output (…/results/download-url, or an import's
// data_url) to a file or stdout, renewing an expired download address, as `batch download` does
// for a batch's result.

const OUTPUT = 'the output of the request';

export async function dataDownloadRun(ctx: Context, namespace: string, requestId: string, path: string | undefined, rows: 'json' | 'ndjson' | undefined): Promise<void> {
  const deps = { http: await ctx.http(), io: ctx.io, now: () => ctx.now(), argv: ctx.argv };
  await downloadOutput(deps, namespace, requestId, async (body) => {
    const destination = await destinationOf(ctx.io, path, ctx.signal);
    if (rows) return writeDownloadedJson(ctx.io, destination, jsonValuesChunks(outputObjects(body, requestId), rows), OUTPUT);
    return writeDownloadedBytes(ctx.io, destination, body, OUTPUT);
  });
}

/** The action of the command declared in download-command.ts, loaded when it runs. */
export const dataDownloadAction: Action<typeof dataDownload.flags> = async (ctx, command) => {
  const [namespace, requestId, path] = positional(command) as [string, string, string | undefined];
  return dataDownloadRun(ctx, parseNamespace(namespace), requestId, path, downloadFormat(ctx.flags, 'data download', 'the output is JSON Lines'));
};
