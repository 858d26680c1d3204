import type { Command } from 'commander';
import { createAccessToken } from '../../api/tokens.js';
import { UsageError } from '../../core/errors.js';
import { printResult, recordView } from '../../core/output.js';
import { accessTokenRequestSchema, TOKEN_LIFETIME, type AccessTokenRequest } from '../../schemas/tokens.js';
import type { Context } from '../../context.js';
import type { App } from '../app.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/help.js';

interface TokenOptions {
  expiresIn?: string;
  userId?: string;
  sessionId?: string;
}

const FLAG_OF_FIELD: Record<string, string> = { expires_in: '--expires-in', user_id: '--user-id', customer_session_id: '--session-id' };

/** The request is checked with the same schema the emulator uses, so the rules live in one place. */
function tokenRequest(options: TokenOptions): AccessTokenRequest {
  const parsed = accessTokenRequestSchema.safeParse({
    ...(options.expiresIn !== undefined && { expires_in: /^\s*-?\d+(\.\d+)?\s*$/.test(options.expiresIn) ? Number(options.expiresIn) : options.expiresIn }),
    ...(options.userId !== undefined && { user_id: options.userId }),
    ...(options.sessionId !== undefined && { customer_session_id: options.sessionId }),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new UsageError(`${FLAG_OF_FIELD[String(issue.path[0])] ?? 'token'}: ${issue.message}`);
}

export function registerTokenCreate(group: Command, app: App): void {
  const verb = group
    .command('create')
    .description('Exchange the API key for a short-lived access token (POST /v1/access_tokens)')
    .option('--expires-in <seconds>', `lifetime, ${TOKEN_LIFETIME.minSeconds}..${TOKEN_LIFETIME.maxSeconds} (service default ${TOKEN_LIFETIME.defaultSeconds})`)
    .option('--user-id <id>', 'user the token is attributed to')
    .option('--session-id <id>', 'opaque customer session identifier');
  addHelpSections(verb, {
    examples: [
      'csafe token create --expires-in 900 --user-id u1',
      'csafe token create --expires-in 900 --json',
      'CSAFE_API_KEY=$(csafe token create --json | jq -r .access_token) csafe classify --text hi --user-id u1',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action((ctx, command) => tokenCreateRun(ctx, command.opts())));
}

export async function tokenCreateRun(ctx: Context, options: TokenOptions): Promise<void> {
  const request = tokenRequest(options);
  const format = await ctx.outputFormat('single');
  const token = await createAccessToken(await ctx.http(), request);
  await printResult(ctx.io, format, token, recordView(token));
}
