// Import throughput, in one run, on a generated 1 GB JSONL file, each to a fresh upload address
// of the same emulator: `curl -T` (the baseline: the bytes and nothing else) against
// `csafe data import --no-validate` and `csafe data import` (every line checked first).
// Each command runs under /usr/bin/time, for its peak RSS measured from outside.
// Usage: node bench/import.mjs [megabytes=1000] [runs=3]
import { rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { writeLargeJsonl } from '../dist/test/helpers/jsonl.js';
import { BIN, requireTool, startEmulator, tempDir, timed as timedIn } from './_support.mjs';

const MB = 1_000_000;
const megabytes = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 3);
const TIME = '/usr/bin/time';
requireTool('curl', 'apt-get install curl');
requireTool(TIME, 'apt-get install time');

const dir = tempDir();
const { bavail, bsize } = statfsSync(dir);
// The file, plus the emulator's copy of one upload at a time (reset after each run).
if (bavail * bsize < 3 * megabytes * MB) {
  console.error(`not enough free space in ${dir} for a ${megabytes} MB file and its upload`);
  process.exit(1);
}

const timed = (command, args, env) => timedIn(dir, command, args, env);
const emulator = await startEmulator(['--processing-delay', '1h']);
/** A POST to the emulator, by curl: a fresh connection each time, none left idle for the server to close under us. */
const post = (path) => JSON.parse(spawnSync('curl', ['-sSf', '-X', 'POST', '-H', `Authorization: Bearer ${emulator.api_key}`, emulator.base_url + path], { encoding: 'utf8' }).stdout);
try {
  const file = join(dir, 'import.jsonl');
  const bytes = writeLargeJsonl(file, megabytes * MB);
  const env = { CSAFE_BASE_URL: emulator.base_url, CSAFE_API_KEY: emulator.api_key, CSAFE_CONFIG_DIR: dir };
  const variants = [
    { name: 'curl -T (baseline)', run: () => {
      const { upload_url: url } = post('/v1/data/bench/import');
      return timed('curl', ['-sSf', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: application/json', url], {});
    } },
    { name: 'csafe data import --no-validate', run: () => timed(process.execPath, [BIN, 'data', 'import', 'bench', file, '--no-validate', '--json'], env) },
    { name: 'csafe data import (validated)', run: () => timed(process.execPath, [BIN, 'data', 'import', 'bench', file, '--json'], env) },
  ];
  const results = variants.map((v) => ({ name: v.name, samples: [] }));
  // Interleaved rounds, so a slow moment of the machine hits every variant alike.
  for (let round = 0; round < runs; round++) {
    for (const [i, variant] of variants.entries()) {
      post('/_emulator/reset'); // drops the previous upload: one copy on disk at a time
      results[i].samples.push(variant.run());
    }
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const baseline = mean(results[0].samples.map((s) => s.seconds));
  console.log(`${(bytes / MB).toFixed(0)} MB file, ${runs} runs each (wall time from start to exit)\n`);
  console.log('| command | mean s | min s | MB/s | × curl throughput | upload alone MB/s | peak RSS MiB |\n|---|---|---|---|---|---|---|');
  for (const { name, samples } of results) {
    const seconds = mean(samples.map((s) => s.seconds));
    const own = samples.map((s) => (s.stdout.startsWith('{') ? JSON.parse(s.stdout).bytes_per_second : undefined)).filter(Boolean);
    console.log(`| ${name} | ${seconds.toFixed(2)} | ${Math.min(...samples.map((s) => s.seconds)).toFixed(2)} | ${(bytes / MB / seconds).toFixed(0)} | ` +
      `${(baseline / seconds).toFixed(2)} | ${own.length ? (mean(own) / MB).toFixed(0) : '—'} | ${Math.max(...samples.map((s) => s.rssMb)).toFixed(0)} |`);
  }
} finally {
  emulator.stop();
  rmSync(dir, { recursive: true, force: true });
}
