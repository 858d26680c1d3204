import type { Command } from 'commander';
import { z } from 'zod';
import { createAccessToken } from '../../api/tokens.js';
import { parseOptions } from '../../core/options.js';
import { printResult, renderRecord } from '../../core/output.js';
import { TOKEN_LIFETIME } from '../../schemas/tokens.js';
import type { App } from '../app.js';

const optionsSchema = z.object({
  expiresIn: z.coerce
    .number({ error: 'expected a number of seconds' })
    .int({ error: 'expected a whole number of seconds' })
    .min(TOKEN_LIFETIME.minSeconds, { error: `expected at least ${TOKEN_LIFETIME.minSeconds} seconds` })
    .max(TOKEN_LIFETIME.maxSeconds, { error: `expected at most ${TOKEN_LIFETIME.maxSeconds} seconds` })
    .optional(),
  userId: z.string().min(1, { error: 'expected a non-empty user id' }).optional(),
  sessionId: z.string().min(1, { error: 'expected a non-empty session id' }).optional(),
});

export function registerTokenCreate(group: Command, app: App): void {
  group
    .command('create')
    .description('Exchange the API key for a short-lived access token (POST /v1/access_tokens)')
    .option('--expires-in <seconds>', `lifetime, ${TOKEN_LIFETIME.minSeconds}..${TOKEN_LIFETIME.maxSeconds} (service default ${TOKEN_LIFETIME.defaultSeconds})`)
    .option('--user-id <id>', 'user the token is attributed to')
    .option('--session-id <id>', 'opaque customer session identifier')
    .action(app.action(async (ctx, command) => {
      const options = parseOptions(optionsSchema, command.opts());
      const format = await ctx.outputFormat();
      const token = await createAccessToken(await ctx.http(), {
        ...(options.expiresIn !== undefined && { expires_in: options.expiresIn }),
        ...(options.userId !== undefined && { user_id: options.userId }),
        ...(options.sessionId !== undefined && { customer_session_id: options.sessionId }),
      });
      await printResult(ctx.io, format, token, () => renderRecord(token as Record<string, unknown>, ctx.io));
    }));
}
