import { createRequire } from 'node:module';
import type { ChalkInstance } from 'chalk';
import type { IOStreams } from './io.js';
import { sanitizeForTerminal } from './sanitize.js';
import { UsageError } from './errors.js';

const OUTPUT_FORMATS = ['table', 'json', 'ndjson'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * `--json` wins; then `-o`; then table on a terminal, and in a pipe `piped`: JSON, or for commands
 * whose output is one line per item, `table` (which a pipe gets as tab-separated values).
 */
export function resolveOutputFormat(flags: { output?: string; json?: boolean }, stdoutIsTTY: boolean, piped: OutputFormat = 'json'): OutputFormat {
  if (flags.json) return 'json';
  if (flags.output !== undefined) return parseOutputFormat(flags.output, '--output');
  return stdoutIsTTY ? 'table' : piped;
}

/** An output format as given to `name` (a flag, or a profile key for `config set`). */
export function parseOutputFormat(text: string, name: string): OutputFormat {
  if (!(OUTPUT_FORMATS as readonly string[]).includes(text)) throw new UsageError(`${name}: expected one of ${OUTPUT_FORMATS.join(', ')}, got "${text}"`);
  return text as OutputFormat;
}

/** `1 object`, `3 objects`. */
export const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const toJson = (value: unknown) => JSON.stringify(value, null, 2) + '\n';
export const toNdjsonLine = (value: unknown) => JSON.stringify(value) + '\n';

export interface Column<T> {
  header: string;
  value(row: T): string;
  /** Colour for a cell, applied only when the stream allows colour. */
  style?(row: T, text: string, color: ChalkInstance): string;
}

/**
 * A bordered table on a terminal; tab-separated values with a header line in a pipe, so
 * `cut` and `awk` work. Every cell is sanitised: it may hold text from the server.
 */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], io: IOStreams): string {
  const cell = (row: T, column: Column<T>) => sanitizeForTerminal(column.value(row)).replace(/[\t\n]/g, ' ');
  if (!io.stdoutIsTTY) {
    const lines = [columns.map((c) => c.header).join('\t'), ...rows.map((row) => columns.map((c) => cell(row, c)).join('\t'))];
    return lines.join('\n') + '\n';
  }
  // cli-table3 is CommonJS: required only when a table is drawn, to keep it off start-up.
  const Table = createRequire(import.meta.url)('cli-table3') as typeof import('cli-table3');
  const table = new Table({
    head: columns.map((c) => io.outColor.bold(c.header)),
    style: { head: [], border: [] },
  });
  for (const row of rows) {
    table.push(columns.map((c) => (c.style ? c.style(row, cell(row, c), io.outColor) : cell(row, c))));
  }
  return table.toString() + '\n';
}

/** Field/value pairs of one record, for a single resource such as a token. */
export function renderRecord(record: Record<string, unknown>, io: IOStreams): string {
  const rows = Object.entries(record).map(([field, value]) => ({
    field,
    value: typeof value === 'string' ? value : JSON.stringify(value),
  }));
  return renderTable(rows, [
    { header: 'FIELD', value: (r) => r.field },
    { header: 'VALUE', value: (r) => r.value },
  ], io);
}

/** Writes one value in the chosen format; `table` uses the given renderer. */
export async function printResult(
  io: IOStreams,
  format: OutputFormat,
  value: unknown,
  table: () => string,
): Promise<void> {
  if (format === 'json') return io.out(toJson(value));
  if (format === 'ndjson') {
    const values = Array.isArray(value) ? value : [value];
    return io.out(values.map(toNdjsonLine).join(''));
  }
  return io.out(table());
}
