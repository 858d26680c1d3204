// The pure parts of `npm run bench`: statistics, which rows a command line selects, and the
// bench/results.md table (one row replaced, the others kept). No processes, no files: npm test
// runs these (test/bench/harness.test.ts) so they do not rot between benchmark runs.

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values) {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Median, minimum and maximum. */
export function summary(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/**
 * One ratio per round, from the csafe and baseline samples of that round (measured next to each
 * other, so a slow spell of the shared machine falls on both). `time`: csafe ÷ baseline (lower is
 * better, as for start-up); `rate`: baseline ÷ csafe seconds, i.e. csafe's throughput as a fraction
 * of the baseline's (higher is better).
 */
export function roundRatios(baselineSeconds, csafeSeconds, kind) {
  if (baselineSeconds.length !== csafeSeconds.length) throw new Error('rounds differ in length');
  return csafeSeconds.map((csafe, round) => (kind === 'time' ? csafe / baselineSeconds[round] : baselineSeconds[round] / csafe));
}

/** Whether `value` meets a target such as `{ op: '<=', value: 1.25 }`. */
export const meets = (target, value) => (target.op === '<=' ? value <= target.value : value >= target.value);

export const formatTarget = (target) => `${target.op === '<=' ? '≤' : '≥'} ${target.value.toFixed(2)}×`;
export const formatRatio = ({ median: mid, min, max }) => `${mid.toFixed(2)}× (${min.toFixed(2)}–${max.toFixed(2)})`;
export const formatSeconds = (seconds) => (seconds < 10 ? `${(seconds * 1000).toFixed(0)} ms` : `${seconds.toFixed(1)} s`);
export const formatMiB = (mib) => `${mib.toFixed(0)} MiB`;

export function formatBytes(bytes) {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(bytes % 2 ** 30 === 0 ? 0 : 2)} GiB`;
  return `${(bytes / 1e6).toFixed(bytes % 1e6 === 0 ? 0 : 1)} MB`;
}

/**
 * The rows a command line names: a row by its name (`data-add` is that row alone), or a group by the
 * start of the names it shares (`import` is every import-* row, `batch` the three batch-* rows);
 * none named is every row. Names
 * that are neither a row nor a group come back in `unknown`; `scripts` are the names of the
 * stand-alone benchmarks (bench/<name>.mjs), run as they are.
 */
export function selectRows(rowNames, scriptNames, names) {
  if (names.length === 0) return { rows: [...rowNames], scripts: [], unknown: [] };
  const rows = new Set();
  const scripts = [];
  const unknown = [];
  for (const name of names) {
    if (scriptNames.includes(name)) {
      scripts.push(name);
      continue;
    }
    const matching = rowNames.includes(name) ? [name] : rowNames.filter((row) => row.startsWith(`${name}-`));
    if (matching.length === 0) unknown.push(name);
    matching.forEach((row) => rows.add(row));
  }
  return { rows: rowNames.filter((row) => rows.has(row)), scripts, unknown };
}

export const TABLE_HEADER = [
  '| row | figure | size | baseline | baseline median | csafe median | ratio median (min–max) | target | met? | csafe peak RSS | runs | measured (UTC), 1-min load average before→after |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
];

/** One line of the table; `result` is what a row's measure() returns, plus its name and date. */
export function tableLine(result) {
  const cells = [
    `\`${result.name}\``,
    result.figure,
    result.size,
    result.baseline,
    result.baselineMedian,
    result.csafeMedian,
    result.ratio === undefined ? '—' : formatRatio(result.ratio),
    result.target,
    result.met === undefined ? '—' : result.met ? 'yes' : '**no**',
    result.rssMiB === undefined ? '—' : formatMiB(result.rssMiB),
    String(result.runs),
    result.measuredAt,
  ];
  return `| ${cells.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`;
}

const ROW_LINE = /^\| `([a-z0-9-]+)` \|/;

/** The table lines of an existing results.md, by row name. */
export function tableLines(markdown) {
  const lines = new Map();
  for (const line of markdown.split('\n')) {
    const name = ROW_LINE.exec(line)?.[1];
    if (name !== undefined) lines.set(name, line);
  }
  return lines;
}

/**
 * results.md with the rows just measured replaced or added and every other row of `previous`
 * kept, in the order of `rowNames` (a row no longer defined is dropped).
 */
export function resultsMarkdown({ previous = '', results, rowNames, machine, command }) {
  const lines = tableLines(previous);
  for (const result of results) lines.set(result.name, tableLine(result));
  const rows = rowNames.filter((name) => lines.has(name)).map((name) => lines.get(name));
  return [
    '# csafe benchmarks',
    '',
    'Written by `npm run bench` (bench/run.mjs); `npm run bench -- <row>` re-measures one row and keeps the others.',
    'Every figure is csafe against its baseline measured in the same run, interleaved (A B, B A, …);',
    'medians over the runs, the ratio as the median (and range) of the per-round ratios. A ratio is',
    'csafe time ÷ baseline time where the target is ≤, and csafe throughput ÷ baseline throughput where',
    'it is ≥ (RSS rows: the large size ÷ the small size). Peak RSS is `/usr/bin/time -f %M`, the largest of the runs.',
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory}; Node ${machine.node}; ${machine.os}.`,
    `Last run: \`${command}\` at ${machine.date}.`,
    '',
    ...TABLE_HEADER,
    ...rows,
    '',
  ].join('\n');
}
