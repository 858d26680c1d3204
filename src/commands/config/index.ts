import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { assertConfigKey, assertRemovableConfigKey, CONFIG_KEYS, type Profile } from '../../core/config.js';
import { printResult, recordView } from '../../core/output.js';
import { maskKey } from '../../core/redact.js';
import { checkConfigValue } from '../../core/settings.js';
import { positional, type App, type Outcome } from '../app.js';
import { addGroupHelpSections, addHelpSections, PROFILE_VARIABLES } from '../../core/help.js';

const shown = (profile: Profile) => (profile.api_key ? { ...profile, api_key: maskKey(profile.api_key) } : profile);

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
    .action(app.action((ctx, command) => configGetRun(ctx, positional(command)[0] as string)));

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
    .action(app.action((ctx, command) => configSetRun(ctx, ...(positional(command) as [string, string]))));

  addHelpSections(
    group.command('unset').description('Remove one setting from the profile (its default, environment variable or flag applies again)').argument('<key>'),
    { examples: ['csafe config unset output', 'csafe --profile staging config unset user_id'], environment: PROFILE_VARIABLES },
  )
    .action(app.action((ctx, command) => configUnsetRun(ctx, positional(command)[0] as string)));

  addHelpSections(group.command('list').description('Print every setting of the profile (api_key is masked)'), {
    examples: ['csafe config list', 'csafe --profile staging config list --json | jq -r .base_url'],
    environment: [...PROFILE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action((ctx) => configListRun(ctx)));
}

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
  store.set(profile, key, value);
  if (created) ctx.io.note(`Created profile "${profile}" in ${store.path}`);
}

export async function configUnsetRun(ctx: Context, rawKey: string): Promise<void> {
  const key = assertRemovableConfigKey(rawKey);
  (await ctx.config()).unset(await ctx.profileName(), key);
}

export async function configListRun(ctx: Context): Promise<void> {
  const profile = shown((await ctx.config()).profile(await ctx.profileName()));
  await printResult(ctx.io, ctx.flagOutputFormat('single'), profile, recordView(profile));
}
