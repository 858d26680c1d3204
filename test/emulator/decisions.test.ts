import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startEmulator } from '../../src/emulator/index.js';
import { decisionCreatedSchema, decisionSchema } from '../../src/schemas/decisions.js';
import { FixedClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/cli.js';
import { assertError, call, useTestEmulator } from './support.js';

const DELAY_MS = 1000;

describe('emulator: decisions', () => {
  const clock = new FixedClock();
  const emulator = useTestEmulator({ processingDelayMs: DELAY_MS, now: clock.now });

  const create = async (body: unknown) => {
    const reply = await call(emulator, 'POST', '/v1/decisions', { json: body });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return decisionCreatedSchema.parse(reply.body);
  };
  const get = async (id: string) => {
    const reply = await call(emulator, 'GET', `/v1/decisions/${id}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return decisionSchema.parse(reply.body);
  };

  test('POST answers the id, the type and the metadata; GET is PENDING until the processing delay has passed, then SUCCESS with labels', async () => {
    const created = await create({ type: 'listing', content: { title: 'knife', details: { notes: ['I will kill you'] } }, metadata: { source: 'app' } });
    assert.match(created.decision_id, /^dec_[0-9a-f]{24}$/);
    assert.deepEqual({ type: created.type, metadata: created.metadata }, { type: 'listing', metadata: { source: 'app' } });

    const pending = await get(created.decision_id);
    assert.deepEqual(pending, { decision_id: created.decision_id, decision_status: 'PENDING', metadata: { source: 'app' }, result: null, labels: null });

    clock.advance(DELAY_MS);
    const settled = await get(created.decision_id);
    assert.equal(settled.decision_status, 'SUCCESS');
    assert.equal(settled.result, 'match', 'the strongest decision of any label, found in the nested text');
    const violence = settled.labels!.find((label) => label.name === 'violence');
    assert.deepEqual(violence, { name: 'violence', applied: true, explanation: 'score 0.85: match' });
    const spam = settled.labels!.find((label) => label.name === 'spam');
    assert.deepEqual(spam, { name: 'spam', applied: false, explanation: 'score 0: not_match' });
    assert.deepEqual(settled.metadata, { source: 'app' });
  });

  test('harmless text settles SUCCESS with result not_match and no label applied; metadata absent is echoed as {}', async () => {
    const created = await create({ type: 'text', content: { text: 'see you' } });
    assert.deepEqual(created.metadata, {});
    clock.advance(DELAY_MS);
    const settled = await get(created.decision_id);
    assert.equal(settled.result, 'not_match');
    assert.ok(settled.labels!.length > 0 && settled.labels!.every((label) => !label.applied));
  });

  test('content without any text settles ERROR, without result or labels', async () => {
    const created = await create({ type: 'listing', content: { price: 12, tags: [1, true, null] } });
    clock.advance(DELAY_MS);
    const settled = await get(created.decision_id);
    assert.equal(settled.decision_status, 'ERROR');
    assert.equal(settled.result, null);
    assert.equal(settled.labels, null);
    assert.match(String((settled as { error?: { message?: string } }).error?.message), /no text/);
  });

  test('content holding a huge array (a million values) is decided, not a 500', async () => {
    const values: unknown[] = new Array<number>(1_000_000).fill(1);
    values.push('I will kill you');
    const created = await create({ type: 'text', content: { values } });
    clock.advance(DELAY_MS);
    assert.equal((await get(created.decision_id)).result, 'match', 'the text after the million numbers is found');
  });

  test('a bad body is a 400 naming the field', async () => {
    assertError(await call(emulator, 'POST', '/v1/decisions', { json: { content: { text: 'x' } } }), 400, 'type');
    assertError(await call(emulator, 'POST', '/v1/decisions', { json: { type: '', content: { text: 'x' } } }), 400, 'type');
    assertError(await call(emulator, 'POST', '/v1/decisions', { json: { type: 'text', content: ['x'] } }), 400, 'content');
    assertError(await call(emulator, 'POST', '/v1/decisions', { json: { type: 'text', content: {}, metadata: 'x' } }), 400, 'metadata');
    // Metadata is flat, as the service's docs and SDK have it: a nested value is refused, a null taken.
    for (const nested of [{ nested: 1 }, ['a']]) {
      const error = assertError(await call(emulator, 'POST', '/v1/decisions', { json: { type: 'text', content: {}, metadata: { ok: 'x', k: nested } } }), 400, 'metadata.k');
      assert.match(error.message, /expected a string, a number, a boolean or null/);
    }
    const flat = await call(emulator, 'POST', '/v1/decisions', { json: { type: 'text', content: {}, metadata: { s: 'x', n: 1.5, b: false, z: null } } });
    assert.equal(flat.status, 200);
    assertError(await call(emulator, 'POST', '/v1/decisions'), 400);
  });

  test('an unknown id is a 404', async () => {
    assertError(await call(emulator, 'GET', '/v1/decisions/dec_000000000000000000000000'), 404);
    assertError(await call(emulator, 'GET', '/v1/decisions/..%2Fsigning-secret'), 404);
  });

  test('quirk unknown_values adds a field the spec does not list', async () => {
    await call(emulator, 'POST', '/_emulator/quirks', { json: { unknown_values: true } });
    const created = await create({ type: 'text', content: { text: 'hi' } });
    assert.equal((await get(created.decision_id)).priority, 'normal');
  });

  test('a reset forgets every decision', async () => {
    const created = await create({ type: 'text', content: { text: 'hi' } });
    assert.equal((await call(emulator, 'POST', '/_emulator/reset')).status, 200);
    assertError(await call(emulator, 'GET', `/v1/decisions/${created.decision_id}`), 404);
  });
});

describe('emulator: decisions on disk', () => {
  test('a restarted emulator on the same data directory answers for earlier decisions', async () => {
    const dataDir = tempDir('csafe-emulator-decisions-');
    const first = await startEmulator({ port: 0, processingDelayMs: 0, dataDir });
    let id: string;
    try {
      id = decisionCreatedSchema.parse((await call(first, 'POST', '/v1/decisions', { json: { type: 'text', content: { text: 'kill' } } })).body).decision_id;
    } finally {
      await first.close();
    }
    const second = await startEmulator({ port: 0, processingDelayMs: 0, dataDir });
    try {
      const decision = decisionSchema.parse((await call(second, 'GET', `/v1/decisions/${id}`)).body);
      assert.equal(decision.decision_status, 'SUCCESS');
      assert.equal(decision.result, 'match');
    } finally {
      await second.close();
    }
  });
});
