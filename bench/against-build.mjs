// This build against another, in the same run: the import rows (each build's `data import` and
// `curl -T` of the same file, interleaved) and data-add-wait-rss (each build's peak memory for
// `data add --wait`, small and large input, interleaved). A row's ratio against its baseline
// swings from one `npm run bench` to the next with the machine's speed; this compares two builds
// round by round, so "no worse than before" is one run's answer. OTHER is a checkout built with
// `npm run build` (a `git worktree add` of an older commit, its node_modules linked to this
// one's). Not part of `npm test`.
// Usage: node bench/against-build.mjs OTHER [runs=7] [scale=1]
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { objectLine } from './_rows.mjs';
import { BIN, interleave, kilobyteObject, printAgainstFirst, requireBuild, requireTool, smallObject, startEmulator, tempDir, timed, tinyObject, writeCount, writeLines } from './_support.mjs';

const [other, runsArg = '7', scaleArg = '1'] = process.argv.slice(2);
const otherBin = other === undefined ? undefined : join(resolve(other), 'bin', 'csafe');
if (otherBin === undefined || !existsSync(otherBin)) {
  console.error('usage: node bench/against-build.mjs OTHER [runs=7] [scale=1]: OTHER is another checkout of csafe, built');
  process.exit(2);
}
const runs = Number(runsArg);
const scale = Number(scaleArg);
delete process.env.NODE_EXTRA_CA_CERTS;
requireBuild();
requireTool('curl', 'apt-get install curl');

const GiB = 2 ** 30;
const IMPORTS = [
  { name: 'import-40', bytes: 250e6, line: tinyObject, flags: [] },
  { name: 'import-83', bytes: GiB, line: smallObject, flags: [] },
  { name: 'import-1k', bytes: GiB, line: kilobyteObject, flags: [] },
  { name: 'import-novalidate', bytes: GiB, line: kilobyteObject, flags: ['--no-validate'] },
];
const builds = [
  { name: `this build (${BIN})`, bin: BIN },
  { name: `other build (${otherBin})`, bin: otherBin },
];

const dir = tempDir();
const importing = await startEmulator(['--processing-delay', '1h']);
const processing = await startEmulator(['--processing-delay', '0']);
const csafe = (bin, args, emulator) => async () => (await emulator.reset(), timed(process.execPath, [bin, ...args], { env: { ...emulator.env, CSAFE_CONFIG_DIR: dir } }));
try {
  for (const row of IMPORTS) {
    const input = join(dir, `${row.name}.jsonl`);
    writeLines(input, Math.round(row.bytes * scale), row.line);
    const curl = async () => {
      await importing.reset();
      const { upload_url: url } = await importing.api('POST', '/v1/data/bench/import');
      return timed('curl', ['-sSf', '-o', '/dev/null', '-T', input, '-H', 'Content-Type: application/json', url]);
    };
    const variants = [{ name: 'curl -T', run: curl }, ...builds.map((build) => ({ name: build.name, run: csafe(build.bin, ['data', 'import', 'bench', input, ...row.flags], importing) }))];
    const samples = await interleave(variants, runs, { warmup: 1 });
    console.log(`\n${row.name}, ${runs} rounds; throughput ÷ curl's:`);
    printAgainstFirst(variants, samples);
    printThisAgainstOther('throughput', samples[1].map((sample, round) => samples[2][round].seconds / sample.seconds));
    rmSync(input);
  }

  const sizes = [10_000, 100_000].map((total) => Math.max(1, Math.round(total * scale)));
  const inputs = sizes.map((total) => {
    const path = join(dir, `add-${total}.jsonl`);
    writeCount(path, total, objectLine);
    return path;
  });
  const variants = builds.flatMap((build) => inputs.map((path, index) => ({ name: `${build.name}, ${sizes[index]} objects`, run: csafe(build.bin, ['data', 'add', 'bench', path, '--wait'], processing) })));
  const samples = await interleave(variants, runs);
  console.log(`\ndata-add-wait-rss, ${runs} rounds; peak RSS at ${sizes[1]} objects ÷ at ${sizes[0]}, per round:`);
  const growth = (small, large) => samples[large].map((sample, round) => sample.rssMiB / samples[small][round].rssMiB);
  for (const [index, build] of builds.entries()) printSpread(build.name, growth(2 * index, 2 * index + 1), samples[2 * index + 1]);
} finally {
  await Promise.all([importing.stop(), processing.stop()]);
  rmSync(dir, { recursive: true, force: true });
}

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function printThisAgainstOther(what, ratios) {
  console.log(`  this build's ${what} ÷ the other's: ${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`);
}

function printSpread(name, ratios, largeSamples) {
  console.log(`  ${name}: ${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}), ${median(largeSamples.map((sample) => sample.rssMiB)).toFixed(0)} MiB at the large size`);
}
