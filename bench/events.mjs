// Events throughput, in one run: `jq -c .` as the baseline for reading the same file,
// `csafe events send --dry-run` (read + validate), and a live send to a local emulator.
// Usage: node bench/events.mjs [events=1000000] [live events=same]
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/csafe', import.meta.url));
const count = Number(process.argv[2] ?? 1_000_000);
const liveCount = Number(process.argv[3] ?? count);
const dir = mkdtempSync(join(tmpdir(), 'csafe-bench-'));

/** A realistic mix: every variant, 50,000 users, metadata and content on most events. */
async function writeEvents(path, total) {
  const out = createWriteStream(path);
  const variants = [
    (n, user) => ({ type: 'content_uploaded', event_name: 'post_published', user_id: user, content_id: `post_${n}`, content: [{ type: 'text', text: `post number ${n}`, key: 'body' }], metadata: { community: 'cycling', n } }),
    (n, user) => ({ type: 'user_contact', event_name: 'message_sent', user_id: user, target_user_id: `user_${(n * 7) % 50_000}`, content: [{ type: 'text', text: 'hi there' }], client_info: { ip: '203.0.113.7' } }),
    (n, user) => ({ type: 'product_changed', event_name: 'product_updated', user_id: user, content: [{ type: 'text', text: 'road bike' }], product: { price: { amount: '450.00', currency: 'EUR' } }, resources_used: [{ type: 'url', value: `https://shop.example.com/${n}` }] }),
    (n, user) => ({ type: 'update_account', event_name: 'bio_updated', user_id: user, resources_used: [{ type: 'email', value: `${user}@example.com` }] }),
    (n) => ({ type: 'moderation_decision', event_name: 'content_removed', content_id: `post_${n - 1}`, labels: ['spam'], source_id: 'automation_1', source_type: 'automation' }),
  ];
  for (let n = 0; n < total; n++) {
    const event = { ...variants[n % variants.length](n, `user_${n % 50_000}`), timestamp: new Date(1_780_000_000_000 + n * 1000).toISOString() };
    if (!out.write(JSON.stringify(event) + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function timed(label, command, args, options = {}) {
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30, ...options });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${label} exited ${result.status}: ${result.stderr?.toString().slice(-500)}`);
  return { label, seconds };
}

async function startEmulator() {
  const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
  const ready = JSON.parse(line);
  return { env: { ...process.env, CSAFE_BASE_URL: ready.base_url, CSAFE_API_KEY: ready.api_key }, stop: () => child.kill('SIGINT') };
}

try {
  const file = join(dir, 'events.jsonl');
  const liveFile = join(dir, 'live.jsonl');
  await writeEvents(file, count);
  if (liveCount !== count) await writeEvents(liveFile, liveCount);
  const rows = [];
  if (spawnSync('jq', ['--version']).status === 0) rows.push({ ...timed('jq -c . (baseline: parse + print)', 'jq', ['-c', '.', file]), events: count });
  else console.log('jq not found: baseline skipped (apt-get install -y jq)');
  rows.push({ ...timed('csafe events send --dry-run', process.execPath, [BIN, 'events', 'send', file, '--dry-run', '-q']), events: count });
  const emulator = await startEmulator();
  try {
    const live = liveCount === count ? file : liveFile;
    const args = [BIN, 'events', 'send', live, '--concurrency', '8', '-q'];
    rows.push({ ...timed('csafe events send → emulator (validate + send, --concurrency 8)', process.execPath, args, { env: emulator.env }), events: liveCount });
  } finally {
    emulator.stop();
  }
  console.log(`\n${'what'.padEnd(66)} ${'events'.padStart(9)} ${'seconds'.padStart(8)} ${'events/s'.padStart(10)}`);
  for (const { label, events, seconds } of rows) {
    console.log(`${label.padEnd(66)} ${String(events).padStart(9)} ${seconds.toFixed(2).padStart(8)} ${Math.round(events / seconds).toString().padStart(10)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
