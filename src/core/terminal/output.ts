import { createRequire } from 'node:module';
import type { Colors, IOStreams } from './io.js';
import { formatBytes } from './progress.js';
import { redactUrl } from '../http/redact.js';
import { sanitizeForTerminal } from './sanitize.js';
import { UsageError } from '../errors.js';
import { onLeavingAtOnce } from '../signals.js';

/** What a command prints and in which format (table, JSON, NDJSON, TSV), its tables fitted to the terminal. */

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * What a command prints, declared once per command: one result (a record, a summary, one list),
 * which a pipe gets as JSON; or a stream of results, one per line as they come, which a pipe
 * gets as NDJSON.
 */
export type ResultShape = 'single' | 'stream';

/** `--json` wins; then `-o`; then a table on a terminal, and in a pipe JSON or NDJSON by the command's shape. TSV only when asked. */
export function resolveOutputFormat(flags: { output?: string; json?: boolean }, stdoutIsTTY: boolean, shape: ResultShape): OutputFormat {
  if (flags.json && flags.output !== undefined && flags.output !== 'json') throw new UsageError(`--json and --output ${flags.output} conflict: --json is --output json; give one`);
  if (flags.json) return 'json';
  if (flags.output !== undefined) return parseOutputFormat(flags.output, '--output');
  if (stdoutIsTTY) return 'table';
  return shape === 'single' ? 'json' : 'ndjson';
}

/** An output format as given to `name` (a flag, or a profile key for `config set`). */
export function parseOutputFormat(text: string, name: string): OutputFormat {
  if (!(OUTPUT_FORMATS as readonly string[]).includes(text)) throw new UsageError(`${name}: expected one of ${OUTPUT_FORMATS.join(', ')}, got "${text}"`);
  return text as OutputFormat;
}


const toJson = (value: unknown) => JSON.stringify(value, null, 2) + '\n';
export const toNdjsonLine = (value: unknown) => JSON.stringify(value) + '\n';

export interface Column<T> {
  header: string;
  value(row: T): string;
  /** Colour for a cell, applied only when the stream allows colour. */
  style?(row: T, text: string, color: Colors): string;
  /** The cell fitted to `width` when its value is wider (a list: what fits, then `+N more`); without it, the value is cut with …. */
  fit?(row: T, width: number): string;
  /** Left out of a table of several rows when every row has the same value (a TYPE all `category` says nothing). */
  hideWhenSame?: boolean;
  /** The cell as TSV writes it, where the table shows the value shortened for people (a score to 2 decimals): TSV keeps values as they are. */
  tsv?(row: T): string;
}

/** A cell as TSV writes it. */
const tsvCell = <T>(column: Column<T>, row: T) => (column.tsv ?? column.value)(row);

/** How a result looks to people (`-o table`) and to `cut`/`awk` (`-o tsv`); JSON and NDJSON print the value itself. */
export interface View {
  table(io: IOStreams): string;
  tsv(): string;
}

/** Rows under columns: an aligned table, or TSV with the same columns. */
export const tableView = <T>(rows: readonly T[], columns: readonly Column<T>[]): View => ({
  table: (io) => renderTable(rows, columns, io),
  tsv: () => tsvLines([columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => tsvCell(c, row)))]),
});

/** One record: an aligned `key: value` view, or TSV with its fields as the header and one line of values. */
export const recordView = (record: Record<string, unknown>): View => ({
  table: (io) => renderRecord(record, io),
  tsv: () => tsvLines([Object.keys(record), Object.values(record).map(fieldText)]),
});

/** Writes one result in the chosen format: JSON, NDJSON (an array one line per item), or the view as a table or TSV. */
export async function printResult(io: IOStreams, format: OutputFormat, value: unknown, view: View): Promise<void> {
  if (format === 'json') return io.out(toJson(value));
  if (format === 'ndjson') {
    const values = Array.isArray(value) ? value : [value];
    return io.out(values.map(toNdjsonLine).join(''));
  }
  return io.out(format === 'tsv' ? view.tsv() : view.table(io));
}

/** How a stream of results looks to people: each item's rows under these columns (`order` sorts the table's rows). */
export interface StreamView<T, R> {
  rows(item: T): readonly R[];
  columns: readonly Column<R>[];
  order?: (a: R, b: R) => number;
  /** The row of one value of a large item's list (see LargeItem), made small enough to keep for a table. */
  largeRow?(head: Record<string, unknown>, value: unknown): R;
}

