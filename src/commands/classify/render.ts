import type { Colors, IOStreams } from '../../core/terminal/io.js';
import { tableView, type Column, type OutputFormat, type View } from '../../core/terminal/output.js';
import type { LabelRow } from './labels.js';
import { bySeverity } from '../../schemas/content.js';

// `csafe classify`: how labels are shown, for one input and for each line of a batch.

const DECISION_COLOR: Record<string, (c: Colors, text: string) => string> = {
  match: (c, t) => c.red.bold(t),
  review: (c, t) => c.yellow(t),
  not_match: (c, t) => c.green(t),
};

const formatScore = (score: number | null | undefined) => (score === null ? 'null' : score === undefined ? '' : score.toFixed(2));

const LABEL_COLUMNS: Column<LabelRow>[] = [
  { header: 'LABEL', value: (r) => r.name },
  { header: 'TYPE', value: (r) => r.kind, hideWhenSame: true },
  { header: 'DECISION', value: (r) => r.decision, style: (r, text, c) => DECISION_COLOR[r.decision]?.(c, text) ?? text },
  { header: 'SCORE', value: (r) => formatScore(r.score) },
  { header: 'ESCALATION', value: (r) => r.escalation ?? '', hideWhenSame: true },
  { header: 'SET', value: (r) => r.setId ?? '' },
];

/** The labels, the decisive first (match, then review); JSON keeps the service's order. */
export const labelsView = (rows: readonly LabelRow[]): View => tableView(bySeverity(rows, (row) => row.decision), LABEL_COLUMNS);

/** A label of one input line of `classify --batch`; a line the service gave no label shows as one row that says so. */
export type LineLabel = LabelRow & { line: number };

export const lineLabels = (line: number, rows: readonly LabelRow[]): LineLabel[] =>
  rows.length === 0 ? [{ line, name: '(no labels)', kind: '', decision: '' }] : bySeverity(rows, (row) => row.decision).map((row) => ({ line, ...row }));

/** `classify --batch` as a table (or TSV): the labels of every line, by line. */
export const printLineLabels = (io: IOStreams, format: OutputFormat, rows: readonly LineLabel[]) => {
  const view = tableView<LineLabel>(rows, [{ header: 'LINE', value: (r) => String(r.line) }, ...LABEL_COLUMNS]);
  return io.out(format === 'tsv' ? view.tsv() : view.table(io));
};

/** A label of one file of `classify --each`; a file the service gave no label shows as one row that says so. */
export type FileLabel = LabelRow & { file: string };

export const fileLabels = (file: string, rows: readonly LabelRow[]): FileLabel[] =>
  rows.length === 0 ? [{ file, name: '(no labels)', kind: '', decision: '' }] : bySeverity(rows, (row) => row.decision).map((row) => ({ file, ...row }));

/** `classify --each` as a table (or TSV): the labels of every file, by file. */
export const fileLabelsView = (rows: readonly FileLabel[]): View => tableView<FileLabel>(rows, [{ header: 'FILE', value: (r) => r.file }, ...LABEL_COLUMNS]);
