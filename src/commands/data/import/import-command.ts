import type { Command } from 'commander';
import type { App } from '../../app.js';
import { waitTimeoutHelp } from '../../../core/cli/wait.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../../core/cli/help.js';

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
    .action(app.action(async (ctx, command) => (await import('./import.js')).dataImportAction(ctx, command)));
}
