import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CLASSIFIER_RULES, classify, type LabelScore } from '../../src/emulator/classifier.js';

const NO_SETS = new Map<string, Set<string>>();

function scores(...texts: string[]): Record<string, Omit<LabelScore, 'label'>> {
  const { labels } = classify({ texts, imageDigests: [] }, NO_SETS);
  return Object.fromEntries(labels.map(({ label, ...rest }) => [label, rest]));
}

describe('classifier rules', () => {
  test('labels come out in rule order', () => {
    const { labels } = classify({ texts: ['hello'], imageDigests: [] }, NO_SETS);
    assert.deepEqual(
      labels.map((label) => label.label),
      CLASSIFIER_RULES.labels.map((label) => label.label),
    );
    assert.deepEqual(labels.map((label) => label.label), ['harassment', 'violence', 'self_harm', 'spam', 'sexual', 'pii']);
  });

  test('a strong keyword matches, a weak one goes to review (escalation completed), nothing is not_match', () => {
    assert.deepEqual(scores('I will KILL it').violence, { score: 0.85, decision: 'match', escalation: 'none' });
    assert.deepEqual(scores('that was Stupid').harassment, { score: 0.55, decision: 'review', escalation: 'completed' });
    assert.deepEqual(scores('a lovely day').harassment, { score: 0, decision: 'not_match', escalation: 'none' });
  });

  test('keywords match on word boundaries only', () => {
    assert.equal(scores('great skill, killer app').violence?.score, 0);
    assert.equal(scores('killed').violence?.score, 0.85);
  });

  test('a rule counts once; weights add up, capped at 0.99', () => {
    assert.equal(scores('stupid stupid stupid').harassment?.score, 0.55);
    assert.equal(scores('shut up').harassment?.score, 0.3);
    assert.deepEqual(scores('stupid, shut up').harassment, { score: 0.85, decision: 'match', escalation: 'none' });
    assert.equal(scores('stupid idiot, shut up').harassment?.score, 0.99);
  });

  test('all text parts are classified together', () => {
    assert.equal(scores('buy now', 'click here').spam?.score, 0.85);
  });

  test('pii: an email address or a phone number', () => {
    assert.equal(scores('mail me at jane.doe+x@example.co.uk').pii?.decision, 'match');
    for (const phone of ['555-123-4567', '(555) 123 4567', '+1 555.123.4567']) {
      assert.equal(scores(`call ${phone}`).pii?.decision, 'match', phone);
    }
    assert.equal(scores('order 12345 shipped').pii?.decision, 'not_match');
  });

  test('without any text every label is unscored: score null, not_match', () => {
    for (const label of Object.values(scores())) assert.deepEqual(label, { score: null, decision: 'not_match', escalation: 'none' });
  });

  test('an image matches every reference set holding its digest, once per set', () => {
    const sets = new Map([
      ['rs_a', new Set(['d1'])],
      ['rs_b', new Set(['d2', 'd1'])],
      ['rs_c', new Set(['d3'])],
    ]);
    const { referenceSetMatches } = classify({ texts: [], imageDigests: ['d1', 'd2', 'd9'] }, sets);
    assert.deepEqual(referenceSetMatches, [
      { setId: 'rs_a', similarity: 1 },
      { setId: 'rs_b', similarity: 1 },
    ]);
  });
});
