import type { Command } from 'commander';
import type { App } from '../../app.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../../core/cli/help.js';
import { waitTimeoutHelp } from '../../../core/cli/wait.js';

export function registerBatchCreate(group: Command, app: App): void {
  const verb = group
    .command('create')
    .description('Check a CSV and send it as a batch (POST /v1/batches, then PUT to the pre-signed address)')
    .argument('<file>', 'CSV with a header row and a Content column (other columns are your metadata); `-` reads stdin')
    .requiredOption('--type <type>', 'the kind of content to review, e.g. text')
    .option('--wait', 'poll the batch until SUCCESS, CANCELLED or ERROR (exit 1 on the last two), then print it')
    .option('--timeout <duration>', waitTimeoutHelp('30m'))
    .option('--download <file>', 'with --wait: write the result CSV to this file once the batch has succeeded')
    .addHelpText('after', `
Every row is checked before anything is sent: a header row, a Content column (matched exactly),
as many fields on each row as in the header, no empty Content. Quoted fields may hold commas,
quotes ("") and line breaks; a byte order mark and CRLF are fine. Each bad row is reported as
file:line (exit 2). The file is streamed from disk with a progress bar on a terminal; an
expired upload address is replaced by a new batch.`);
  addHelpSections(verb, {
    examples: [
      'csafe batch create --type text examples/reviews.csv --wait --download results.csv',
      'csafe batch create --type text examples/reviews.csv --json | jq -r .batch_id',
      'cat examples/reviews.csv | csafe batch create --type text - --wait --timeout 10m',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./create.js')).batchCreateAction(ctx, command)));
}
