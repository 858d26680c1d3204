// `stream parts --follow` throughput and memory, in one run. The same parts, written by one
// process through a pipe, go into:
//   1. `cat > /dev/null`: the baseline of the pipe and the writer alone;
//   2. a bare poster (node, 100 parts a request, one request at a time, no checks): what the
//      emulator takes with nothing of csafe in the way;
//   3. `csafe stream parts --follow` to the same emulator, under /usr/bin/time -v for its peak RSS.
// Usage: node bench/stream-follow.mjs [parts=1000000]
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BIN, requireTool, startEmulator, tempDir } from './_support.mjs';

const HELPER = fileURLToPath(new URL('./_stream-parts.mjs', import.meta.url));
const count = Number(process.argv[2] ?? 1_000_000);
requireTool('/usr/bin/time', 'apt-get install -y time');
const dir = tempDir();
const quote = (arg) => `'${String(arg).replaceAll("'", `'\\''`)}'`;
const node = (...args) => [process.execPath, ...args].map(quote).join(' ');
const writer = node(HELPER, 'write', count);

/** Runs `writer | consumer` in a shell; seconds it took and the consumer's peak RSS when it ran under time -v. */
function piped(label, consumer, env = {}) {
  const stats = join(dir, 'time.txt');
  rmSync(stats, { force: true });
  const command = `${writer} | /usr/bin/time -v -o ${quote(stats)} ${consumer}`;
  const started = performance.now();
  const result = spawnSync('bash', ['-o', 'pipefail', '-c', command], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${label} exited ${result.status}: ${result.stderr.toString().slice(-800)}`);
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(stats, 'utf8'))?.[1]);
  return { label, seconds, rssMb: rssKb / 1024 };
}

const emulator = await startEmulator();
try {
  const env = { CSAFE_BASE_URL: emulator.base_url, CSAFE_API_KEY: emulator.api_key };
  const rows = [
    piped('writer | cat > /dev/null (baseline: the pipe)', 'cat'),
    piped('writer | bare poster → emulator (100 a request)', node(HELPER, 'post', emulator.base_url, emulator.api_key, 'bench', 'bare')),
    piped('writer | csafe stream parts --follow → emulator', node(BIN, 'stream', 'parts', 'bench', '--id', 'csafe', '--follow', '-q'), env),
  ];
  const base = rows[1].seconds;
  console.log(`\n${'what'.padEnd(50)} ${'parts'.padStart(9)} ${'seconds'.padStart(8)} ${'parts/s'.padStart(9)} ${'× poster'.padStart(9)} ${'peak RSS'.padStart(10)}`);
  for (const { label, seconds, rssMb } of rows) {
    console.log(`${label.padEnd(50)} ${String(count).padStart(9)} ${seconds.toFixed(2).padStart(8)} ${Math.round(count / seconds).toString().padStart(9)} ${(seconds / base).toFixed(2).padStart(9)} ${`${rssMb.toFixed(0)} MB`.padStart(10)}`);
  }
} finally {
  emulator.stop();
  rmSync(dir, { recursive: true, force: true });
}
