import type { Context } from '../../context.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { maskKey } from '../../core/http/redact.js';
import type { Outcome } from '../app.js';
import type { Action } from '../app.js';

// `csafe auth status`: shows which key and base URL a command would use, and where each comes from.

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

/** The action of the command declared in status-command.ts, loaded when it runs. */
export const authStatusAction: Action = (ctx) => authStatusRun(ctx);
