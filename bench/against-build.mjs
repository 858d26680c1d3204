// This build against another, in the same rounds: the import rows (`curl -T` and each build's
// `data import` of the same file), data-add (4 curls posting the same bodies, and each build's
// `data add`), the batch rows (each build's `classify --batch` against the same slow emulator) and
// data-add-wait-rss (each build's peak memory for `data add --wait`, small and large input). A row's
// ratio against its baseline swings from one `npm run bench` to the next with the machine's speed;
// this compares two builds round by round, so "no worse than before" is one run's answer. OTHER is
// a checkout built with `npm run build` (a `git worktree add` of an older commit, its node_modules
// linked to this one's). --scale scales every input but the 2,000 batch lines, as in `npm run
// bench`. Not part of `npm test`.
// Usage: node bench/against-build.mjs OTHER [--runs N] [--scale F] [imports | data-add | batch | wait-rss …]
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { addInput, batchInput, Bench, csafeImport, curlAddConfigs, curlUpload, LATENCY_MS } from './_rows.mjs';
import { formatRatio, median, summary } from './_report.mjs';
import { BIN, interleave, printAgainstFirst, requireBuild, requireTool, timed } from './_support.mjs';

const SECTIONS = ['imports', 'data-add', 'batch', 'wait-rss'];
const { values: options, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '7' }, scale: { type: 'string', default: '1' } } });
const [other, ...named] = positionals;
const sections = named.length === 0 ? SECTIONS : named;
const runs = Number(options.runs);
const scale = Number(options.scale);
if (other === undefined || sections.some((name) => !SECTIONS.includes(name)) || !(runs > 0) || !(scale > 0)) {
  console.error(`usage: node bench/against-build.mjs OTHER [--runs N] [--scale F] [${SECTIONS.join(' | ')} …]: OTHER is another checkout of csafe, built`);
  process.exit(2);
}
delete process.env.NODE_EXTRA_CA_CERTS;
requireBuild();
requireBuild(resolve(other));
requireTool('curl', 'apt-get install curl');

const builds = [
  { name: `this build (${BIN})`, bin: BIN },
  { name: `other build (${join(resolve(other), 'bin', 'csafe')})`, bin: join(resolve(other), 'bin', 'csafe') },
];
const bench = new Bench({ scale });
/** The same command line, run by each build against `emulator`, reset first. */
const byEachBuild = (args, emulator) => builds.map((build) => ({ name: build.name, run: async () => (await emulator.reset(), bench.csafe(args, { env: emulator.env, bin: build.bin })) }));

try {
  for (const section of sections) await { imports, 'data-add': dataAdd, batch, 'wait-rss': waitRss }[section]();
} finally {
  await bench.close();
}

async function imports() {
  const GiB = 2 ** 30;
  const rows = [
    { name: 'import-40', bytes: 250e6, lineBytes: 40, flags: [] },
    { name: 'import-83', bytes: GiB, lineBytes: 83, flags: [] },
    { name: 'import-1k', bytes: GiB, lineBytes: 1000, flags: [] },
    { name: 'import-novalidate', bytes: GiB, lineBytes: 1000, flags: ['--no-validate'] },
  ];
  const importing = await bench.emulator('--processing-delay', '1h');
  for (const row of rows) {
    const { path } = bench.jsonl(bench.size(row.bytes), row.lineBytes);
    const variants = [
      { name: 'curl -T', run: () => curlUpload(importing, path) },
      ...builds.map((build) => ({ name: build.name, run: () => csafeImport(bench, importing, path, row.flags, build.bin) })),
    ];
    report(`${row.name}; throughput ÷ curl's`, variants, await interleave(variants, runs, { warmup: 1 }));
  }
}

async function dataAdd() {
  const total = bench.size(100_000);
  const { path } = addInput(bench, total);
  const posting = await bench.emulator('--processing-delay', '1h');
  const configs = curlAddConfigs(bench.dir, total, posting);
  const curls = `${configs.map((config, index) => `curl -K '${config}' & p${index}=$!`).join('; ')}; ${configs.map((_, index) => `wait $p${index}`).join(' && ')}`;
  const variants = [{ name: 'curl, 4 in parallel', run: async () => (await posting.reset(), timed('sh', ['-c', curls])) }, ...byEachBuild(['data', 'add', 'bench', path], posting)];
  report(`data-add, ${total} objects; throughput ÷ curl's`, variants, await interleave(variants, runs, { warmup: 1 }));
}

async function batch() {
  const { path } = batchInput(bench);
  const slow = await bench.emulator('--latency', String(LATENCY_MS));
  for (const concurrency of [16, 64, 256]) {
    const variants = byEachBuild(['classify', '--batch', path, '--user-id', 'u1', '--concurrency', String(concurrency)], slow);
    const samples = await interleave(variants, runs, { warmup: 1 });
    console.log(`\nbatch-${concurrency}, ${runs} rounds:`);
    for (const [index, variant] of variants.entries()) console.log(`  ${variant.name}: median ${median(samples[index].map((sample) => sample.seconds)).toFixed(3)} s`);
    printThisAgainstOther('speed', samples[0].map((sample, round) => samples[1][round].seconds / sample.seconds));
  }
}

async function waitRss() {
  const sizes = [10_000, 100_000].map((total) => bench.size(total));
  const paths = sizes.map((total) => addInput(bench, total).path);
  const processing = await bench.emulator('--processing-delay', '0');
  const variants = paths.flatMap((path) => byEachBuild(['data', 'add', 'bench', path, '--wait'], processing));
  const samples = await interleave(variants, runs);
  console.log(`\ndata-add-wait-rss, ${runs} rounds; peak RSS at ${sizes[1]} objects ÷ at ${sizes[0]}, per round:`);
  for (const [index, build] of builds.entries()) {
    // Variants go by size, then by build: [this small, other small, this large, other large].
    const [small, large] = [samples[index], samples[builds.length + index]];
    const growth = large.map((sample, round) => sample.rssMiB / small[round].rssMiB);
    console.log(`  ${build.name}: ${formatRatio(summary(growth))}, ${median(large.map((sample) => sample.rssMiB)).toFixed(0)} MiB at the large size`);
  }
}

/** The variants against the first, then this build (the second) against the other (the third). */
function report(title, variants, samples) {
  console.log(`\n${title}, ${runs} rounds:`);
  printAgainstFirst(variants, samples);
  printThisAgainstOther('throughput', samples[1].map((sample, round) => samples[2][round].seconds / sample.seconds));
}

function printThisAgainstOther(what, ratios) {
  console.log(`  this build's ${what} ÷ the other's: ${formatRatio(summary(ratios))}`);
}
