import type { Command } from 'commander';
import { waitTimeoutHelp } from '../../core/cli/wait.js';
import type { App } from '../app.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/cli/help.js';

export function registerDecisionGet(group: Command, app: App): void {
  const verb = group
    .command('get')
    .description('Show a decision: status, result and labels (GET /v1/decisions/{decision_id})')
    .argument('<decision-id>', 'as printed by `decision create`')
    .option('--wait', 'poll while it is PENDING, until SUCCESS or ERROR (exit 1 on ERROR)')
    .option('--timeout <duration>', waitTimeoutHelp('5m'))
    .addHelpText('after', `
The decision's fields (a result not known yet shows as none, fields the spec does not list as they
came), then its labels as a table: name, applied, explanation. --json prints it as returned.`);
  addHelpSections(verb, {
    examples: [
      'csafe decision get dec_123 --wait',
      "csafe decision get dec_123 --json | jq '.labels[] | select(.applied)'",
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./get.js')).decisionGetAction(ctx, command)));
}
