import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classify, type LabelScore } from '../../src/emulator/classifier.js';

const NO_SETS = new Map<string, Set<string>>();

function scores(...texts: string[]): Record<string, Omit<LabelScore, 'label'>> {
  const { labels } = classify({ texts, imageDigests: [] }, NO_SETS);
  return Object.fromEntries(labels.map(({ label, ...rest }) => [label, rest]));
}

describe('classifier rules', () => {
  test('labels come out in the order of the README table', () => {
    const { labels } = classify({ texts: ['hello'], imageDigests: [] }, NO_SETS);
    assert.deepEqual(labels.map((label) => label.label), ['harassment', 'violence', 'self_harm', 'spam', 'sexual', 'pii']);
  });

  test('each row of the README table scores its weight alone', () => {
    const rows: Array<[string, string, number]> = [
      ['harassment', 'you moron', 0.55], ['harassment', 'shut up', 0.3],
      ['violence', 'killing', 0.85], ['violence', 'stabbed', 0.6], ['violence', 'guns', 0.3],
      ['self_harm', 'suicidal', 0.85], ['self_harm', 'self-harm', 0.85], ['self_harm', 'hopeless', 0.3],
      ['spam', 'free money', 0.55], ['spam', 'limited-time offer', 0.3],
      ['sexual', 'nudes', 0.85], ['sexual', 'sexy', 0.55], ['sexual', 'XXX', 0.3],
    ];
    for (const [label, text, weight] of rows) assert.equal(scores(text)[label]?.score, weight, `${label}: ${text}`);
  });

  test('decisions at the README thresholds: ≥ 0.8 match, ≥ 0.5 review, else not_match', () => {
    assert.deepEqual(scores('click here, limited time offer').spam, { score: 0.6, decision: 'review', escalation: 'completed' });
    assert.deepEqual(scores('hopeless').self_harm, { score: 0.3, decision: 'not_match', escalation: 'none' });
    assert.deepEqual(scores('buy now, click here').spam, { score: 0.85, decision: 'match', escalation: 'none' });
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
