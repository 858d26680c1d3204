import type { Command } from 'commander';
import { waitTimeoutHelp } from '../../core/cli/wait.js';
import type { App } from '../app.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/cli/help.js';

export function registerImportGet(group: Command, app: App): void {
  const verb = group
    .command('get')
    .description('Show an import (GET /v1/import/{import_id}): its status, file and creation time')
    .argument('<import-id>', 'as printed by `import create`')
    .option('--wait', 'poll until the import is COMPLETE or FAILED (exit 1 when FAILED)')
    .option('--timeout <duration>', waitTimeoutHelp('10m'))
    .addHelpText('after', `
Statuses: WAITING_FOR_UPLOAD, IN_PROGRESS, COMPLETE, FAILED; any other status or field the
service sends is shown as it comes. --json prints the import as the service returned it.
(For a namespace import request, see \`csafe data status\`.)`);
  addHelpSections(verb, {
    examples: [
      'csafe import get imp_123 --wait --timeout 10m',
      'csafe import get imp_123 --json | jq -r .import_status',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./get.js')).importGetAction(ctx, command)));
}
