import type { ClassifyResponse } from '../../api/content.js';
import type { Colors } from '../../core/terminal/io.js';
import { tableView, type Column, type StreamView, type View } from '../../core/terminal/output.js';
import { labelRows, type LabelRow } from './labels.js';
import { bySeverity } from '../../schemas/content.js';

// `csafe classify`: how labels are shown, for one input and for each line of a batch.

const DECISION_COLOR: Record<string, (c: Colors, text: string) => string> = {
  match: (c, t) => c.red.bold(t),
  review: (c, t) => c.yellow(t),
  not_match: (c, t) => c.green(t),
};

/** A score for people: 2 decimals. TSV writes it whole (`scoreText`), as JSON does. */
const formatScore = (score: number | null | undefined) => (score === null ? 'null' : score === undefined ? '' : score.toFixed(2));
const scoreText = (score: number | null | undefined) => (score === null ? 'null' : score === undefined ? '' : String(score));

/** Fields the spec does not list, for people as `key=value` (a value that is no string as JSON): empty for most labels, so the table hides the column then. */
const otherText = (other: Record<string, unknown> | undefined) =>
  Object.entries(other ?? {}).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join(' ');

/** The same for TSV, as one JSON object (empty when there are none): `key=value` joined by spaces cannot be split back when a value holds either. */
const otherJson = (other: Record<string, unknown> | undefined) => (other === undefined || Object.keys(other).length === 0 ? '' : JSON.stringify(other));

const LABEL_COLUMNS: Column<LabelRow>[] = [
  { header: 'LABEL', value: (r) => r.name },
  { header: 'TYPE', value: (r) => r.kind, hideWhenSame: true },
  { header: 'DECISION', value: (r) => r.decision, style: (r, text, c) => DECISION_COLOR[r.decision]?.(c, text) ?? text },
  { header: 'SCORE', value: (r) => formatScore(r.score), tsv: (r) => scoreText(r.score) },
  { header: 'ESCALATION', value: (r) => r.escalation ?? '', hideWhenSame: true },
  { header: 'SET', value: (r) => r.setId ?? '' },
  { header: 'OTHER', value: (r) => otherText(r.other), tsv: (r) => otherJson(r.other) },
];

/** The labels, the decisive first (match, then review); JSON keeps the service's order. */
export const labelsView = (rows: readonly LabelRow[]): View => tableView(bySeverity(rows, (row) => row.decision), LABEL_COLUMNS);

/** The labels of one input (a line, a file) under its name; an input the service gave no label shows as one row that says so. */
function labelsOfInput<K extends string, V>(key: K, value: V, rows: readonly LabelRow[]): (LabelRow & Record<K, V>)[] {
  const named = (row: LabelRow) => ({ ...row, [key]: value }) as LabelRow & Record<K, V>;
  return rows.length === 0 ? [named({ name: '(no labels)', kind: '', decision: '' })] : bySeverity(rows, (row) => row.decision).map(named);
}

/** What one line of `classify --batch` answered, as printed: its line number, then the service's answer. */
export interface LineResult {
  line: number;
  result: ClassifyResponse;
}

/** `classify --batch` as a table (or TSV): the labels of every line, by line. */
export const lineResultsView: StreamView<LineResult, LabelRow & { line: number }> = {
  rows: ({ line, result }) => labelsOfInput('line', line, labelRows(result)),
  columns: [{ header: 'LINE', value: (r) => String(r.line) }, ...LABEL_COLUMNS],
  order: (a, b) => a.line - b.line,
};

/** What one file of `classify --each` answered, as printed: its name, then the service's answer. */
export type FileResult = { file: string } & ClassifyResponse;

/** `classify --each` as a table (or TSV): the labels of every file, in the order given. */
export const fileResultsView: StreamView<FileResult, LabelRow & { file: string }> = {
  rows: (result) => labelsOfInput('file', result.file, labelRows(result)),
  columns: [{ header: 'FILE', value: (r) => r.file }, ...LABEL_COLUMNS],
};