/**
 * A result too large to hold (a request's output over the 5 MiB a record answers inline): its
 * fields, then one list field whose values come as they are read.
 */
export interface LargeItem {
  head: Record<string, unknown>;
  field: string;
  values: AsyncIterable<unknown>;
}

/** A result printed item by item, as a run settles each: what `data add`, `events send --sync` and `classify --batch/--each` print. */
export interface ResultWriter<T> {
  print(item: T): Promise<void>;
  /** Prints one item too large to hold, as `print` would print it whole. */
  printLarge(item: LargeItem): Promise<void>;
  /** Called however the run ended (done, failed, interrupted): what was printed is left well-formed. */
  end(): Promise<void>;
}

/**
 * One rule for every command whose result is a stream. `--json` is one JSON document, an array
 * written as its items come and closed however the run ends (`[]` when none), exactly as
 * printResult prints the whole array; `-o ndjson`, the default in a pipe, is one line an item,
 * what a resumed run appends (`>>`). TSV writes its header, then a row at a time. A table is sized
 * to every cell, so its rows are kept and drawn at the end (nothing when there are none). A
 * spinner on the terminal stdout also writes to would tear lines printed under it: then every
 * format is kept and printed at the end.
 */
export function resultWriter<T, R>(io: IOStreams, format: OutputFormat, view: StreamView<T, R>): ResultWriter<T> {
  if (format === 'table' || (io.animate && io.stdoutIsTTY)) return heldWriter(io, format, view);
  return streamedWriter(io, format, view);
}

/**
 * JSON values as text, a value at a time, for output of any length that is never held: NDJSON a
 * compact line each; JSON the elements of one array, which joined are exactly what
 * JSON.stringify(array, null, 2) gives for the whole (`end` closes it, `[]` when empty).
 */
function jsonValuesText(format: 'json' | 'ndjson'): { value(value: unknown): string; end(): string } {
  if (format === 'ndjson') return { value: toNdjsonLine, end: () => '' };
  const array = arrayText('');
  return { value: (value) => array.separator() + indented(JSON.stringify(value, null, 2), '  '), end: () => `${array.close()}\n` };
}

const indented = (text: string, indent: string) => text.replaceAll('\n', `\n${indent}`);

/** The punctuation of a pretty-printed array whose `[` stands at `indent`: what comes before each element, and its close. */
function arrayText(indent: string): { separator(): string; close(): string } {
  let elements = 0;
  return {
    separator: () => `${elements++ === 0 ? '[' : ','}\n${indent}  `,
    close: () => (elements > 0 ? `\n${indent}]` : '[]'),
  };
}

/**
 * A large item as JSON text, a value of its list at a time: exactly what JSON.stringify(whole,
 * null, 2) gives (json, without a final newline), or the whole as one compact line (ndjson).
 */
export async function* largeItemText({ head, field, values }: LargeItem, format: 'json' | 'ndjson'): AsyncGenerator<string> {
  const compact = format === 'ndjson';
  const opening = compact ? JSON.stringify(head).slice(0, -1) : JSON.stringify(head, null, 2).slice(0, -2);
  const hasHead = Object.keys(head).length > 0;
  yield compact ? `${opening}${hasHead ? ',' : ''}${JSON.stringify(field)}:[` : `${hasHead ? `${opening},` : '{'}\n  ${JSON.stringify(field)}: `;
  const array = arrayText('  ');
  let first = true;
  try {
    for await (const value of values) {
      if (compact) yield `${first ? '' : ','}${JSON.stringify(value)}`;
      else yield array.separator() + indented(JSON.stringify(value, null, 2), '    ');
      first = false;
    }
  } finally {
    // However the values end (a download broken off too), what was written stays one JSON document.
    yield compact ? ']}\n' : `${array.close()}\n}`;
  }
}

/** JSON text is handed on in chunks of about this size: one write per value would cost more than the conversion. */
const JSON_CHUNK_CHARS = 65536;

