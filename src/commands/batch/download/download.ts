import { getBatch } from '../../../api/batches.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../core/errors.js';
import { parseOutputFormat } from '../../../core/terminal/output.js';
import { positional } from '../../app.js';
import { downloadResult, type DownloadTarget } from './fetch.js';
import type { Action } from '../../app.js';
import { parseFlags } from '../../../core/cli/options.js';
import type { batchDownload } from './download-command.js';

/** The CSV unless JSON was asked for: the result is a file, so neither the terminal nor the profile's output changes it. */
function rowsAsJson(flags: { output?: string; json?: boolean }): DownloadTarget['rows'] {
  if (flags.json) return 'json';
  if (flags.output === undefined) return undefined;
  const format = parseOutputFormat(flags.output, '--output');
  if (format === 'table' || format === 'tsv') {
    throw new UsageError(`batch download: -o ${format}: the result is CSV; print it as it is (no -o), or as JSON rows with -o ndjson`);
  }
  return format;
}

/** Where and how the result goes: --escape-formulas is for the CSV a spreadsheet may open, not for JSON rows. */
function downloadTarget(path: string | undefined, flags: { output?: string; json?: boolean }, escapeFormulas: boolean): DownloadTarget {
  const rows = rowsAsJson(flags);
  if (rows && escapeFormulas) {
    throw new UsageError('--escape-formulas: it escapes cells of the result CSV; JSON rows hold each cell as it is', { hint: 'leave out -o ndjson (--json) to get the CSV' });
  }
  return { path, rows, escapeFormulas };
}

async function batchDownloadRun(ctx: Context, batchId: string, target: DownloadTarget): Promise<void> {
  await downloadResult(ctx, await getBatch(await ctx.http(), batchId), target);
}

/** The action of the command declared in download-command.ts, loaded when it runs. */
export const batchDownloadAction: Action<typeof batchDownload.flags> = async (ctx, command, flags) => {
      const [batchId, path] = positional(command) as [string, string | undefined];
      const { escapeFormulas } = parseFlags(flags, command.opts());
      return batchDownloadRun(ctx, batchId, downloadTarget(path, ctx.flags, escapeFormulas));
    };
