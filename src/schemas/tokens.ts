import * as z from 'zod';

import { TOKEN_LIFETIME } from './names.js';

export { TOKEN_LIFETIME } from './names.js';

/** What POST /v1/access_tokens takes and answers. */

export const accessTokenRequestSchema = z.strictObject({
  customer_session_id: z.string().min(1, { error: 'expected a non-empty session id' }).optional(),
  expires_in: z
    .number({ error: 'expected a number of seconds' })
    .int({ error: 'expected a whole number of seconds' })
    .min(TOKEN_LIFETIME.minSeconds, { error: `expected at least ${TOKEN_LIFETIME.minSeconds} seconds` })
    .max(TOKEN_LIFETIME.maxSeconds, { error: `expected at most ${TOKEN_LIFETIME.maxSeconds} seconds` })
    .optional(),
  user_id: z.string().min(1, { error: 'expected a non-empty user id' }).optional(),
});

export const accessTokenResponseSchema = z.looseObject({
  access_token: z.string(),
  expires_at: z.string(),
  expires_in: z.number(),
  token_type: z.string(),
});

export type AccessTokenRequest = z.infer<typeof accessTokenRequestSchema>;
export type AccessTokenResponse = z.infer<typeof accessTokenResponseSchema>;
