// `stream parts --follow` throughput and memory, in one run. The same parts, written by one
// process through a pipe, go into:
//   1. `cat > /dev/null`: the baseline of the pipe and the writer alone;
//   2. a bare poster (node, 100 parts a request, one request at a time, no checks): what the
//      emulator takes with nothing of csafe in the way;
//   3. `csafe stream parts --follow` to the same emulator, under /usr/bin/time -v for its peak RSS.
// Usage: node bench/stream-follow.mjs [parts=1000000] [rounds=3]
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BIN, requireTool, startEmulator, tempDir } from './_support.mjs';

const HELPER = fileURLToPath(new URL('./_stream-parts.mjs', import.meta.url));
const count = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 3);
requireTool('/usr/bin/time', 'apt-get install -y time');
const dir = tempDir();
const quote = (arg) => `'${String(arg).replaceAll("'", `'\\''`)}'`;
const node = (...args) => [process.execPath, ...args].map(quote).join(' ');
const writer = node(HELPER, 'write', count);

/** Runs `writer | consumer` in a shell; seconds it took and the consumer's peak RSS when it ran under time -v. */
function piped(label, producer, consumer, env = {}) {
  const stats = join(dir, 'time.txt');
  rmSync(stats, { force: true });
  const command = `${producer} | /usr/bin/time -v -o ${quote(stats)} ${consumer}`;
  const started = performance.now();
  const result = spawnSync('bash', ['-o', 'pipefail', '-c', command], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${label} exited ${result.status}: ${result.stderr.toString().slice(-800)}`);
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(stats, 'utf8'))?.[1]);
  return { label, seconds, rssMb: rssKb / 1024 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const emulator = await startEmulator();
try {
  const env = { CSAFE_BASE_URL: emulator.base_url, CSAFE_API_KEY: emulator.api_key };
  const consumers = [
    { label: 'writer | cat > /dev/null (baseline: the pipe)', command: 'cat' },
    { label: 'writer | bare poster → emulator (100 a request)', command: node(HELPER, 'post', emulator.base_url, emulator.api_key, 'bench', 'bare') },
    { label: 'writer | csafe stream parts --follow → emulator', command: node(BIN, 'stream', 'parts', 'bench', '--id', 'csafe', '--follow', '-q'), env },
  ];
  // Interleaved, each round in a rotated order, so a slow spell of this shared machine falls on all of them.
  const runs = consumers.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < consumers.length; k++) {
      const index = (k + round) % consumers.length;
      const { label, command, env: extra } = consumers[index];
      runs[index].push(piped(label, writer, command, extra));
    }
  }
  const posterSeconds = runs[1].map((run) => run.seconds);
  console.log(`\n${count} parts a run, ${rounds} interleaved rounds; medians, and × poster as the median of each round's ratio`);
  console.log(`${'what'.padEnd(50)} ${'seconds'.padStart(8)} ${'parts/s'.padStart(9)} ${'× poster'.padStart(9)} ${'peak RSS'.padStart(10)}`);
  runs.forEach((consumerRuns, index) => {
    const seconds = median(consumerRuns.map((run) => run.seconds));
    const ratio = median(consumerRuns.map((run, round) => run.seconds / posterSeconds[round]));
    const rss = Math.max(...consumerRuns.map((run) => run.rssMb));
    console.log(`${consumers[index].label.padEnd(50)} ${seconds.toFixed(2).padStart(8)} ${Math.round(count / seconds).toString().padStart(9)} ${ratio.toFixed(2).padStart(9)} ${`${rss.toFixed(0)} MB`.padStart(10)}`);
  });
  // Memory flat as input grows: csafe's peak RSS for a tenth of the parts, against the full run above.
  const tenth = Math.round(count / 10);
  const small = piped('csafe, a tenth', node(HELPER, 'write', tenth), consumers[2].command, env);
  const large = Math.max(...runs[2].map((run) => run.rssMb));
  console.log(`\ncsafe peak RSS: ${small.rssMb.toFixed(0)} MB after ${tenth} parts, ${large.toFixed(0)} MB after ${count} (× ${(large / small.rssMb).toFixed(2)} for 10× the parts)`);
  // A heap too small to hold the parts: the run completes only if nothing is kept per part.
  const capped = piped('csafe, heap capped', writer, consumers[2].command, { ...env, NODE_OPTIONS: '--max-old-space-size=48' });
  console.log(`csafe with the heap capped at 48 MB: ${count} parts in ${capped.seconds.toFixed(2)} s, peak RSS ${capped.rssMb.toFixed(0)} MB`);
} finally {
  emulator.stop();
  rmSync(dir, { recursive: true, force: true });
}
