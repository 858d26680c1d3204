import type { Command } from 'commander';
import { getBatch } from '../../../api/batches.js';
import type { Context } from '../../../context.js';
import { positional, type App } from '../../app.js';
import { downloadResult, type DownloadTarget } from './fetch.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../../core/help.js';

export function registerBatchDownload(group: Command, app: App): void {
  const verb = group
    .command('download')
    .description('Stream the result CSV of a finished batch to a file or stdout, or as one JSON object per row')
    .argument('<batch-id>', 'a batch whose batch_status is SUCCESS')
    .option('-o, --output <file>', 'write to this file (replaced whole, never left half-written); default stdout')
    .option('--json', 'one JSON object per row, keyed by the CSV header: Content, Status, Service result, Expected result, Labels, then your own columns')
    .addHelpText('after', `
The result is streamed from its pre-signed address (valid 1 hour; an expired one is replaced by
looking the batch up again) and never held in memory.`);
  addHelpSections(verb, {
    examples: [
      'csafe batch download bat_123 -o results.csv',
      `csafe batch download bat_123 --json | jq -r '.Status + " " + .Labels'`,
    ],
    environment: SERVICE_VARIABLES,
  })
    .action(app.action(async (ctx, command) => {
      const [batchId] = positional(command) as [string];
      const options = command.opts() as { output?: string };
      return batchDownloadRun(ctx, batchId, { path: options.output, json: Boolean(ctx.flags.json) });
    }));
}

async function batchDownloadRun(ctx: Context, batchId: string, target: DownloadTarget): Promise<void> {
  await downloadResult(ctx, await getBatch(await ctx.http(), batchId), target);
}
