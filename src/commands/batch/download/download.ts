import { getBatch } from '../../../api/batches.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../core/errors.js';
import { downloadFormat } from '../../../core/download/destination.js';
import { positional } from '../../app.js';
import { downloadResult, type DownloadTarget } from './fetch.js';
import type { Action } from '../../app.js';
import { parseFlags } from '../../../core/cli/options.js';
import type { batchDownload } from './download-command.js';

/** Where and how the result goes: --escape-formulas is for the CSV a spreadsheet may open, not for JSON rows. */
function downloadTarget(path: string | undefined, flags: { output?: string; json?: boolean }, escapeFormulas: boolean): DownloadTarget {
  const rows = downloadFormat(flags, 'batch download', 'the result is CSV');
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
