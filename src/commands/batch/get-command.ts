import type { Command } from 'commander';
import type { App } from '../app.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/cli/help.js';
import { waitTimeoutHelp } from '../../core/cli/wait.js';

export function registerBatchGet(group: Command, app: App): void {
  const verb = group
    .command('get')
    .description('Show a batch: its status and five counts (GET /v1/batches/{id})')
    .argument('<batch-id>', 'as printed by `batch create`')
    .option('--wait', 'poll until SUCCESS, CANCELLED or ERROR (exit 1 on the last two), with the counts on a spinner')
    .option('--timeout <duration>', waitTimeoutHelp('30m'))
    .option('--download <file>', 'with --wait: write the result CSV to this file once the batch has succeeded')
    .addHelpText('after', `
Statuses: WAITING_FOR_UPLOAD, PENDING, SUCCESS, CANCELLED, ERROR (others are shown as they come).
Counts: batch_count, success_count, pending_count, error_count, cancelled_count.`);
  addHelpSections(verb, {
    examples: [
      'csafe batch get bat_123',
      'csafe batch get bat_123 --wait --timeout 10m --download results.csv',
      'csafe batch get bat_123 --json | jq .success_count',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./get.js')).batchGetAction(ctx, command)));
}
