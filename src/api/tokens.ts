import type { HttpClient } from '../core/http.js';
import type { AccessTokenRequest } from '../schemas/tokens.js';

export async function createAccessToken(http: HttpClient, request: AccessTokenRequest): Promise<unknown> {
  return http.json('POST', '/v1/access_tokens', request);
}
