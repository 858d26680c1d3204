import type { Command } from 'commander';
import { waitTimeoutHelp } from '../../core/cli/wait.js';
import type { App } from '../app.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/cli/help.js';

export function registerImportCreate(group: Command, app: App): void {
  const verb = group
    .command('create')
    .description('Create an import and upload a JSONL file to it (POST /v1/import, then PUT to the pre-signed address)')
    .argument('<file>', 'JSON Lines, one {"type": …, "data": {…}} per line, kinds mixed; `-` reads stdin (kept in a temporary file first)')
    .option('--wait', 'poll the import until it is COMPLETE or FAILED (exit 1 when FAILED), then print it')
    .option('--timeout <duration>', waitTimeoutHelp('10m'))
    .addHelpText('after', `
This is the older import (POST /v1/import): its lines carry their own kind of data, and it is
followed with \`csafe import get\`. To load objects into a namespace, use \`csafe data import\`.

Every line is checked before anything is sent; a bad line is reported as file:line: field: …
(exit 2). The file is then streamed from disk with its Content-Length and Content-Type
application/jsonl, with a progress bar on a terminal. The upload address lives 1 hour: when it
has expired, a new import is created and the old one's id named on stderr.`);
  addHelpSections(verb, {
    examples: [
      'csafe import create examples/records.jsonl --wait',
      'cat examples/records.jsonl | csafe import create - --json',
      'csafe import create examples/records.jsonl --wait --timeout 10m --json | jq -r .import_status',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./create.js')).importCreateAction(ctx, command)));
}
