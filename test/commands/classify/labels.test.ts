import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { failOnHolds, labelRows } from '../../../src/commands/classify/labels.js';
import { labelsView } from '../../../src/commands/classify/render.js';
import { bufferIO } from '../../helpers/io.js';

describe('classify: label rows and --fail-on', () => {
  it('reads the current shape, keeping unknown decisions and fields', () => {
    const rows = labelRows({ labels: [{ type: 'classifier', label: 'x', decision: 'escalated', score: null, extra: 1 }], new_field: true });
    assert.deepEqual(rows, [{ name: 'x', kind: 'classifier', decision: 'escalated', escalation: undefined, score: null, setId: undefined, other: { extra: 1 } }]);
  });

  it('reads the previous shape', () => {
    const rows = labelRows({ policies: [{ policy_id: 'p', decision: 'review', score: 0.6 }], reference_set_matches: [{ set_id: 's', similarity: 0.9 }] });
    assert.deepEqual(rows.map((r) => [r.name, r.decision, r.score]), [['p', 'review', 0.6], ['reference_set_match', 'match', 0.9]]);
  });

  it('a table shows a score to 2 decimals; TSV writes it as the service gave it, as JSON does', () => {
    const view = labelsView(labelRows({ labels: [{ type: 'classifier', label: 'x', decision: 'match', score: 0.8534 }, { type: 'classifier', label: 'y', decision: 'not_match', score: null }] }));
    assert.match(view.table(bufferIO().io), /^x +match +0\.85$/m);
    assert.deepEqual(view.tsv().split('\n').slice(1, 3), ['x\tclassifier\tmatch\t0.8534\t\t\t', 'y\tclassifier\tnot_match\tnull\t\t\t']);
  });

  it('shows the fields of a label, policy or match the spec does not list in an OTHER column, table (key=value) and TSV (one JSON object), never dropping them', () => {
    const current = labelsView(labelRows({ labels: [{ type: 'classifier', label: 'x', decision: 'needs_context', score: 0.4, category: 'fraud', reasons: ['a', 'b'] }, { type: 'classifier', label: 'y', decision: 'not_match', score: 0 }] }));
    assert.match(current.table(bufferIO().io), /^LABEL +DECISION +SCORE +OTHER\nx +needs_context +0\.40 +category=fraud reasons=\["a","b"\]\ny +not_match +0\.00$/m);
    assert.deepEqual(current.tsv().split('\n').slice(0, 2), ['LABEL\tTYPE\tDECISION\tSCORE\tESCALATION\tSET\tOTHER', 'x\tclassifier\tneeds_context\t0.4\t\t\t{"category":"fraud","reasons":["a","b"]}']);
    // In TSV one JSON object, which reads back whole where key=value joined by spaces could not.
    const spaced = labelsView(labelRows({ labels: [{ type: 'classifier', label: 'x', decision: 'match', score: 1, category: 'ads promo', note: 'a=b c=d' }] }));
    assert.deepEqual(JSON.parse(spaced.tsv().split('\n')[1]!.split('\t')[6]!), { category: 'ads promo', note: 'a=b c=d' });
    const previous = labelRows({ policies: [{ policy_id: 'p', version: 'v1', decision: 'review', score: 0.6, category: 'fraud' }], reference_set_matches: [{ set_id: 's', similarity: 0.9, source: 'upload' }] });
    assert.deepEqual(previous.map((row) => row.other), [{ category: 'fraud' }, { source: 'upload' }]);
    // Labels without such fields leave the column out of the table.
    assert.doesNotMatch(labelsView(labelRows({ labels: [{ type: 'classifier', label: 'y', decision: 'match', score: 1 }] })).table(bufferIO().io), /OTHER/);
  });

  it('--fail-on review includes match', () => {
    const rows = labelRows({ labels: [{ type: 'classifier', label: 'x', decision: 'match' }] });
    assert.equal(failOnHolds(rows, 'review'), true);
    assert.equal(failOnHolds(rows, 'match'), true);
    assert.equal(failOnHolds(labelRows({ labels: [{ type: 'classifier', label: 'x', decision: 'review' }] }), 'match'), false);
    assert.equal(failOnHolds(rows, undefined), false);
  });
});
