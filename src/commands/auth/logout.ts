import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { App } from '../app.js';
import { addHelpSections, PROFILE_VARIABLES } from '../../core/help.js';

export function registerAuthLogout(group: Command, app: App): void {
  addHelpSections(group.command('logout').description('Remove the stored API key from the profile'), {
    examples: ['csafe auth logout', 'csafe --profile staging auth logout'],
    environment: PROFILE_VARIABLES,
  })
    .action(app.action((ctx) => authLogoutRun(ctx)));
}

export async function authLogoutRun(ctx: Context): Promise<void> {
  const profile = await ctx.profileName();
  const store = await ctx.config();
  if (store.profile(profile).api_key === undefined) {
    ctx.io.note(`no API key was stored in profile "${profile}"; nothing to remove`);
    return;
  }
  store.unset(profile, 'api_key');
  ctx.io.note(`Removed the API key from profile "${profile}"`);
}
