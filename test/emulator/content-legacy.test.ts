import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentResponseSchema, legacyContentResponseSchema } from '../../src/schemas/content.js';
import { assertError, call, exampleBase64, useTestEmulator } from './support.js';

const LEGACY = { 'Service-Version': '2026-08-05' };

describe('POST /v1/content, version 2026-08-05', () => {
  const emulator = useTestEmulator();

  const classify = (json: unknown) => call(emulator, 'POST', '/v1/content', { json, headers: LEGACY });
  const parse = (body: unknown) => legacyContentResponseSchema.parse(body);

  test('returns policies and reference set matches, echoing content_id and metadata', async () => {
    const reply = await classify({
      user_id: 'user_1',
      content_id: 'post_42',
      text: 'you are stupid',
      images: [exampleBase64('known-bad.png')],
      metadata: { surface: 'comments', depth: 2 },
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const body = parse(reply.body);
    assert.deepEqual(Object.keys(body).sort(), ['content_id', 'metadata', 'policies', 'reference_set_matches', 'user_id']);
    assert.equal(body.content_id, 'post_42');
    assert.equal(body.user_id, 'user_1');
    assert.deepEqual(body.metadata, { surface: 'comments', depth: 2 });
    assert.deepEqual(body.policies[0], {
      policy_id: 'harassment', version: 'emulator-1', score: 0.55, decision: 'review', escalation: 'completed',
    });
    assert.deepEqual(body.reference_set_matches, [{ set_id: 'rs_emulator_known_bad', similarity: 1 }]);
  });

  test('without content_id or metadata: a service id, and no metadata field', async () => {
    const body = parse((await classify({ user_id: 'user_1', text: 'hello' })).body);
    assert.match(body.content_id ?? '', /^cnt_[0-9a-f]{24}$/);
    assert.equal('metadata' in body, false);
    assert.deepEqual(body.reference_set_matches, []);
  });

  test('images only: every policy is unscored', async () => {
    const body = parse((await classify({ user_id: 'user_1', images: [exampleBase64('photo.png')] })).body);
    assert.ok(body.policies.every((policy) => policy.score === null && policy.decision === 'not_match'));
  });

  test('text is limited to 16,000 characters (counted as characters, not bytes)', async () => {
    assert.equal((await classify({ user_id: 'u', text: 'é'.repeat(16_000) })).status, 200);
    const error = assertError(await classify({ user_id: 'u', text: 'a'.repeat(16_001) }), 400, 'text');
    assert.match(error.message, /16000/);
  });

  test('text or images is required; images are limited like the current version', async () => {
    assertError(await classify({ user_id: 'u' }), 400, 'text');
    const photos = Array.from({ length: 21 }, () => exampleBase64('photo.png'));
    assertError(await classify({ user_id: 'u', images: photos }), 400, 'images');
    assertError(await classify({ user_id: 'u', images: [Buffer.from('hello').toString('base64')] }), 400, 'images[0]');
    assertError(await classify({ user_id: 'u', text: 'hi', metadata: { note: 'x'.repeat(8_000) } }), 400, 'metadata');
  });

  test('the current request shape is rejected under the old version', async () => {
    assertError(await classify({ user_id: 'u', content: [{ type: 'text', text: 'hi' }] }), 400, 'content');
  });

  test('quirk unknown_values adds an unlisted policy, fields and decision values', async () => {
    await call(emulator, 'POST', '/_emulator/quirks', { json: { unknown_values: true } });
    const body = parse((await classify({ user_id: 'u', text: 'hi' })).body);
    assert.ok(body['x_emulator']);
    assert.deepEqual(body.policies.at(-1), {
      policy_id: 'emulator_unknown', version: 'emulator-1', score: 0.42, decision: 'needs_context', escalation: 'pending', category: 'emulator_category',
    });
  });
});

describe('an account pinned to 2026-08-05', () => {
  const emulator = useTestEmulator({ accountVersion: '2026-08-05' });

  test('gets the old version without a header and the current one by asking for it', async () => {
    const pinned = await call(emulator, 'POST', '/v1/content', { json: { user_id: 'u', text: 'hi' } });
    assert.equal(pinned.status, 200);
    assert.ok(Array.isArray(legacyContentResponseSchema.parse(pinned.body).policies));
    const current = await call(emulator, 'POST', '/v1/content', {
      json: { user_id: 'u', content: [{ type: 'text', text: 'hi' }] },
      headers: { 'Service-Version': '2026-08-11' },
    });
    assert.equal(contentResponseSchema.parse(current.body).version, '2026-08-11');
  });
});
