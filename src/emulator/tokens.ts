import { randomBytes } from 'node:crypto';
import { TOKEN_LIFETIME, accessTokenRequestSchema } from '../schemas/tokens.js';
import { tokenDigest } from './auth.js';
import { EmulatorError } from './errors.js';
import type { Route, RouteContext, RouteResult } from './router.js';
import type { IssuedToken } from './state.js';
import { validateBody } from './validation.js';

export const tokenRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/access_tokens', maxBodyBytes: 64 * 1024, auth: true, handle: issueAccessToken },
];

function issueAccessToken(ctx: RouteContext): RouteResult {
  if (ctx.credential.kind !== 'api_key') {
    throw new EmulatorError(403, 'only a long-lived API key can create access tokens; a short-lived token cannot create further tokens');
  }
  // Every field is optional, so no body at all is a valid request.
  const request = validateBody(accessTokenRequestSchema, ctx.json() ?? {});
  const expiresIn = request.expires_in ?? TOKEN_LIFETIME.defaultSeconds;
  const expiresAt = ctx.config.now() + expiresIn * 1000;
  const accessToken = `cst_${randomBytes(16).toString('hex')}`;
  ctx.state.tokens.add(tokenDigest(accessToken), expiresAt, ctx.config.now());
  return {
    status: 200,
    body: { access_token: accessToken, expires_at: new Date(expiresAt).toISOString(), expires_in: expiresIn, token_type: 'Bearer' },
  };
}

/** Issued tokens by digest. Expired ones are pruned as tokens are added, so the table holds about as many as are valid. */
export class TokenTable {
  private readonly tokens = new Map<string, IssuedToken>();
  /** The size at which the next prune runs: twice what the last one kept, so pruning costs O(1) per token. */
  private pruneAt = 1024;

  add(digest: string, expiresAt: number, now: number): void {
    this.tokens.set(digest, { expiresAt });
    if (this.tokens.size < this.pruneAt) return;
    for (const [key, token] of this.tokens) if (now >= token.expiresAt) this.tokens.delete(key);
    this.pruneAt = Math.max(1024, this.tokens.size * 2);
  }

  get(digest: string): IssuedToken | undefined {
    return this.tokens.get(digest);
  }

  get size(): number {
    return this.tokens.size;
  }
}
