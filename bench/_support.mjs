// Shared by the benchmarks: the emulator as a child process, and hyperfine with a readable result.
import { spawn, spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../bin/csafe', import.meta.url));
export const tempDir = () => mkdtempSync(join(tmpdir(), 'csafe-bench-'));

export function requireTool(name, hint) {
  if (spawnSync('sh', ['-c', `command -v ${name}`]).status !== 0) {
    console.error(`${name} is not installed: ${hint}`);
    process.exit(1);
  }
}

/**
 * Runs a command under /usr/bin/time (its peak RSS measured from outside, in `dir`); returns wall
 * seconds, peak RSS in MiB, and its stdout. Any exit code but `expectedCode` is a failure.
 */
export function timed(dir, command, args, env, expectedCode = 0) {
  const stats = join(dir, 'time.txt');
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', '-o', stats, command, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 24 });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== expectedCode) throw new Error(`${command} exited ${result.status}: ${result.stderr.toString().slice(-500)}`);
  return { seconds, rssMb: Number(readFileSync(stats, 'utf8').trim().split('\n').at(-1)) / 1024, stdout: result.stdout.toString() };
}

export async function startEmulator(args = []) {
  const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  const ready = JSON.parse(line);
  return { ...ready, stop: () => child.kill('SIGINT') };
}

/** Runs hyperfine over named commands and prints mean ± σ and the ratio to the first (the baseline). */
export function hyperfine(commands, { runs = 20, warmup = 3, env = {} } = {}) {
  const out = join(tempDir(), 'result.json');
  const args = ['--style', 'none', '--runs', String(runs), '--warmup', String(warmup), '--export-json', out, '-N'];
  for (const [name, command] of commands) args.push('--command-name', name, command);
  const result = spawnSync('hyperfine', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error('hyperfine failed');
  const { results } = JSON.parse(readFileSync(out, 'utf8'));
  const base = results[0].mean;
  console.log('| command | mean (ms) | σ (ms) | × baseline |\n|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.command} | ${(r.mean * 1000).toFixed(1)} | ${(r.stddev * 1000).toFixed(1)} | ${(r.mean / base).toFixed(2)} |`);
  }
  return results;
}
