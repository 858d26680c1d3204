import { createHash, timingSafeEqual } from 'node:crypto';
import { EmulatorError } from './errors.js';
import type { EmulatorConfig } from '../config.js';
import type { TokenTable } from '../stores/token-table.js';

/** Whom a request is from: the emulator's check of the API key or access token it carries, never logged. */

/** Which kind of credential a request carried. Only the kind is ever logged, never the secret. */
export type CredentialKind = 'api_key' | 'token' | 'missing' | 'invalid';

export type Credential =
  | { kind: 'api_key' }
  | { kind: 'token' }
  | { kind: 'missing' }
  | { kind: 'invalid'; reason: string };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Tokens are kept only as this digest, so the state never holds a usable secret. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function identifyCredential(
  authorization: string | undefined,
  config: Pick<EmulatorConfig, 'apiKey' | 'now'>,
  tokens: TokenTable,
): Credential {
  if (authorization === undefined || authorization.trim() === '') return { kind: 'missing' };
  const secret = BEARER.exec(authorization)?.[1];
  if (secret === undefined) return { kind: 'invalid', reason: 'the Authorization header must be "Bearer <API key or access token>"' };
  if (sameSecret(secret, config.apiKey)) return { kind: 'api_key' };
  const token = tokens.get(tokenDigest(secret));
  if (token === undefined) return { kind: 'invalid', reason: 'the API key or access token is not valid' };
  if (config.now() >= token.expiresAt) return { kind: 'invalid', reason: 'the access token has expired; request a new one' };
  return { kind: 'token' };
}

/** 401 unless the request carried the API key or an unexpired access token. */
export function requireCredential(credential: Credential): void {
  if (credential.kind === 'api_key' || credential.kind === 'token') return;
  const message =
    credential.kind === 'missing' ? 'missing Authorization header; send "Authorization: Bearer <API key>"' : credential.reason;
  throw new EmulatorError(401, message, undefined, { 'WWW-Authenticate': 'Bearer' });
}

/** requireCredential, and then only the API key: an access token is refused with a 403. */
export function requireApiKey(credential: Credential): void {
  requireCredential(credential);
  if (credential.kind !== 'api_key') throw new EmulatorError(403, 'emulator control endpoints need the API key itself; an access token is not enough');
}

/** Compares digests so the comparison takes the same time whatever the secret's length or content. */
function sameSecret(candidate: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(candidate), digest(expected));
}
