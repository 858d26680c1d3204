import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { printResult, recordView } from '../../core/output.js';
import { maskKey } from '../../core/redact.js';
import type { App, Outcome } from '../app.js';
import { addHelpSections, PROFILE_VARIABLES } from '../../core/help.js';

export function registerAuthStatus(group: Command, app: App): void {
  addHelpSections(
    group.command('status').description('Show which key and base URL would be used, and where they come from (key masked); under --emulator, the emulator\'s'),
    {
      examples: ['csafe auth status', 'csafe auth status --json | jq -r .api_key_source', 'csafe --emulator auth status'],
      environment: ['CSAFE_API_KEY', 'CSAFE_BASE_URL', ...PROFILE_VARIABLES, 'CSAFE_EMULATOR_DATA_DIR', 'COLUMNS'],
    },
  )
    .action(app.action((ctx) => authStatusRun(ctx)));
}

export async function authStatusRun(ctx: Context): Promise<Outcome | void> {
  const settings = await ctx.settings();
  const { baseUrl, apiKey } = await ctx.credentials();
  const status = {
    profile: settings.profile,
    base_url: baseUrl?.value ?? null,
    base_url_source: baseUrl?.source ?? null,
    api_key: apiKey ? maskKey(apiKey.value) : null,
    api_key_source: apiKey?.source ?? null,
    config_file: (await ctx.config()).path,
  };
  await printResult(ctx.io, await ctx.outputFormat('single'), status, recordView(status));
  if (!apiKey) {
    ctx.io.warn('no API key configured: run `csafe auth login` or set CSAFE_API_KEY');
    return { kind: 'unauthenticated' };
  }
}
