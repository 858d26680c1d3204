import type { Context } from '../../context.js';
import type { Action } from '../app.js';

// `csafe auth logout`: removes the stored API key from the profile.

export async function authLogoutRun(ctx: Context): Promise<void> {
  const profile = await ctx.profileName();
  const store = await ctx.config();
  if (store.profile(profile).api_key === undefined) {
    ctx.io.note(`no API key was stored in profile "${profile}"; nothing to remove`);
    return;
  }
  await store.unset(profile, 'api_key');
  ctx.io.note(`Removed the API key from profile "${profile}"`);
}

/** The action of the command declared in logout-command.ts, loaded when it runs. */
export const authLogoutAction: Action = (ctx) => authLogoutRun(ctx);
