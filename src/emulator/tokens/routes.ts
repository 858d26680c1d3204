import { randomBytes } from 'node:crypto';
import { TOKEN_LIFETIME, accessTokenRequestSchema } from '../../schemas/tokens.js';
import { tokenDigest } from '../http/auth.js';
import { EmulatorError } from '../http/errors.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { bodyOrEmptyObject, validateBody } from '../http/validation.js';

/** How the emulator issues access tokens (POST /v1/access_tokens). */

export const tokenRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/access_tokens', maxBodyBytes: 64 * 1024, auth: true, handle: issueAccessToken },
];

async function issueAccessToken(ctx: RouteContext): Promise<RouteResult> {
  if (ctx.credential.kind !== 'api_key') {
    throw new EmulatorError(403, 'only a long-lived API key can create access tokens; a short-lived token cannot create further tokens');
  }
  // Every field is optional, so no body at all is a valid request.
  const request = validateBody(accessTokenRequestSchema, bodyOrEmptyObject(ctx.json()));
  const expiresIn = request.expires_in ?? TOKEN_LIFETIME.defaultSeconds;
  const expiresAt = ctx.config.now() + expiresIn * 1000;
  const accessToken = `cst_${randomBytes(16).toString('hex')}`;
  await ctx.state.tokens.issue(tokenDigest(accessToken), expiresAt, ctx.config.now());
  return {
    status: 200,
    body: { access_token: accessToken, expires_at: new Date(expiresAt).toISOString(), expires_in: expiresIn, token_type: 'Bearer' },
  };
}
