import type { Command } from 'commander';
import { getBatch } from '../../../api/batches.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../core/errors.js';
import { parseOutputFormat } from '../../../core/output.js';
import { positional, type App } from '../../app.js';
import { downloadResult, type DownloadTarget } from './fetch.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../../core/help.js';

export function registerBatchDownload(group: Command, app: App): void {
  const verb = group
    .command('download')
    .description('Stream the result CSV of a finished batch to a file or stdout, or as one JSON object per row')
    .argument('<batch-id>', 'a batch whose batch_status is SUCCESS')
    .argument('[file]', 'write to this file (replaced whole, never left half-written); `-` or none: stdout')
    .addHelpText('after', `
Prints the result CSV as the service stores it, on a terminal and in a pipe alike. With -o ndjson
(or -o json, --json) each row is one JSON object instead, keyed by the CSV header: Content, Status,
Service result, Expected result, Labels, then your own columns.

The result is streamed from its pre-signed address (valid 1 hour; an expired one is replaced by
looking the batch up again) and never held in memory.`);
  addHelpSections(verb, {
    examples: [
      'csafe batch download bat_123 results.csv',
      `csafe batch download bat_123 -o ndjson | jq -r '.Status + " " + .Labels'`,
    ],
    environment: SERVICE_VARIABLES,
  })
    .action(app.action(async (ctx, command) => {
      const [batchId, path] = positional(command) as [string, string | undefined];
      return batchDownloadRun(ctx, batchId, { path, json: rowsAsJson(ctx.flags) });
    }));
}

/** The CSV unless JSON was asked for: the result is a file, so neither the terminal nor the profile's output changes it. */
function rowsAsJson(flags: { output?: string; json?: boolean }): boolean {
  if (flags.json) return true;
  const format = flags.output === undefined ? 'table' : parseOutputFormat(flags.output, '--output');
  if (format === 'tsv') throw new UsageError('batch download: -o tsv: the result is CSV; print it as it is, or as JSON rows with -o ndjson');
  return format !== 'table';
}

async function batchDownloadRun(ctx: Context, batchId: string, target: DownloadTarget): Promise<void> {
  await downloadResult(ctx, await getBatch(await ctx.http(), batchId), target);
}
