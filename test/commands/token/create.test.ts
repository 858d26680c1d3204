import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokenCreateRun } from '../../../src/commands/token/create.js';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { commandTest, exitCodeOf, jsonBody } from '../../helpers/context.js';

test('token create sends the flags as the request fields and prints the token', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  run.expect({ method: 'POST', path: '/v1/access_tokens', body: jsonBody({ expires_in: 600, user_id: 'user_1', customer_session_id: 'sess_1' }) });

  assert.equal(await exitCodeOf(tokenCreateRun(run.ctx, { expiresIn: '600', userId: 'user_1', sessionId: 'sess_1' })), ExitCode.ok);

  const token = JSON.parse(run.stdout()) as { access_token: string; expires_in: number; expires_at: string; token_type: string };
  assert.match(token.access_token, /^cst_[0-9a-f]{32}$/);
  assert.equal(token.expires_in, 600);
  // The emulator reads the same fixed clock: the expiry is exactly 600 s after it.
  assert.equal(Date.parse(token.expires_at), run.clock.now() + 600_000);
  assert.equal(token.token_type, 'Bearer');
});

test('token create with no flags sends no fields', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  run.expect({ method: 'POST', path: '/v1/access_tokens', body: jsonBody({}) });

  assert.equal(await exitCodeOf(tokenCreateRun(run.ctx, {})), ExitCode.ok);
});

test('token create refuses a lifetime out of range, naming the flag, and sends nothing', async (t) => {
  const run = await commandTest(t);

  await assert.rejects(tokenCreateRun(run.ctx, { expiresIn: '5' }), { constructor: UsageError, message: /^--expires-in: / });
});
