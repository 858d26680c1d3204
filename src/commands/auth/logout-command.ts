import type { Command } from 'commander';
import type { App } from '../app.js';
import { addHelpSections, PROFILE_VARIABLES } from '../../core/cli/help.js';

export function registerAuthLogout(group: Command, app: App): void {
  addHelpSections(group.command('logout').description('Remove the stored API key from the profile'), {
    examples: ['csafe auth logout', 'csafe --profile staging auth logout'],
    environment: PROFILE_VARIABLES,
  })
    .action(app.action(async (ctx, command) => (await import('./logout.js')).authLogoutAction(ctx, command)));
}
