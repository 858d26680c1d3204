import type { Command } from 'commander';
import type { App } from '../app.js';
import { addHelpSections, PROFILE_VARIABLES } from '../../core/cli/help.js';

export function registerAuthStatus(group: Command, app: App): void {
  addHelpSections(
    group.command('status').description('Show which key and base URL would be used, and where they come from (key masked); under --emulator, the emulator\'s'),
    {
      examples: ['csafe auth status', 'csafe auth status --json | jq -r .api_key_source', 'csafe --emulator auth status'],
      environment: ['CSAFE_API_KEY', 'CSAFE_BASE_URL', ...PROFILE_VARIABLES, 'CSAFE_EMULATOR_DATA_DIR', 'COLUMNS'],
    },
  )
    .action(app.action(async (ctx, command) => (await import('./status.js')).authStatusAction(ctx, command)));
}
