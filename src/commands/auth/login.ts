import type { Command } from 'commander';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { parseOptions } from '../../core/options.js';
import { readAll, readHidden } from '../../core/prompt.js';
import { maskKey } from '../../core/redact.js';
import { checkBaseUrl } from '../../core/settings.js';
import type { App } from '../app.js';
import { addHelpSections, PROFILE_VARIABLES } from '../../core/help.js';

const optionsSchema = z.object({ withToken: z.boolean().default(false) });
export type AuthLoginOptions = z.infer<typeof optionsSchema>;

async function readKey(ctx: Context, fromStdin: boolean): Promise<string> {
  if (fromStdin) return (await readAll(ctx.io.stdin)).trim();
  if (!ctx.io.stdinIsTTY) {
    throw new UsageError('stdin is not a terminal, so the key cannot be asked for', {
      hint: 'pipe it in instead: `echo "$KEY" | csafe auth login --with-token`',
    });
  }
  return (await readHidden(ctx.io, 'API key: ')).trim();
}

export function registerAuthLogin(group: Command, app: App): void {
  const verb = group
    .command('login')
    .description('Store an API key in the profile (asked for without echo, or read from stdin)')
    .option('--with-token', 'read the key from stdin')
    .addHelpText('after', '\nThe key is stored in the config file (mode 0600). --base-url is stored too when given.');
  addHelpSections(verb, {
    examples: ['csafe auth login', 'echo "$KEY" | csafe auth login --with-token', 'echo "$KEY" | csafe --profile staging auth login --with-token'],
    environment: PROFILE_VARIABLES,
  })
    .action(app.action((ctx, command) => authLoginRun(ctx, parseOptions(optionsSchema, command.opts()))));
}

export async function authLoginRun(ctx: Context, options: AuthLoginOptions): Promise<void> {
  const key = await readKey(ctx, options.withToken);
  if (key === '' || /\s/.test(key)) throw new UsageError('the API key is empty or contains white space');
  ctx.secrets.add(key);
  const profile = ctx.profileName();
  const store = await ctx.config();
  if (ctx.flags.baseUrl !== undefined) {
    store.set(profile, 'base_url', checkBaseUrl({ value: ctx.flags.baseUrl, source: 'flag' }, Boolean(ctx.flags.insecure)));
  }
  store.set(profile, 'api_key', key);
  ctx.io.note(`Stored key ${maskKey(key)} in profile "${profile}" (${store.path})`);
}
