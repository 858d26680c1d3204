// The benchmark harness (bench/) is not run by npm test, so its pure parts are checked here, and one
// real run of two tiny rows, so `npm run bench` cannot rot between the times someone runs it.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const benchModule = (name: string) => pathToFileURL(join(ROOT, 'bench', name)).href;

interface Summary {
  median: number;
  min: number;
  max: number;
}
interface Report {
  median(values: number[]): number;
  summary(values: number[]): Summary;
  roundRatios(baseline: number[], csafe: number[], kind: 'time' | 'rate'): number[];
  meets(target: { op: '<=' | '>='; value: number }, value: number): boolean;
  formatRatio(ratio: Summary): string;
  selectRows(rows: string[], scripts: string[], names: string[]): { rows: string[]; scripts: string[]; unknown: string[] };
  tableLine(result: Record<string, unknown>): string;
  tableLines(markdown: string): Map<string, string>;
  resultsMarkdown(input: { previous?: string; results: Record<string, unknown>[]; rowNames: string[]; machine: Record<string, unknown>; command: string }): string;
}
interface Support {
  interleave(variants: { run: () => Promise<unknown> }[], runs: number, options?: { warmup?: number }): Promise<unknown[][]>;
  smallObject(n: number): string;
}
const report = (await import(benchModule('_report.mjs'))) as Report;
const support = (await import(benchModule('_support.mjs'))) as Support;

const ROWS = ['version', 'help', 'classify-help', 'import-1k', 'import-83', 'import-rss', 'batch-16', 'batch-64', 'batch-256', 'data-add', 'data-add-wait-rss'];
const MACHINE = { cpu: 'Test CPU', cores: 2, memory: '1 GiB RAM', node: 'v20.0.0', os: 'Linux', date: '2026-01-01T00:00:00Z' };
const result = (name: string, csafeMedian: string) => ({
  name,
  figure: `figure of ${name}`,
  size: '—',
  baseline: '`node -e 0`',
  baselineMedian: '50 ms',
  csafeMedian,
  ratio: { median: 1.2, min: 1.1, max: 1.3 },
  target: '≤ 1.25×',
  met: true,
  rssMiB: 42.4,
  runs: 20,
  measuredAt: '2026-01-01T00:00:00Z',
});

describe('bench statistics', () => {
  it('median of odd and even counts, unsorted', () => {
    assert.equal(report.median([3, 1, 2]), 2);
    assert.equal(report.median([4, 1, 3, 2]), 2.5);
    assert.throws(() => report.median([]));
  });

  it('summary is the median and the range', () => {
    assert.deepEqual(report.summary([5, 1, 9, 3, 7]), { median: 5, min: 1, max: 9 });
  });

  it('ratios pair the runs of one round: time is csafe ÷ baseline, rate is baseline ÷ csafe', () => {
    assert.deepEqual(report.roundRatios([1, 2], [2, 3], 'time'), [2, 1.5]);
    assert.deepEqual(report.roundRatios([1, 3], [2, 4], 'rate'), [0.5, 0.75]);
    assert.throws(() => report.roundRatios([1], [1, 2], 'time'));
  });

  it('targets: ≤ for times, ≥ for throughputs', () => {
    assert.equal(report.meets({ op: '<=', value: 1.25 }, 1.25), true);
    assert.equal(report.meets({ op: '<=', value: 1.25 }, 1.26), false);
    assert.equal(report.meets({ op: '>=', value: 0.85 }, 0.84), false);
    assert.equal(report.formatRatio({ median: 1.234, min: 1.1, max: 1.5 }), '1.23× (1.10–1.50)');
  });
});

describe('bench row selection', () => {
  const select = (...names: string[]) => report.selectRows(ROWS, ['stream-follow'], names);

  it('no name is every row, in table order', () => {
    assert.deepEqual(select(), { rows: ROWS, scripts: [], unknown: [] });
  });

  it('a row by name, a group by its prefix, a script by name, and what is neither', () => {
    assert.deepEqual(select('help').rows, ['help'], 'help is not classify-help');
    assert.deepEqual(select('batch-256', 'version').rows, ['version', 'batch-256']);
    assert.deepEqual(select('import').rows, ['import-1k', 'import-83', 'import-rss']);
    assert.deepEqual(select('data-add').rows, ['data-add'], 'a row named exactly is that row, not a group');
    assert.deepEqual(select('data').rows, ['data-add', 'data-add-wait-rss']);
    assert.deepEqual(select('stream-follow', 'imp', 'events'), { rows: [], scripts: ['stream-follow'], unknown: ['imp', 'events'] });
  });
});

