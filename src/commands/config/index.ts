import type { Command } from 'commander';
import { CONFIG_KEYS } from '../../core/config/settings.js';
import { positional, type App } from '../app.js';
import { addGroupHelpSections, addHelpSections, PROFILE_VARIABLES } from '../../core/cli/help.js';

export function registerConfig(program: Command, app: App): void {
  const group = program
    .command('config')
    .description(`Profile settings: ${CONFIG_KEYS.join(', ')}`)
    .addHelpText('after', '\nThe profile is --profile, else CSAFE_PROFILE, else "default". get, unset and list refuse a profile\nthe config file does not hold (exit 2, listing those it does); set creates it.');
  addGroupHelpSections(group);

  addHelpSections(group.command('get').description('Print one setting of the profile (api_key is masked)').argument('<key>'), {
    examples: ['csafe --profile staging config get base_url', 'csafe config get user_id     # exit 1 when the profile does not set it'],
    environment: PROFILE_VARIABLES,
  })
    .action(app.action(async (ctx, command) => (await import('./run.js')).configGetRun(ctx, positional(command)[0] as string)));

  addHelpSections(
    group
      .command('set')
      .description('Set one setting of the profile, creating the profile if it is new; the value is checked as its flag would check it')
      .argument('<key>')
      .argument('<value>'),
    {
      examples: ['csafe config set user_id u1', 'csafe config set output json', 'csafe --profile staging config set base_url https://csafe.staging.example.com'],
      environment: PROFILE_VARIABLES,
    },
  )
    .action(app.action(async (ctx, command) => (await import('./run.js')).configSetRun(ctx, ...(positional(command) as [string, string]))));

  addHelpSections(
    group.command('unset').description('Remove one setting from the profile (its default, environment variable or flag applies again)').argument('<key>'),
    { examples: ['csafe config unset output', 'csafe --profile staging config unset user_id'], environment: PROFILE_VARIABLES },
  )
    .action(app.action(async (ctx, command) => (await import('./run.js')).configUnsetRun(ctx, positional(command)[0] as string)));

  addHelpSections(group.command('list').description('Print every setting of the profile (api_key is masked)'), {
    examples: ['csafe config list', 'csafe --profile staging config list --json | jq -r .base_url'],
    environment: [...PROFILE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx) => (await import('./run.js')).configListRun(ctx)));
}
