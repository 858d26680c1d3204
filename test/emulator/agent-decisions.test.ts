import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { agentDecisionResponseSchema } from '../../src/schemas/agent-decisions.js';
import { assertError, call, useTestEmulator } from './support.js';

describe('emulator: agent decisions (reviewers\' verdicts)', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });
  const verdict = async (body: Record<string, unknown>) => {
    const reply = await call(emulator, 'POST', '/v1/agent_decisions', { json: { content_type: 'listings', ...body } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return agentDecisionResponseSchema.parse(reply.body).safetykitCorrect;
  };

  test('safetykitCorrect is whether the emulator\'s own label decision on the object agrees; false for an object it does not hold', async () => {
    // listing-1 gets violence: match from the classifier; listing-2 no label at all.
    const added = await call(emulator, 'POST', '/v1/data/listings', { json: { data: [{ id: 'listing-1', title: 'I will kill you' }, { id: 'listing-2', title: 'nice bike' }] } });
    assert.equal(added.status, 202);
    assert.equal(await verdict({ decision: 'match', policy_id: 'violence', reference_id: 'listing-1' }), true);
    assert.equal(await verdict({ decision: 'no_match', policy_id: 'violence', reference_id: 'listing-1' }), false);
    assert.equal(await verdict({ decision: 'no_match', policy_id: 'violence', reference_id: 'listing-2' }), true, 'no label is not_match');
    assert.equal(await verdict({ decision: 'match', policy_id: 'violence', reference_id: 'listing-2', agent_type: 'appeal', action: 'removed', comment: 'threat' }), false);
    assert.equal(await verdict({ decision: 'match', policy_id: 'violence', reference_id: 'unknown' }), false);
    assert.equal(await verdict({ decision: 'match', policy_id: 'violence', reference_id: 'listing-1', content_type: 'Other Type' }), false);
    const { agent_decisions: kept } = (await call(emulator, 'GET', '/_emulator/agent_decisions')).body as { agent_decisions: Array<Record<string, unknown>> };
    assert.equal(kept.length, 6);
    const appeal = kept.find((entry) => entry.agent_type === 'appeal')!;
    assert.deepEqual([appeal.reference_id, appeal.emulator_decision, appeal.safetykitCorrect, appeal.comment], ['listing-2', 'not_match', false, 'threat']);
  });

  test('a bad body is a 400 naming the field', async () => {
    for (const field of ['content_type', 'decision', 'policy_id', 'reference_id']) {
      const body: Record<string, unknown> = { content_type: 'listings', decision: 'match', policy_id: 'violence', reference_id: 'x' };
      delete body[field];
      assertError(await call(emulator, 'POST', '/v1/agent_decisions', { json: body }), 400, field);
    }
    assertError(await call(emulator, 'POST', '/v1/agent_decisions', { json: { content_type: 'l', decision: 'match', policy_id: 'v', reference_id: 'x', reviewer: 'me' } }), 400, 'reviewer');
  });
});
