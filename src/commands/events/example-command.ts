import type { Command } from 'commander';
import { EVENT_TYPES } from '../../schemas/names.js';
import type { App } from '../app.js';
import { addHelpSections, PROFILE_VARIABLES } from '../../core/cli/help.js';

export function registerEventsExample(group: Command, app: App): void {
  addHelpSections(
    group
      .command('example')
      .description('Print a valid example event of a variant (all seven as JSON Lines when none is named)')
      .argument('[type]', EVENT_TYPES.join(', ')),
    {
      examples: ['csafe events example product_changed', 'csafe events example > events.jsonl', `csafe events example user_report | jq -c '.user_id = "u42"' >> events.jsonl`],
      environment: PROFILE_VARIABLES,
    },
  )
    .action(app.action(async (ctx, command) => (await import('./example.js')).eventsExampleAction(ctx, command)));
}
