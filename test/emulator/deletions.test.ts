import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startEmulator } from '../../src/emulator/index.js';
import { deletionResponseSchema } from '../../src/schemas/deletions.js';
import { tempDir } from '../helpers/cli.js';
import { assertError, call, useTestEmulator } from './support.js';

describe('emulator: deletion requests', () => {
  const emulator = useTestEmulator();
  const file = async (body: unknown) => {
    const reply = await call(emulator, 'POST', '/v1/deletion_requests', { json: body });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return deletionResponseSchema.parse(reply.body);
  };
  const listed = async () => ((await call(emulator, 'GET', '/_emulator/deletion_requests')).body as { deletion_requests: Array<Record<string, unknown>> }).deletion_requests;

  test('accepted and recorded, nothing deleted; a repeat of an external_request_id answers the first', async () => {
    const first = await file({ subject_user_id: 'u42', external_request_id: 'dsr-1', requested_at: '2026-11-27T10:00:00Z' });
    assert.deepEqual(Object.keys(first), ['deletion_request_id', 'status', 'external_request_id']);
    assert.match(first.deletion_request_id, /^del_[0-9a-f]{24}$/);
    assert.equal(first.status, 'accepted');
    const [again, alsoAgain] = await Promise.all([file({ subject_user_id: 'u42', external_request_id: 'dsr-1' }), file({ subject_user_id: 'u42', external_request_id: 'dsr-1' })]);
    assert.equal(again.deletion_request_id, first.deletion_request_id);
    assert.equal(alsoAgain.deletion_request_id, first.deletion_request_id);
    const plain = [await file({ subject_user_id: 'u42' }), await file({ subject_user_id: 'u42' })];
    assert.notEqual(plain[0]!.deletion_request_id, plain[1]!.deletion_request_id, 'without an external id each is a request of its own');
    const records = await listed();
    assert.equal(records.length, 3);
    assert.deepEqual(records.find((record) => record.deletion_request_id === first.deletion_request_id), {
      deletion_request_id: first.deletion_request_id,
      subject_user_id: 'u42',
      external_request_id: 'dsr-1',
      requested_at: '2026-11-27T10:00:00Z',
      received_at: records.find((record) => record.deletion_request_id === first.deletion_request_id)!.received_at,
    });
  });

  test('of repeats of one external id sent at once, the first filed is kept; the listing pages by id, bounded', async () => {
    for (const subject of ['a', 'b', 'c']) await file({ subject_user_id: subject });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => file({ subject_user_id: `s${i}`, external_request_id: 'race-1' })));
    assert.equal(new Set(answers.map((answer) => answer.deletion_request_id)).size, 1);
    const page = async (query: string) => (await call(emulator, 'GET', `/_emulator/deletion_requests${query}`)).body as { total: number; next: string | null; deletion_requests: Array<{ deletion_request_id: string; subject_user_id: string }> };
    const kept = (await page('?limit=1000')).deletion_requests.filter((record) => record.deletion_request_id === answers[0]!.deletion_request_id);
    assert.equal(kept.length, 1);
    // One after the other, the first is the one kept: a repeat never rewrites it.
    const firstFiled = await file({ subject_user_id: 'first', external_request_id: 'in-turn' });
    await file({ subject_user_id: 'second', external_request_id: 'in-turn' });
    const inTurn = (await page('?limit=1000')).deletion_requests.find((record) => record.deletion_request_id === firstFiled.deletion_request_id);
    assert.equal(inTurn?.subject_user_id, 'first');
    const first = await page('?limit=2');
    assert.equal(first.deletion_requests.length, 2);
    assert.equal(first.next, first.deletion_requests[1]!.deletion_request_id);
    const rest = await page(`?after=${first.next}&limit=1000`);
    assert.equal(first.total, first.deletion_requests.length + rest.deletion_requests.length);
    assert.equal(rest.next, null);
    assertError(await call(emulator, 'GET', '/_emulator/deletion_requests?limit=5000'), 400, 'limit');
  });

  test('under spec_only the docs-only route answers 404, as a service without it would', async () => {
    await call(emulator, 'POST', '/_emulator/quirks', { json: { spec_only: true } });
    try {
      assert.equal((await call(emulator, 'POST', '/v1/deletion_requests', { json: { subject_user_id: 'u' } })).status, 404);
      assert.equal((await call(emulator, 'POST', '/v1/agent_decisions', { json: { content_type: 'l', decision: 'match', policy_id: 'v', reference_id: 'x' } })).status, 404);
    } finally {
      await call(emulator, 'POST', '/_emulator/quirks', { json: { spec_only: false } });
    }
  });

  test('a bad body is a 400 naming the field; the route needs the key', async () => {
    assertError(await call(emulator, 'POST', '/v1/deletion_requests', { json: {} }), 400, 'subject_user_id');
    assertError(await call(emulator, 'POST', '/v1/deletion_requests', { json: { subject_user_id: 'x'.repeat(513) } }), 400, 'subject_user_id');
    assertError(await call(emulator, 'POST', '/v1/deletion_requests', { json: { subject_user_id: 'u', external_request_id: '' } }), 400, 'external_request_id');
    assertError(await call(emulator, 'POST', '/v1/deletion_requests', { json: { subject_user_id: 'u', requested_at: 'yesterday' } }), 400, 'requested_at');
    assertError(await call(emulator, 'POST', '/v1/deletion_requests', { json: { subject_user_id: 'u', reason: 'x' } }), 400, 'reason');
    assert.equal((await call(emulator, 'POST', '/v1/deletion_requests', { json: { subject_user_id: 'u' }, key: null })).status, 401);
  });

  test('a restarted emulator on the same data directory still answers a repeat with the first request', async () => {
    const dataDir = tempDir('csafe-emulator-deletions-');
    const body = { json: { subject_user_id: 'u1', external_request_id: 'dsr-restart' } };
    const first = await startEmulator({ port: 0, dataDir });
    let id: string;
    try {
      id = deletionResponseSchema.parse((await call(first, 'POST', '/v1/deletion_requests', body)).body).deletion_request_id;
    } finally {
      await first.close();
    }
    const second = await startEmulator({ port: 0, dataDir });
    try {
      assert.equal(deletionResponseSchema.parse((await call(second, 'POST', '/v1/deletion_requests', body)).body).deletion_request_id, id);
      await call(second, 'POST', '/_emulator/reset');
      assert.deepEqual(((await call(second, 'GET', '/_emulator/deletion_requests')).body as { deletion_requests: unknown[] }).deletion_requests, []);
    } finally {
      await second.close();
    }
  });
});