describe('bench/results.md', () => {
  it('a row measured again replaces its line and keeps the others, in table order', () => {
    const first = report.resultsMarkdown({ results: [result('help', '60 ms'), result('version', '55 ms')], rowNames: ROWS, machine: MACHINE, command: 'npm run bench' });
    assert.deepEqual([...report.tableLines(first).keys()], ['version', 'help']);
    const second = report.resultsMarkdown({ previous: first, results: [result('help', '70 ms')], rowNames: ROWS, machine: MACHINE, command: 'npm run bench -- help' });
    const lines = report.tableLines(second);
    assert.deepEqual([...lines.keys()], ['version', 'help']);
    assert.match(lines.get('help')!, /\| 70 ms \|/);
    assert.match(lines.get('version')!, /\| 55 ms \|/);
    assert.match(second, /Machine: Test CPU, 2 cores, 1 GiB RAM; Node v20\.0\.0/);
    assert.match(second, /Last run: `npm run bench -- help`/);
  });

  it('a line shows the ratio with its range, the verdict and the peak RSS; a refused row shows no ratio', () => {
    assert.equal(
      report.tableLine(result('version', '55 ms')),
      '| `version` | figure of version | — | `node -e 0` | 50 ms | 55 ms | 1.20× (1.10–1.30) | ≤ 1.25× | yes | 42 MiB | 20 | 2026-01-01T00:00:00Z |',
    );
    const refused = report.tableLine({ ...result('batch-256', 'refused: max 64'), ratio: undefined, met: false, rssMiB: undefined, runs: 0 });
    assert.match(refused, /\| refused: max 64 \| — \| ≤ 1\.25× \| \*\*no\*\* \| — \| 0 \|/);
  });
});

describe('bench runner', () => {
  it('interleaves the variants, alternating the order each round, and drops the warm-up rounds', async () => {
    const order: string[] = [];
    const variant = (name: string) => ({ run: async () => (order.push(name), name) });
    const samples = await support.interleave([variant('A'), variant('B')], 3, { warmup: 1 });
    assert.deepEqual(order, ['B', 'A', 'A', 'B', 'B', 'A', 'A', 'B']);
    assert.deepEqual(samples, [['A', 'A', 'A'], ['B', 'B', 'B']]);
  });

  it('the 83-byte lines are 83 bytes', () => {
    for (const n of [0, 7, 123_456, 999_999_999]) assert.equal(Buffer.byteLength(support.smallObject(n)), 83);
  });

  const tools = ['curl', 'jq', '/usr/bin/time'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);
  it('npm run bench runs two tiny rows for real and writes them into the results file', { skip: !tools && 'needs curl, jq and /usr/bin/time' }, async () => {
    const results = join(tempDir('csafe-bench-test-'), 'results.md');
    writeFileSync(results, report.resultsMarkdown({ results: [result('help', '60 ms')], rowNames: ['version', 'help', 'import-60mb'], machine: MACHINE, command: 'x' }));
    await promisify(execFile)(process.execPath, [join(ROOT, 'bench', 'run.mjs'), 'version', 'import-60mb', '--runs', '2', '--results', results], {
      env: { ...process.env, CSAFE_BENCH_SCALE: '0.002' },
    });
    const lines = report.tableLines(readFileSync(results, 'utf8'));
    assert.deepEqual([...lines.keys()], ['version', 'help', 'import-60mb']);
    assert.match(lines.get('help')!, /\| 60 ms \|/, 'the row not run is kept');
    assert.match(lines.get('import-60mb')!, /\| 0\.1 MB, 1 kB lines \| `curl -T` to a fresh upload URL \| \d+ ms \| \d+ ms \| \d+\.\d\d× \(/);
  });
});
