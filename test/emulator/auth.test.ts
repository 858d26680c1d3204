import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { DEFAULT_EMULATOR_API_KEY, startEmulator } from '../../src/emulator/index.js';
import { accessTokenResponseSchema } from '../../src/schemas/tokens.js';
import { assertError, call, useTestEmulator } from './support.js';

const content = { user_id: 'user_1', content: [{ type: 'text', text: 'hello' }] };
const START = Date.parse('2026-09-01T12:00:00.000Z');

describe('authentication and access tokens', () => {
  let clock = START;
  const emulator = useTestEmulator({ now: () => clock });
  beforeEach(() => {
    clock = START;
  });

  const issueToken = async (json?: unknown) => {
    const reply = await call(emulator, 'POST', '/v1/access_tokens', json === undefined ? {} : { json });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return accessTokenResponseSchema.parse(reply.body);
  };

  test('the default API key is the documented one', async () => {
    // The other tests run with the key of the secrets sweep: this one names none.
    const plain = await startEmulator({ port: 0 });
    try {
      assert.equal(plain.apiKey, DEFAULT_EMULATOR_API_KEY);
      assert.equal((await call(plain, 'POST', '/v1/content', { json: content })).status, 200);
    } finally {
      await plain.close();
    }
  });

  test('a missing Authorization header is 401 with WWW-Authenticate', async () => {
    const reply = await call(emulator, 'POST', '/v1/content', { json: content, key: null });
    assertError(reply, 401);
    assert.equal(reply.headers.get('www-authenticate'), 'Bearer');
  });

  test('a wrong key or a non-Bearer scheme is 401', async () => {
    assertError(await call(emulator, 'POST', '/v1/content', { json: content, key: 'sk_not_the_key' }), 401);
    const basic = { json: content, key: null, headers: { Authorization: `Basic ${emulator.apiKey}` } };
    assertError(await call(emulator, 'POST', '/v1/content', basic), 401);
  });

  test('the API key issues a token with the default lifetime of 3600 s', async () => {
    const token = await issueToken();
    assert.match(token.access_token, /^cst_[0-9a-f]{32}$/);
    assert.equal(token.token_type, 'Bearer');
    assert.equal(token.expires_in, 3600);
    assert.equal(token.expires_at, new Date(START + 3600_000).toISOString());
  });

  test('a token is accepted like the API key until it expires', async () => {
    const { access_token } = await issueToken({ expires_in: 300, user_id: 'user_1', customer_session_id: 'sess_1' });
    assert.equal((await call(emulator, 'POST', '/v1/content', { json: content, key: access_token })).status, 200);
    clock = START + 299_999;
    assert.equal((await call(emulator, 'POST', '/v1/content', { json: content, key: access_token })).status, 200);
    clock = START + 300_000;
    const error = assertError(await call(emulator, 'POST', '/v1/content', { json: content, key: access_token }), 401);
    assert.match(error.message, /expired/);
  });

  test('a token cannot create another token (403)', async () => {
    const { access_token } = await issueToken();
    assertError(await call(emulator, 'POST', '/v1/access_tokens', { key: access_token }), 403);
  });

  test('expires_in outside 300..86400 or not whole seconds is a 400 naming expires_in', async () => {
    for (const expires_in of [299, 86401, 600.5, '600']) {
      assertError(await call(emulator, 'POST', '/v1/access_tokens', { json: { expires_in } }), 400, 'expires_in');
    }
    assert.equal((await issueToken({ expires_in: 300 })).expires_in, 300);
    assert.equal((await issueToken({ expires_in: 86400 })).expires_in, 86400);
  });

  test('an empty object is accepted and an unknown field is rejected', async () => {
    assert.equal((await issueToken({})).expires_in, 3600);
    assertError(await call(emulator, 'POST', '/v1/access_tokens', { json: { scope: 'all' } }), 400, 'scope');
  });
});
