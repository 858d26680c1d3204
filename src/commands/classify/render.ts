import type { ChalkInstance } from 'chalk';
import type { LabelRow } from './labels.js';
import { tableView, type View } from '../../core/output.js';

const DECISION_COLOR: Record<string, (c: ChalkInstance, text: string) => string> = {
  match: (c, t) => c.red.bold(t),
  review: (c, t) => c.yellow(t),
  not_match: (c, t) => c.green(t),
};

const formatScore = (score: number | null | undefined) => (score === null ? 'null' : score === undefined ? '' : score.toFixed(2));

export function labelsView(rows: readonly LabelRow[]): View {
  return tableView(rows, [
    { header: 'LABEL', value: (r) => r.name },
    { header: 'TYPE', value: (r) => r.kind },
    { header: 'DECISION', value: (r) => r.decision, style: (r, text, c) => DECISION_COLOR[r.decision]?.(c, text) ?? text },
    { header: 'SCORE', value: (r) => formatScore(r.score) },
    { header: 'ESCALATION', value: (r) => r.escalation ?? '' },
    { header: 'SET', value: (r) => r.setId ?? '' },
  ]);
}
