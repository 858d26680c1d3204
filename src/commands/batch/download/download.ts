import { getBatch } from '../../../api/batches.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../core/errors.js';
import { parseOutputFormat } from '../../../core/output.js';
import { positional } from '../../app.js';
import { downloadResult, type DownloadTarget } from './fetch.js';
import type { Action } from '../../app.js';

/** The CSV unless JSON was asked for: the result is a file, so neither the terminal nor the profile's output changes it. */
function rowsAsJson(flags: { output?: string; json?: boolean }): boolean {
  if (flags.json) return true;
  if (flags.output === undefined) return false;
  const format = parseOutputFormat(flags.output, '--output');
  if (format === 'table' || format === 'tsv') {
    throw new UsageError(`batch download: -o ${format}: the result is CSV; print it as it is (no -o), or as JSON rows with -o ndjson`);
  }
  return true;
}

async function batchDownloadRun(ctx: Context, batchId: string, target: DownloadTarget): Promise<void> {
  await downloadResult(ctx, await getBatch(await ctx.http(), batchId), target);
}

/** The action of registerBatchDownload (download-command.ts), loaded when the command runs. */
export const batchDownloadAction: Action = async (ctx, command) => {
      const [batchId, path] = positional(command) as [string, string | undefined];
      return batchDownloadRun(ctx, batchId, { path, json: rowsAsJson(ctx.flags) });
    };
