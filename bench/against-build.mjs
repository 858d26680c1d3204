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
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { curlAddConfigs, objectLine } from './_rows.mjs';
import { BIN, interleave, kilobyteObject, printAgainstFirst, requireBuild, requireTool, smallObject, startEmulator, tempDir, timed, tinyObject, writeCount, writeLines } from './_support.mjs';

const SECTIONS = ['imports', 'data-add', 'batch', 'wait-rss'];
const { values: options, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '7' }, scale: { type: 'string', default: '1' } } });
const [other, ...named] = positionals;
const otherBin = other === undefined ? undefined : join(resolve(other), 'bin', 'csafe');
const sections = named.length === 0 ? SECTIONS : named;
const runs = Number(options.runs);
const scale = Number(options.scale);
if (otherBin === undefined || !existsSync(otherBin) || sections.some((name) => !SECTIONS.includes(name)) || !(runs > 0) || !(scale > 0)) {
  console.error(`usage: node bench/against-build.mjs OTHER [--runs N] [--scale F] [${SECTIONS.join(' | ')} …]: OTHER is another checkout of csafe, built`);
  process.exit(2);
}
delete process.env.NODE_EXTRA_CA_CERTS;
requireBuild();
requireBuild(resolve(other));
requireTool('curl', 'apt-get install curl');

const GiB = 2 ** 30;
const builds = [
  { name: `this build (${BIN})`, bin: BIN },
  { name: `other build (${otherBin})`, bin: otherBin },
];
const sized = (full) => Math.max(1, Math.round(full * scale));
const dir = tempDir();
const emulators = new Map();
/** One emulator per set of flags, started when first asked for. */
async function emulator(...args) {
  const key = args.join(' ');
  if (!emulators.has(key)) emulators.set(key, await startEmulator(args));
  return emulators.get(key);
}
const csafe = (bin, args, on) => async () => (await on.reset(), timed(process.execPath, [bin, ...args], { env: { ...on.env, CSAFE_CONFIG_DIR: dir } }));
const buildVariants = (args, on) => builds.map((build) => ({ name: build.name, run: csafe(build.bin, args, on) }));

try {
  for (const section of sections) await { imports, 'data-add': dataAdd, batch, 'wait-rss': waitRss }[section]();
} finally {
  await Promise.all([...emulators.values()].map((running) => running.stop()));
  rmSync(dir, { recursive: true, force: true });
}

async function imports() {
  const rows = [
    { name: 'import-40', bytes: 250e6, line: tinyObject, flags: [] },
    { name: 'import-83', bytes: GiB, line: smallObject, flags: [] },
    { name: 'import-1k', bytes: GiB, line: kilobyteObject, flags: [] },
    { name: 'import-novalidate', bytes: GiB, line: kilobyteObject, flags: ['--no-validate'] },
  ];
  const importing = await emulator('--processing-delay', '1h');
  for (const row of rows) {
    const input = join(dir, `${row.name}.jsonl`);
    writeLines(input, sized(row.bytes), row.line);
    const curl = async () => {
      await importing.reset();
      const { upload_url: url } = await importing.api('POST', '/v1/data/bench/import');
      return timed('curl', ['-sSf', '-o', '/dev/null', '-T', input, '-H', 'Content-Type: application/json', url]);
    };
    const variants = [{ name: 'curl -T', run: curl }, ...buildVariants(['data', 'import', 'bench', input, ...row.flags], importing)];
    report(`${row.name}; throughput ÷ curl's`, variants, await interleave(variants, runs, { warmup: 1 }));
    rmSync(input);
  }
}

async function dataAdd() {
  const total = sized(100_000);
  const input = join(dir, 'add.jsonl');
  writeCount(input, total, objectLine);
  const posting = await emulator('--processing-delay', '1h');
  const configs = curlAddConfigs(dir, total, posting);
  const curls = `${configs.map((config, index) => `curl -K '${config}' & p${index}=$!`).join('; ')}; ${configs.map((_, index) => `wait $p${index}`).join(' && ')}`;
  const variants = [{ name: 'curl, 4 in parallel', run: async () => (await posting.reset(), timed('sh', ['-c', curls])) }, ...buildVariants(['data', 'add', 'bench', input], posting)];
  report(`data-add, ${total} objects; throughput ÷ curl's`, variants, await interleave(variants, runs, { warmup: 1 }));
}

async function batch() {
  const input = join(dir, 'classify.jsonl');
  writeCount(input, 2000, (n) => `{"text":"listing ${n}: road bike, barely used","content_id":"c${n}"}\n`);
  const slow = await emulator('--latency', '50');
  for (const concurrency of [16, 64, 256]) {
    const variants = buildVariants(['classify', '--batch', input, '--user-id', 'u1', '--concurrency', String(concurrency)], slow);
    const samples = await interleave(variants, runs, { warmup: 1 });
    console.log(`\nbatch-${concurrency}, 2000 lines, ${runs} rounds:`);
    for (const [index, variant] of variants.entries()) console.log(`  ${variant.name}: median ${median(samples[index].map((sample) => sample.seconds)).toFixed(3)} s`);
    printThisAgainstOther('speed', samples[0].map((sample, round) => samples[1][round].seconds / sample.seconds));
  }
}

async function waitRss() {
  const sizes = [10_000, 100_000].map(sized);
  const inputs = sizes.map((total) => {
    const path = join(dir, `add-${total}.jsonl`);
    writeCount(path, total, objectLine);
    return path;
  });
  const processing = await emulator('--processing-delay', '0');
  const variants = builds.flatMap((build) => inputs.map((path, index) => ({ name: `${build.name}, ${sizes[index]} objects`, run: csafe(build.bin, ['data', 'add', 'bench', path, '--wait'], processing) })));
  const samples = await interleave(variants, runs);
  console.log(`\ndata-add-wait-rss, ${runs} rounds; peak RSS at ${sizes[1]} objects ÷ at ${sizes[0]}, per round:`);
  for (const [index, build] of builds.entries()) {
    const [small, large] = [samples[2 * index], samples[2 * index + 1]];
    const growth = large.map((sample, round) => sample.rssMiB / small[round].rssMiB);
    console.log(`  ${build.name}: ${spread(growth)}, ${median(large.map((sample) => sample.rssMiB)).toFixed(0)} MiB at the large size`);
  }
}

/** The variants against the first, then this build (the second) against the other (the third). */
function report(title, variants, samples) {
  console.log(`\n${title}, ${runs} rounds:`);
  printAgainstFirst(variants, samples);
  printThisAgainstOther('throughput', samples[1].map((sample, round) => samples[2][round].seconds / sample.seconds));
}

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function spread(ratios) {
  return `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
}

function printThisAgainstOther(what, ratios) {
  console.log(`  this build's ${what} ÷ the other's: ${spread(ratios)}`);
}
