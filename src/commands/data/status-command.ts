import type { Command } from 'commander';
import type { App } from '../app.js';
import { waitTimeoutHelp } from '../../core/cli/wait.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/cli/help.js';

export function registerDataStatus(group: Command, app: App): void {
  const verb = group
    .command('status')
    .description('Show an add or import request (GET /v1/data/{namespace}/requests/{requestId})')
    .argument('<namespace>', 'the namespace')
    .argument('<request-id>', 'as printed by `data add` or `data import`')
    .option('--wait', 'poll until the request has succeeded or failed (exit 1 when it failed)')
    .option('--timeout <duration>', waitTimeoutHelp('30m'))
    .addHelpText('after', `
On a terminal, an add request is a table of its objects, one row each: ID, STATUS (succeeded, or
failed for an object the service could not process), LABELS (label:decision, …), URL (where to
review it) and ERROR (why it failed); an import request is a summary (request_id, namespace, status,
data_count, data_url, data_expires_at, then error when it failed). Long cells are cut to the
terminal's width (--wide shows them whole). In a pipe, or with --json, the record is printed as the
service returned it, as JSON; --wait prints the same once the request has ended.`);
  addHelpSections(verb, {
    examples: [
      'csafe data status listings req_123 --wait --timeout 30m',
      "csafe data status listings req_123 --json | jq '.data[].output.labels'",
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./status.js')).dataStatusAction(ctx, command)));
}