/** Values of any number, as the text of jsonValuesText, in chunks: what a download converted to JSON writes. */
export async function* jsonValuesChunks(values: AsyncIterable<unknown>, format: 'json' | 'ndjson'): AsyncGenerator<string> {
  const text = jsonValuesText(format);
  let chunk = '';
  try {
    for await (const value of values) {
      chunk += text.value(value);
      if (chunk.length >= JSON_CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
  } finally {
    // However the values end (a download interrupted or broken off too), what was written stays one JSON document.
    chunk += text.end();
    if (chunk !== '') yield chunk;
  }
}

/**
 * Keeps every item to print it at the end. A large item's rows are kept small for a table; in
 * another format (on a terminal that shows a spinner) it is kept whole, for a person to read.
 */
function heldWriter<T, R>(io: IOStreams, format: OutputFormat, view: StreamView<T, R>): ResultWriter<T> {
  const items: T[] = [];
  // Each item's rows, a large one's among them, in the order printed.
  const rowsInOrder: R[][] = [];
  const print = async () => {
    const rows = rowsInOrder.flat();
    if (view.order) rows.sort(view.order);
    if (format !== 'table') return printResult(io, format, items, tableView(rows, view.columns));
    if (rows.length > 0) await io.out(tableView(rows, view.columns).table(io));
  };
  // Leaving at once (a second Ctrl-C), the results held so far are printed all the same, as a pipe
  // has them: the write starts before print's first wait, and stdout's writes are synchronous on
  // Linux, so they are out before the exit. An item whose values were still coming is not held yet.
  const stopPrinting = onLeavingAtOnce(() => void print().catch(() => undefined));
  return {
    print: async (item) => void (items.push(item), rowsInOrder.push([...view.rows(item)])),
    async printLarge({ head, field, values }) {
      const rows: R[] = [];
      rowsInOrder.push(rows);
      if (format === 'table') {
        for await (const value of values) rows.push(view.largeRow!(head, value));
        return;
      }
      const list: unknown[] = [];
      for await (const value of values) list.push(value);
      items.push({ ...head, [field]: list } as T);
      rows.push(...view.rows(items.at(-1)!));
    },
    end: () => {
      stopPrinting();
      return print();
    },
  };
}

function streamedWriter<T, R>(io: IOStreams, format: OutputFormat, view: StreamView<T, R>): ResultWriter<T> {
  if (format === 'ndjson') {
    return { print: (item) => io.out(toNdjsonLine(item)), printLarge: (item) => writeAll(io, largeItemText(item, 'ndjson')), end: async () => undefined };
  }
  if (format === 'json') {
    const array = arrayText('');
    let inLargeItem = false;
    // Leaving at once (a second Ctrl-C), the array is closed all the same, so a reader (`| jq`)
    // still gets one document: stdout's writes to a file, a pipe or a terminal are synchronous
    // on Linux, so it is out before the exit. Not in the middle of a large item's values.
    const stopClosing = onLeavingAtOnce(() => {
      if (!inLargeItem && !io.stdout.destroyed) io.stdout.write(`${array.close()}\n`);
    });
    return {
      print: (item) => io.out(array.separator() + indented(JSON.stringify(item, null, 2), '  ')),
      async printLarge(item) {
        inLargeItem = true;
        await io.out(array.separator());
        for await (const chunk of largeItemText(item, 'json')) await io.out(indented(chunk, '  '));
        inLargeItem = false;
      },
      end: () => {
        stopClosing();
        return io.out(`${array.close()}\n`);
      },
    };
  }
  let printed = 0;
  const first = () => printed++ === 0;
  const header = () => tsvLines([view.columns.map((c) => c.header)]);
  const line = (row: R) => tsvLines([view.columns.map((c) => tsvCell(c, row))]);
  return {
    print: (item) => io.out(`${first() ? header() : ''}${view.rows(item).map(line).join('')}`),
    async printLarge({ head, values }) {
      if (first()) await io.out(header());
      for await (const value of values) await io.out(line(view.largeRow!(head, value)));
    },
    end: async () => (printed === 0 ? io.out(header()) : undefined),
  };
}

async function writeAll(io: IOStreams, chunks: AsyncIterable<string>): Promise<void> {
  for await (const chunk of chunks) await io.out(chunk);
}

const fieldText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

/** Server text made safe for a terminal and kept to one line. */
const cellText = (text: string) => sanitizeForTerminal(text).replace(/[\t\n\r]/g, ' ');

/** A URL with a query: a pre-signed address may be one, whose signature is a credential. */
const URL_WITH_QUERY = /^https?:\/\/[^\s?#]+\?\S+$/i;

/**
 * A cell as people see it: as cellText, and a pre-signed URL with its signature redacted, since
 * whoever reads a screen, a recording or a terminal log could use it until it expires. JSON and
 * TSV, which scripts download from, keep it whole.
 */
const peopleText = (text: string) => cellText(URL_WITH_QUERY.test(text) ? redactUrl(text) : text);

const tsvLines = (lines: readonly (readonly string[])[]) => lines.map((cells) => cells.map(cellText).join('\t')).join('\n') + '\n';

/** Two spaces between columns, as gh's tables have. */
const GAP = 2;
/**
 * No column is truncated below its header or this many characters (less when its widest cell is
 * narrower): a table whose columns cannot all have that much falls back to `key: value` blocks.
 */
const MIN_COLUMN = 8;

/**
 * What people copy is one word: an id, a token, a URL, a file name. Such a value is never cut
 * (a column of them keeps its width, a `key: value` line lets the terminal wrap it); only prose,
 * a value with spaces, is cut with … to fit.
 */
const isCopyable = (text: string) => !/\s/.test(text);

type CliTableModule = typeof import('cli-table3');
interface Measure {
  strlen(text: string): number;
  truncate(text: string, width: number, marker: string): string;
}
let cliTable: { Table: CliTableModule; measure: Measure } | undefined;

/**
 * cli-table3 lays the table out (it measures wide characters and colour codes); it is CommonJS,
 * required only when a table is drawn to keep it off start-up. Its own measure is used to fit the
 * columns, so the widths chosen and the widths drawn agree.
 */
function loadCliTable() {
  const require = createRequire(import.meta.url);
  cliTable ??= { Table: require('cli-table3') as CliTableModule, measure: require('cli-table3/src/utils') as Measure };
  return cliTable;
}

const BORDERLESS = Object.fromEntries(
  ['top', 'top-mid', 'top-left', 'top-right', 'bottom', 'bottom-mid', 'bottom-left', 'bottom-right', 'left', 'left-mid', 'mid', 'mid-mid', 'right', 'right-mid'].map((name) => [name, '']),
);

/** The width tables must fit: the terminal's, unless --wide (or unknown, as in a pipe: then nothing is cut). */
const tableWidth = (io: IOStreams) => (io.wide ? undefined : io.stdoutColumns);

/**
 * A table as gh draws one: no borders, a header row (bold when colour is on), columns two spaces
 * apart, the widest cells of prose cut with … to fit the terminal, ids, tokens and URLs never
 * (isCopyable). When that does not fit, one `key: value` block per row. Every cell is sanitised:
 * it may hold text from the server.
 */
export function renderTable<T>(rows: readonly T[], allColumns: readonly Column<T>[], io: IOStreams): string {
  const { Table, measure } = loadCliTable();
  const columns = shownColumns(rows, allColumns);
  const headers = columns.map((c) => c.header);
  const cells = rows.map((row) => columns.map((c) => peopleText(c.value(row))));
  const widths = fitColumns(headers, cells, tableWidth(io), measure.strlen);
  if (widths === undefined) return renderBlocks(headers.map((h) => h.toLowerCase()), cells, io);
  rows.forEach((row, r) => columns.forEach((column, i) => {
    if (column.fit !== undefined && measure.strlen(cells[r]![i]!) > widths[i]!) cells[r]![i] = peopleText(column.fit(row, widths[i]!));
  }));
  const table = new Table({
    chars: { ...BORDERLESS, middle: ' '.repeat(GAP) },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    colWidths: widths,
    wordWrap: false,
    truncate: '…',
  });
  table.push(headers.map((h) => io.outColor.bold(h)));
  rows.forEach((row, r) => table.push(columns.map((c, i) => (c.style ? c.style(row, cells[r]![i]!, io.outColor) : cells[r]![i]!))));
  return table.toString().split('\n').map((line) => line.trimEnd()).join('\n') + '\n';
}

/**
 * The columns worth a place in a table: not one that is empty in every row, nor (of several rows)
 * one marked hideWhenSame whose every row is alike. TSV and JSON keep every column, for scripts.
 */
function shownColumns<T>(rows: readonly T[], columns: readonly Column<T>[]): readonly Column<T>[] {
  if (rows.length === 0) return columns;
  const shown = columns.filter((column) => {
    const values = new Set(rows.map((row) => column.value(row)));
    return !(values.size === 1 && values.has('')) && !(column.hideWhenSame && rows.length > 1 && values.size === 1);
  });
  return shown.length === 0 ? columns : shown;
}

/** A list fitted to `width`: as many items as fit, in order, then `+N more`; the first item cut when not even it fits beside that. */
export function fitList(items: readonly string[], width: number): string {
  for (let shown = items.length; shown > 0; shown--) {
    const text = items.slice(0, shown).join(', ') + (shown < items.length ? ` +${items.length - shown} more` : '');
    if ([...text].length <= width) return text;
  }
  return `${items[0] ?? ''} +${items.length - 1} more`;
}

/**
 * Column widths within `width`: each column as wide as its widest cell when that fits; else the
 * widest columns are narrowed alike, none below its floor (header, or MIN_COLUMN). Undefined
 * when even the floors do not fit.
 */
function fitColumns(headers: readonly string[], cells: readonly (readonly string[])[], width: number | undefined, strlen: Measure['strlen']): number[] | undefined {
  const natural = headers.map((header, i) => Math.max(strlen(header), ...cells.map((row) => strlen(row[i]!))));
  if (width === undefined) return natural;
  const available = width - GAP * (headers.length - 1);
  const copyable = headers.map((_, i) => cells.every((row) => isCopyable(row[i]!)));
  const floor = natural.map((w, i) => (copyable[i] ? w : Math.min(w, Math.max(strlen(headers[i]!), MIN_COLUMN))));
  const capped = (cap: number) => natural.map((w, i) => Math.max(floor[i]!, Math.min(w, cap)));
  const total = (widths: readonly number[]) => widths.reduce((a, b) => a + b, 0);
  if (total(floor) > available) return undefined;
  if (total(natural) <= available) return natural;
  // The largest cap that fits (binary search: the total grows with the cap), then what is left to the capped columns, one each.
  let [low, high] = [0, Math.max(...natural)];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (total(capped(mid)) <= available) low = mid;
    else high = mid - 1;
  }
  const widths = capped(low);
  let left = available - total(widths);
  for (let i = 0; i < widths.length && left > 0; i++) {
    if (natural[i]! > widths[i]!) {
      widths[i]!++;
      left--;
    }
  }
  return widths;
}

/** One `key: value` block per row, blank lines between, prose cut to the width. */
function renderBlocks(keys: readonly string[], rows: readonly (readonly string[])[], io: IOStreams): string {
  return rows.map((cells) => keyValueLines(keys, cells, io)).join('\n');
}

/** A single record as aligned `key: value` lines (a value that is not text shown as JSON; a byte count as a size). */
export function renderRecord(record: Record<string, unknown>, io: IOStreams): string {
  return keyValueLines(Object.keys(record), Object.entries(record).map(([key, value]) => peopleText(forPeople(key, value))), io);
}

/**
 * A field as a person reads it: a null (a value not known yet) as nothing, `bytes: 1.0 GB
 * (1048576000 bytes)`, `bytes_per_second: 123.4 MB/s`; TSV and JSON keep the values as they are.
 */
function forPeople(key: string, value: unknown): string {
  if (value === null) return '';
  if (typeof value !== 'number') return fieldText(value);
  if (key.endsWith('bytes_per_second')) return `${formatBytes(value)}/s`;
  if (key === 'bytes' || key.endsWith('_bytes')) return `${formatBytes(value)} (${value} bytes)`;
  return fieldText(value);
}

function keyValueLines(keys: readonly string[], values: readonly string[], io: IOStreams): string {
  const { measure } = loadCliTable();
  const keyWidth = Math.max(0, ...keys.map((key) => measure.strlen(key))) + 1;
  const width = tableWidth(io);
  return keys.map((key, i) => {
    const room = width === undefined ? Infinity : Math.max(1, width - keyWidth - 1);
    const value = measure.strlen(values[i]!) > room && !isCopyable(values[i]!) ? measure.truncate(values[i]!, room, '…') : values[i]!;
    return `${`${key}:`.padEnd(keyWidth)} ${value}`.trimEnd() + '\n';
  }).join('');
}
