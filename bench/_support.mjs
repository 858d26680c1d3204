// Shared by the benchmarks: commands timed under /usr/bin/time (wall time and peak RSS), run
// interleaved with their baseline; the emulator as a child process; generated inputs; the machine.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statfsSync, statSync, writeSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, release, tmpdir, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'csafe');
export const tempDir = () => mkdtempSync(join(tmpdir(), 'csafe-bench-'));

export function requireTool(name, hint) {
  if (spawnSync('sh', ['-c', `command -v ${name}`]).status !== 0) {
    console.error(`${name} is not installed: ${hint}`);
    process.exit(1);
  }
}

/**
 * bin/csafe runs dist/bundle, which `tsc -p .` alone leaves as it was: a benchmark of a stale or
 * missing bundle measures nothing.
 */
export function requireBuild(root = ROOT) {
  const modified = (file) => (existsSync(join(root, 'dist', file)) ? statSync(join(root, 'dist', file)).mtimeMs : 0);
  const bundled = modified('bundle.meta.json');
  if (!existsSync(join(root, 'dist', 'bundle', 'csafe.cjs')) || bundled < modified('.tsbuildinfo')) {
    console.error(`no current build in ${join(root, 'dist', 'bundle')}: run \`npm run build\` (tsc, then scripts/bundle.mjs) first`);
    process.exit(1);
  }
}

/** Refuses to write `bytes` more into `dir` unless twice that stays free (the file, and the emulator's copy of its upload). */
export function requireDisk(dir, bytes, what) {
  const { bavail, bsize } = statfsSync(dir);
  const free = bavail * bsize;
  if (free < 2 * bytes) {
    throw new Error(`not enough free disk in ${dir} for ${what}: ${(free / 2 ** 30).toFixed(1)} GiB free, ${((2 * bytes) / 2 ** 30).toFixed(1)} GiB needed (the file and its upload); run with --quick or free some space`);
  }
}

export class CommandFailed extends Error {
  constructor(command, code, stderr) {
    super(`${command} exited ${code}: ${stderr.slice(-800)}`);
    this.code = code;
    this.stderr = stderr;
  }
}

/**
 * Runs a command under /usr/bin/time: wall seconds (spawn to exit, measured here), its peak RSS in
 * MiB (from time -f %M), and its stdout when `capture`. Any exit code but `expectedCode` throws
 * CommandFailed. `command` may be `sh` with `-c` for a pipeline or parallel baseline.
 */
export async function timed(command, args, { env = {}, expectedCode = 0, capture = false } = {}) {
  const dir = tempDir();
  const stats = join(dir, 'time.txt');
  try {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', '%M', '-o', stats, command, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', capture ? 'pipe' : 'ignore', 'pipe'],
    });
    const stdout = [];
    const stderr = [];
    child.stdout?.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    const [code] = await once(child, 'close');
    const seconds = (performance.now() - started) / 1000;
    if (code !== expectedCode) throw new CommandFailed([command, ...args].join(' '), code, Buffer.concat(stderr).toString());
    const rssKb = Number(readFileSync(stats, 'utf8').trim().split('\n').at(-1));
    return { seconds, rssMiB: rssKb / 1024, stdout: Buffer.concat(stdout).toString() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs each variant `runs` times, interleaved: round 0 in the given order, round 1 reversed, and so
 * on (A B, B A, …), so neither always runs first after the other. `warmup` rounds are run and
 * dropped. A variant is `{ run: async () => sample }`; returns the samples of each, in variant order.
 */
export async function interleave(variants, runs, { warmup = 0 } = {}) {
  const samples = variants.map(() => []);
  for (let round = -warmup; round < runs; round++) {
    const order = variants.map((_, index) => index);
    if (Math.abs(round) % 2 === 1) order.reverse();
    for (const index of order) {
      const sample = await variants[index].run();
      if (round >= 0) samples[index].push(sample);
    }
  }
  return samples;
}

/**
 * The variants' throughput against the first's (a floor script's baseline), round by round: each
 * one's median time, and the median and range of its per-round ratio.
 */
export function printAgainstFirst(variants, samples) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const firstSeconds = samples[0].map((sample) => sample.seconds);
  const width = Math.max(...variants.map((variant) => variant.name.length));
  for (const [index, variant] of variants.entries()) {
    const ratios = samples[index].map((sample, round) => firstSeconds[round] / sample.seconds);
    console.log(`  ${variant.name.padEnd(width)} median ${median(samples[index].map((sample) => sample.seconds)).toFixed(3)} s, ${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`);
  }
}

