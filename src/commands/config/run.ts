import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { assertConfigKey, assertRemovableConfigKey, type Profile } from '../../core/config/store.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { maskKey, maskUserInfo } from '../../core/http/redact.js';
import { checkConfigValue } from '../../core/config/settings.js';
import { positional, type Action, type Outcome } from '../app.js';

/** The profile fit to print: the key masked, and a user name or password in base_url (refused when used, but a file edited by hand may hold one). */
const shown = (profile: Profile): Profile => ({
  ...profile,
  ...(profile.api_key && { api_key: maskKey(profile.api_key) }),
  ...(profile.base_url && { base_url: maskUserInfo(profile.base_url) }),
});

/** Prints the value; exit 1, printing nothing, when the profile does not hold the key. */
export async function configGetRun(ctx: Context, rawKey: string): Promise<Outcome | void> {
  const key = assertConfigKey(rawKey);
  const value = shown((await ctx.config()).profile(await ctx.profileName()))[key];
  if (value === undefined) return { kind: 'notSet' };
  await ctx.io.out(value + '\n');
}

export async function configSetRun(ctx: Context, rawKey: string, value: string): Promise<void> {
  const key = assertConfigKey(rawKey, value);
  if (key === 'api_key') throw new UsageError('use `csafe auth login` to store a key (it keeps the key out of shell history)');
  checkConfigValue(key, value);
  const profile = await ctx.profileName({ creating: true });
  const store = await ctx.config();
  const created = !store.hasProfile(profile);
  await store.set(profile, key, value);
  if (created) ctx.io.note(`Created profile "${profile}" in ${store.path}`);
}

export async function configUnsetRun(ctx: Context, rawKey: string): Promise<void> {
  const key = assertRemovableConfigKey(rawKey);
  await (await ctx.config()).unset(await ctx.profileName(), key);
}

export async function configListRun(ctx: Context): Promise<void> {
  const profile = shown((await ctx.config()).profile(await ctx.profileName()));
  await printResult(ctx.io, ctx.flagOutputFormat('single'), profile, recordView(profile));
}

/** The actions of the config verbs (index.ts), loaded when one runs. */
export const configGetAction: Action = (ctx, command) => configGetRun(ctx, positional(command)[0] as string);
export const configSetAction: Action = (ctx, command) => configSetRun(ctx, ...(positional(command) as [string, string]));
export const configUnsetAction: Action = (ctx, command) => configUnsetRun(ctx, positional(command)[0] as string);
export const configListAction: Action = (ctx) => configListRun(ctx);
