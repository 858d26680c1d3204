import type { HttpClient } from '../core/http/client.js';
import { accessTokenResponseSchema, type AccessTokenRequest, type AccessTokenResponse } from '../schemas/tokens.js';
import { checkedAnswerOf } from './responses.js';

/** How csafe asks for an access token. */

const TOKENS_PATH = '/v1/access_tokens';

/** POST /v1/access_tokens. Safe to replay: a token made twice changes nothing else, and the unused one lapses on its own. */
export async function createAccessToken(http: HttpClient, request: AccessTokenRequest): Promise<AccessTokenResponse> {
  return checkedAnswerOf(http, { method: 'POST', path: TOKENS_PATH, json: request }, accessTokenResponseSchema);
}