/** A JSON request to the emulator on a fresh connection (none left idle for it to close under the next one). */
function call(emulator, method, path, body) {
  return new Promise((resolve, reject) => {
    const req = request(emulator.base_url + path, {
      method,
      agent: false,
      headers: { authorization: `Bearer ${emulator.api_key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    });
    req.on('error', reject);
    req.on('response', async (response) => {
      const chunks = [];
      for await (const chunk of response) chunks.push(chunk);
      const text = Buffer.concat(chunks).toString();
      if (response.statusCode >= 300) reject(new Error(`${method} ${path}: ${response.statusCode} ${text}`));
      else resolve(text === '' ? {} : JSON.parse(text));
    });
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat; [0] here is field 3.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `csafe emulator start --port 0` with `args`, running until stop(). Its env for csafe, api() for
 * JSON calls, reset() to drop what the last run left (uploads, objects, events), and cpuSeconds()
 * once it has settled (no CPU used for 200 ms), to count the work a run left behind.
 */
export async function startEmulator(args = []) {
  const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
  child.stdout.resume();
  const ready = JSON.parse(line);
  const emulator = {
    ...ready,
    pid: child.pid,
    env: { CSAFE_BASE_URL: ready.base_url, CSAFE_API_KEY: ready.api_key },
    api: (method, path, body) => call(emulator, method, path, body),
    reset: () => call(emulator, 'POST', '/_emulator/reset'),
    async settledCpuSeconds() {
      for (let last = cpuSeconds(child.pid); ; ) {
        await sleep(200);
        const now = cpuSeconds(child.pid);
        if (now === last) return now;
        last = now;
      }
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGINT');
      await once(child, 'exit');
    },
  };
  return emulator;
}

/** Writes lines made by `line(n)` to `path` in 4 MB slabs until at least `bytes`; returns the bytes and lines written. */
export function writeLines(path, bytes, line) {
  const fd = openSync(path, 'w');
  let written = 0;
  let n = 0;
  try {
    while (written < bytes) {
      let slab = '';
      while (slab.length < 4_000_000 && written + slab.length < bytes) slab += line(n++);
      written += writeSync(fd, slab);
    }
  } finally {
    closeSync(fd);
  }
  return { bytes: written, lines: n };
}

const LOREM = 'lorem ipsum '.repeat(75);
/** A data object of about 1 kB, with a distinct id. */
export const kilobyteObject = (n) => `{"id":"obj_${n}","title":"listing ${n}","body":"${LOREM}"}\n`;
/** A data object of exactly 83 bytes with its newline (ids up to 10^9). */
export const smallObject = (n) => `{"id":"o${String(n).padStart(9, '0')}","title":"listing ${String(n).padStart(9, '0')}","body":"short listing text number"}\n`;
/** A data object of exactly 40 bytes with its newline (ids up to 10^7): where the cost per line shows most. */
export const tinyObject = (n) => `{"id":"d-${String(n).padStart(7, '0')}","t":"title ${String(n % 100).padStart(2, '0')}","n":${n % 10}}\n`;

const EVENT_VARIANTS = [
  (n, user) => ({ type: 'content_uploaded', event_name: 'post_published', user_id: user, content_id: `post_${n}`, content: [{ type: 'text', text: `post number ${n}`, key: 'body' }], metadata: { community: 'cycling', n } }),
  (n, user) => ({ type: 'user_contact', event_name: 'message_sent', user_id: user, target_user_id: `user_${(n * 7) % 50_000}`, content: [{ type: 'text', text: 'hi there' }], client_info: { ip: '203.0.113.7' } }),
  (n, user) => ({ type: 'product_changed', event_name: 'product_updated', user_id: user, content: [{ type: 'text', text: 'road bike' }], product: { price: { amount: '450.00', currency: 'EUR' } }, resources_used: [{ type: 'url', value: `https://shop.example.com/${n}` }] }),
  (n, user) => ({ type: 'update_account', event_name: 'bio_updated', user_id: user, resources_used: [{ type: 'email', value: `${user}@example.com` }] }),
  (n) => ({ type: 'moderation_decision', event_name: 'content_removed', content_id: `post_${n - 1}`, labels: ['spam'], source_id: 'automation_1', source_type: 'automation' }),
];
/** A backend event: every variant in turn, 50,000 users, metadata and content on most. */
export function eventLine(n) {
  const event = { ...EVENT_VARIANTS[n % EVENT_VARIANTS.length](n, `user_${n % 50_000}`), timestamp: new Date(1_780_000_000_000 + n * 1000).toISOString() };
  return `${JSON.stringify(event)}\n`;
}

/** Writes `count` lines made by `line(n)`; returns the bytes written. */
export function writeCount(path, count, line) {
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    for (let n = 0; n < count; ) {
      let slab = '';
      for (; n < count && slab.length < 4_000_000; n++) slab += line(n);
      written += writeSync(fd, slab);
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

/** The machine the figures come from. */
export function machine() {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown CPU',
    cores: cores.length,
    memory: `${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM`,
    node: process.version,
    os: `${type()} ${release()}`,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}
