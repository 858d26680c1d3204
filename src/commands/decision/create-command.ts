import { collect } from '../../core/cli/bulk-flags.js';
import type { Command } from 'commander';
import { waitTimeoutHelp } from '../../core/cli/wait.js';
import type { App } from '../app.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/cli/help.js';

export function registerDecisionCreate(group: Command, app: App): void {
  const verb = group
    .command('create')
    .description('Ask for a decision on one piece of content (POST /v1/decisions)')
    .option('--type <type>', 'the kind of content to review, e.g. text, listing')
    .option('--content <json|@file>', 'the content: a JSON object, inline or from a file (@- reads stdin); its fields depend on --type')
    .option('--metadata <key=value|@file.json>', 'metadata kept with the decision (repeatable)', collect)
    .option('--wait', 'poll until the decision is SUCCESS or ERROR, then show it (exit 1 on ERROR)')
    .option('--timeout <duration>', waitTimeoutHelp('5m'))
    .addHelpText('after', `
Prints the decision's id, type and metadata. With --wait it shows the settled decision instead:
its status, result and labels (--json: the decision as the service returned it, with its type).`);
  addHelpSections(verb, {
    examples: [
      `csafe decision create --type text --content '{"text":"see you"}' --metadata source=app --wait`,
      'csafe decision create --type listing --content @examples/listing.json --json',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./create.js')).decisionCreateAction(ctx, command)));
}
