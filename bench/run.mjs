// `npm run bench [-- [--quick | --scale F] [--runs N] [--results FILE] [row or group …]]`: measures
// the rows of the README's Performance table (bench/_rows.mjs), each csafe against its baseline in the same run,
// and writes them into bench/results.md, keeping the rows not measured this time. Not part of
// `npm test`. `stream-follow`, `batch-create` and `webhooks-burst` name stand-alone benchmarks,
// which print their own tables.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Bench, ROWS } from './_rows.mjs';
import { TABLE_HEADER, resultsMarkdown, selectRows, tableLine } from './_report.mjs';
import { machine, requireBuild, requireTool } from './_support.mjs';

// Nothing measured here talks TLS, and NODE_EXTRA_CA_CERTS (set on some machines) makes every node
// process parse a certificate bundle as it starts, some 70 ms: a cost of the machine's setup that
// curl and jq never pay. Every process started from here inherits this environment.
delete process.env.NODE_EXTRA_CA_CERTS;

const SCRIPTS = ['stream-follow', 'batch-create', 'webhooks-burst'];
const QUICK_SCALE = 1 / 20;
const here = (name) => fileURLToPath(new URL(name, import.meta.url));

const { values: options, positionals: names } = parseArgs({
  allowPositionals: true,
  options: {
    quick: { type: 'boolean', default: false },
    scale: { type: 'string' },
    runs: { type: 'string' },
    results: { type: 'string', default: here('results.md') },
    list: { type: 'boolean', default: false },
  },
});

if (options.list) {
  for (const row of ROWS) console.log(`${row.name.padEnd(20)} ${row.figure}`);
  for (const script of SCRIPTS) console.log(`${script.padEnd(20)} bench/${script}.mjs (its own table, not in results.md)`);
  process.exit(0);
}

const scale = Number(options.scale ?? process.env.CSAFE_BENCH_SCALE ?? (options.quick ? QUICK_SCALE : 1));
const runs = options.runs === undefined ? undefined : Number(options.runs);
if (!(scale > 0) || (runs !== undefined && !(Number.isInteger(runs) && runs > 0))) {
  console.error('--scale (or CSAFE_BENCH_SCALE) must be a number above 0, --runs a whole number above 0');
  process.exit(2);
}
const selection = selectRows(ROWS.map((row) => row.name), SCRIPTS, names);
if (selection.unknown.length > 0) {
  console.error(`no row or group named ${selection.unknown.join(', ')}; npm run bench -- --list shows them`);
  process.exit(2);
}

requireBuild();
requireTool('/usr/bin/time', 'apt-get install time');
requireTool('curl', 'apt-get install curl');
requireTool('jq', 'apt-get install jq');

let failed = 0;
for (const script of selection.scripts) {
  console.log(`\n## ${script} (bench/${script}.mjs)\n`);
  if (spawnSync(process.execPath, [here(`${script}.mjs`)], { stdio: 'inherit' }).status !== 0) failed++;
}

const command = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
/** Writes a row into the results file as soon as it is measured: an interrupted run keeps what it measured. */
function record(result) {
  const previous = existsSync(options.results) ? readFileSync(options.results, 'utf8') : '';
  writeFileSync(options.results, resultsMarkdown({ previous, results: [result], rowNames: ROWS.map((row) => row.name), machine: machine(), command }));
}

const rows = ROWS.filter((row) => selection.rows.includes(row.name));
const bench = new Bench({ scale, runs });
const interrupted = (signal) => void bench.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
const results = [];
const started = Date.now();
try {
  for (const row of rows) {
    console.log(`\n## ${row.name}: ${row.figure}`);
    const rowStarted = Date.now();
    const loadBefore = loadavg()[0];
    try {
      const measured = await row.measure(bench);
      // The machine is shared: its load says how far the absolute figures (and the ideal of the batch rows) can be trusted.
      const measuredAt = `${machine().date}, load ${loadBefore.toFixed(1)}→${loadavg()[0].toFixed(1)}`;
      const result = { name: row.name, figure: row.figure, measuredAt, ...measured };
      results.push(result);
      record(result);
      console.log([...TABLE_HEADER, tableLine(result)].join('\n'));
    } catch (error) {
      failed++;
      console.error(`${row.name} failed: ${error instanceof Error ? error.message : error}`);
    }
    console.log(`(${row.name}: ${((Date.now() - rowStarted) / 1000).toFixed(0)} s)`);
  }
} finally {
  await bench.close();
}

if (results.length > 0) console.log(`\n${results.length} of ${rows.length} rows in ${((Date.now() - started) / 1000).toFixed(0)} s (scale ${scale}); written to ${options.results}`);
process.exit(failed === 0 ? 0 : 1);
