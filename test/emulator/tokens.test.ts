import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenTable } from '../../src/emulator/stores/token-table.js';
import { tempDir } from '../helpers/cli.js';
import { assertError, call, callOk, resetEmulator, withEmulator } from './support.js';

test('expired access tokens are pruned: 100,000 creations do not grow the table', () => {
  const table = new TokenTable();
  let now = 0;
  table.add('kept', now + 10 ** 12, now);
  for (let index = 0; index < 100_000; index++) {
    table.add(`token-${index}`, now + 300_000, now);
    now += 301_000;
  }
  assert.ok(table.size < 2_000, `${table.size} tokens kept`);
  assert.deepEqual(table.get('kept'), { expiresAt: 10 ** 12 });
  assert.deepEqual(table.get('token-99999'), { expiresAt: now - 301_000 + 300_000 });
});

test('an access token outlives a restart on the same --data-dir, until it expires; not one the API key of the restart did not issue, nor one a reset forgot', async () => {
  const dataDir = tempDir('csafe-emulator-data-');
  const content = { json: { content: [{ type: 'text', text: 'hi' }], user_id: 'u' } };
  const token = await withEmulator({ dataDir }, async (emulator) => {
    const issued = await callOk<{ access_token: string }>(emulator, 'POST', '/v1/access_tokens', { json: {} });
    const forgotten = await callOk<{ access_token: string }>(emulator, 'POST', '/v1/access_tokens', { json: {} });
    return { kept: issued.access_token, forgotten: forgotten.access_token };
  });
  await withEmulator({ dataDir }, async (emulator) => {
    assert.equal((await call(emulator, 'POST', '/v1/content', { ...content, key: token.kept })).status, 200, 'the token acknowledged before the restart');
    await resetEmulator(emulator);
    assertError(await call(emulator, 'POST', '/v1/content', { ...content, key: token.forgotten }), 401);
  });
  const later = await withEmulator({ dataDir }, async (emulator) => (await callOk<{ access_token: string }>(emulator, 'POST', '/v1/access_tokens', { json: { expires_in: 300 } })).access_token);
  await withEmulator({ dataDir, apiKey: 'sk_test_another_key_of_the_emulator' }, async (emulator) => {
    assertError(await call(emulator, 'POST', '/v1/content', { ...content, key: later }), 401);
  });
  await withEmulator({ dataDir, now: () => Date.now() + 301_000 }, async (emulator) => {
    assertError(await call(emulator, 'POST', '/v1/content', { ...content, key: later }), 401);
  });
});
