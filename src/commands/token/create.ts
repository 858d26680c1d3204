import { createAccessToken } from '../../api/tokens.js';
import { durationMs } from '../../core/cli/duration.js';
import { UsageError } from '../../core/errors.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { accessTokenRequestSchema, TOKEN_LIFETIME, type AccessTokenRequest } from '../../schemas/tokens.js';
import type { Context } from '../../context.js';
import type { Action } from '../app.js';
import { flagOfField, type OptionsOf } from '../../core/cli/flags.js';
import { parseFlags } from '../../core/cli/options.js';
import type { tokenCreate } from './create-command.js';

// `csafe token create`: asks the service for a short-lived access token and prints it.

type TokenOptions = Partial<OptionsOf<typeof tokenCreate.flags>>;

/** The option that fills each field of the request. */
const OPTION_OF_FIELD: Record<string, keyof TokenOptions> = { expires_in: 'expiresIn', user_id: 'userId', customer_session_id: 'sessionId' };

/** --expires-in as the request's seconds: a plain number as it is (the schema judges it), a duration (`15m`) in seconds. */
function lifetimeSeconds(text: string): number {
  if (/^\s*-?\d+(\.\d+)?\s*$/.test(text)) return Number(text);
  const ms = durationMs(text.trim());
  if (ms === undefined) throw new UsageError(`--expires-in: expected a duration such as 15m or 2h, or seconds (${TOKEN_LIFETIME.minSeconds}..${TOKEN_LIFETIME.maxSeconds}), got "${text}"`);
  return ms / 1000;
}

/** The request is checked with the same schema the emulator uses, so the rules live in one place. */
function tokenRequest(options: TokenOptions): AccessTokenRequest {
  const parsed = accessTokenRequestSchema.safeParse({
    ...(options.expiresIn !== undefined && { expires_in: lifetimeSeconds(options.expiresIn) }),
    ...(options.userId !== undefined && { user_id: options.userId }),
    ...(options.sessionId !== undefined && { customer_session_id: options.sessionId }),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new UsageError(`${flagOfField(OPTION_OF_FIELD, issue.path[0]!) ?? 'token'}: ${issue.message}`);
}

export async function tokenCreateRun(ctx: Context, options: TokenOptions): Promise<void> {
  const request = tokenRequest(options);
  const format = await ctx.outputFormat('single');
  const token = await createAccessToken(await ctx.http(), request);
  await printResult(ctx.io, format, token, recordView(token));
}

/** The action of `token create` (create-command.ts), loaded when the command runs. */
export const tokenCreateAction: Action<typeof tokenCreate.flags> = (ctx, command, flags) => tokenCreateRun(ctx, parseFlags(flags, command.opts()));
