// Load soak: five heavy workloads against one emulator process, each run as a user would, with the
// resident memory of the client and of the emulator sampled as they go. No client error, every
// record arrives, and memory stays flat: its peak in the second half of a run is no more than in
// the first half give or take a margin, and under a fixed bound whatever the size. At full size
// (`npm run test:soak`): 200 concurrent classify requests, 1,000,000 events, a 1 GB import,
// 1,000,000 parts through --follow, 10,000 webhook deliveries; CI runs it at a fifth
// (CSAFE_SOAK_SCALE=0.2). CSAFE_WRITE_RELIABILITY=1 writes the figures to docs/reliability.md.
import assert from 'node:assert/strict';
import { createReadStream, createWriteStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { ended, spawnCsafe, tempDir, useEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { writeLargeJsonl } from '../helpers/jsonl.js';
import { soakSize } from '../helpers/soak.js';
import { waitFor } from '../helpers/wait.js';

const DOC = fileURLToPath(new URL('../../../docs/reliability.md', import.meta.url));
const BEGIN = '<!-- load soak: made by test/soak/load.test.ts -->';
const END = '<!-- end of the load soak -->';
const SCALE = Number(process.env.CSAFE_SOAK_SCALE ?? 1);
const RUN_TIMEOUT_MS = 900_000;
const MB = 1024 * 1024;
/** Far above what either process needs for any of these runs, at any size: memory that grows with the input breaks it at full size. */
const RSS_BOUND = 400 * MB;

interface Figure {
  workload: string;
  seconds: number;
  /** Peak RSS of each process over the whole run, and over its first and second halves. */
  client: Peaks;
  emulator: Peaks;
}

interface Peaks {
  peak: number;
  firstHalf: number;
  secondHalf: number;
}

/** VmRSS of a process in bytes, or undefined once it has gone. */
function rssOf(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** Samples the RSS of the processes every 100 ms until stopped. */
function sampler(pids: { client: number; emulator: number }) {
  const samples: Array<{ client: number; emulator: number }> = [];
  const timer = setInterval(() => {
    const client = rssOf(pids.client);
    const emulator = rssOf(pids.emulator);
    if (client !== undefined && emulator !== undefined) samples.push({ client, emulator });
  }, 100);
  return {
    stop(): { client: Peaks; emulator: Peaks } {
      clearInterval(timer);
      const peaks = (which: 'client' | 'emulator'): Peaks => {
        const values = samples.map((sample) => sample[which]);
        const half = Math.floor(values.length / 2);
        const max = (list: number[]) => list.reduce((a, b) => Math.max(a, b), 0);
        return { peak: max(values), firstHalf: max(values.slice(0, half)), secondHalf: max(values.slice(half)) };
      };
      return { client: peaks('client'), emulator: peaks('emulator') };
    },
  };
}

function assertFlat(figure: Figure): void {
  for (const which of ['client', 'emulator'] as const) {
    const { peak, firstHalf, secondHalf } = figure[which];
    assert.ok(peak < RSS_BOUND, `${figure.workload}: the ${which}'s RSS reached ${(peak / MB).toFixed(0)} MB`);
    // A run's first half holds its start-up and warm-up; a second half much above it is memory that grows with the input.
    assert.ok(secondHalf <= firstHalf * 1.25 + 40 * MB, `${figure.workload}: the ${which}'s RSS grew from ${(firstHalf / MB).toFixed(0)} MB to ${(secondHalf / MB).toFixed(0)} MB`);
  }
}

/** Runs `csafe …args` (its stdin from `input` when given), sampling both processes; fails on any exit but 0. */
async function measured(emulator: EmulatorProcess, workload: string, args: string[], options: { cwd: string; input?: string }): Promise<{ figure: Figure; stdout: string; stderr: string }> {
  const started = Date.now();
  const child = spawnCsafe(args, { env: emulator.env, cwd: options.cwd });
  const sampling = sampler({ client: child.pid!, emulator: emulator.child.pid! });
  const result = ended(child, { timeoutMs: RUN_TIMEOUT_MS });
  if (options.input === undefined) child.stdin.end();
  else createReadStream(options.input).pipe(child.stdin);
  const { code, stdout, stderr } = await result;
  const figure = { workload, seconds: (Date.now() - started) / 1000, ...sampling.stop() };
  assert.equal(code, 0, `${workload}: ${stderr.slice(-2000)}`);
  assertFlat(figure);
  return { figure, stdout, stderr };
}

/** Writes `count` JSON lines, `line(i)` each, a slab at a time. */
async function writeLines(path: string, count: number, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < count; ) {
    let slab = '';
    for (const end = Math.min(count, i + 10_000); i < end; i++) slab += `${line(i)}\n`;
    if (!out.write(slab)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

describe('load soak: one emulator, five heavy workloads, memory flat', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0', '--request-log-size', '1000', '--webhook-retry-delays', '1s']);
  const dir = tempDir('csafe-load-');
  const figures: Figure[] = [];

  it('200 concurrent classify requests', async () => {
    const count = soakSize(20_000, 400);
    await writeLines(join(dir, 'items.jsonl'), count, (i) => JSON.stringify({ text: `message ${i}`, content_id: `c${i}` }));
    const { figure, stdout } = await measured(emulator, `classify --batch, ${count.toLocaleString('en')} items, --concurrency 200`, ['classify', '--batch', 'items.jsonl', '--user-id', 'u1', '--concurrency', '200', '--failed', 'failed-classify.jsonl'], { cwd: dir });
    assert.equal(stdout.split('\n').filter(Boolean).length, count, 'a result for every item');
    figures.push(figure);
  });

  it('1,000,000 events', async () => {
    const count = soakSize(1_000_000);
    await writeLines(join(dir, 'events.jsonl'), count, (i) => JSON.stringify({ type: 'create_account', event_name: 'signup', timestamp: '2026-11-27T10:00:00Z', user_id: `u${i}` }));
    const { figure } = await measured(emulator, `events send, ${count.toLocaleString('en')} events`, ['events', 'send', 'events.jsonl', '--failed', 'failed-events.jsonl', '--json'], { cwd: dir });
    const { total } = (await emulator.control('/_emulator/events?limit=1')) as { total: number };
    assert.equal(total, count, 'every event stored once');
    figures.push(figure);
  });

  it('a 1 GB import', async () => {
    const bytes = soakSize(1024 * MB);
    writeLargeJsonl(join(dir, 'import.jsonl'), bytes);
    const size = statSync(join(dir, 'import.jsonl')).size;
    const { figure, stdout } = await measured(emulator, `data import --wait, ${(size / MB).toFixed(0)} MB`, ['data', 'import', 'big', 'import.jsonl', '--wait', '--timeout', '15m', '--json'], { cwd: dir });
    const status = JSON.parse(stdout) as { status: string; data_count: number };
    assert.equal(status.status, 'succeeded');
    assert.ok(status.data_count > 0);
    figures.push(figure);
  });

  it('1,000,000 parts through --follow', async () => {
    const count = soakSize(1_000_000);
    await writeLines(join(dir, 'parts.jsonl'), count, (i) => JSON.stringify({ type: 'transcript', text: `part ${i}`, speaker: 'host', timestamp: '2026-11-21T10:00:00Z' }));
    const { figure, stdout } = await measured(emulator, `stream parts --follow, ${count.toLocaleString('en')} parts`, ['stream', 'parts', 'live', '--id', 'soak', '--follow', '--json'], { cwd: dir, input: join(dir, 'parts.jsonl') });
    const summary = JSON.parse(stdout) as { sent: number; failed: number; unconfirmed: number };
    assert.deepEqual([summary.sent, summary.failed, summary.unconfirmed], [count, 0, 0]);
    figures.push(figure);
  });

  it('10,000 webhook deliveries', async () => {
    const count = soakSize(10_000);
    // Its stdout a pipe: one JSON line a notification, as it comes.
    const listener = spawnCsafe(['webhooks', 'listen'], { env: emulator.env, cwd: dir });
    const started = Date.now();
    const sampling = sampler({ client: listener.pid!, emulator: emulator.child.pid! });
    const result = ended(listener, { timeoutMs: RUN_TIMEOUT_MS });
    listener.stdin.end();
    let printed = 0;
    listener.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8').split('\n').length - 1));
    await waitFor(async () => ((await emulator.control('/_emulator/webhooks/endpoints')) as { endpoints: unknown[] }).endpoints.length === 1, { what: 'the listener to register' });
    for (let sent = 0; sent < count; ) {
      const batch = Array.from({ length: Math.min(50, count - sent) }, (_, i) => emulator.control('/_emulator/webhooks/trigger', { method: 'POST', body: { type: 'workflow.succeeded', id: `obj-${sent + i}` } }));
      sent += batch.length;
      await Promise.all(batch);
    }
    await waitFor(() => printed >= count, { what: `${count} notifications printed by webhooks listen`, timeoutMs: RUN_TIMEOUT_MS });
    listener.kill('SIGINT');
    const { code, stderr } = await result;
    const figure = { workload: `webhooks listen, ${count.toLocaleString('en')} deliveries`, seconds: (Date.now() - started) / 1000, ...sampling.stop() };
    assert.equal(code, 0, stderr);
    assertFlat(figure);
    figures.push(figure);
  });

  after(() => {
    if (process.env.CSAFE_WRITE_RELIABILITY !== '1' || figures.length === 0) return;
    const text = readFileSync(DOC, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    if (start < 0 || end < start) throw new Error(`${DOC} has no load soak section between its markers`);
    writeFileSync(DOC, `${text.slice(0, start + BEGIN.length)}\n${soakTable(figures)}\n${text.slice(end)}`);
  });
});

function soakTable(figures: readonly Figure[]): string {
  const mb = (bytes: number) => `${(bytes / MB).toFixed(0)}`;
  const rows = figures.map((f) => `| ${f.workload} | ${f.seconds.toFixed(1)} | ${mb(f.client.peak)} (${mb(f.client.firstHalf)} → ${mb(f.client.secondHalf)}) | ${mb(f.emulator.peak)} (${mb(f.emulator.firstHalf)} → ${mb(f.emulator.secondHalf)}) |`);
  return [
    `Scale ${SCALE} (CSAFE_SOAK_SCALE), ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.platform}:`,
    '',
    '| workload | seconds | client RSS, MB: peak (first half → second half) | emulator RSS, MB: peak (first half → second half) |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}
