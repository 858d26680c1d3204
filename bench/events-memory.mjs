// The emulator's memory under many events, and a listing of all of them: not part of `npm test`
// (it takes minutes). Posts `count` events (1000 a request, each with its own idempotency key, and
// a retried request every 100 for the de-duplication path) to an emulator run under
// /usr/bin/time -v, reads GET /_emulator/events back in pages and once whole, checks each is valid
// JSON with every event once, and prints the emulator's peak RSS.
// Usage: node bench/events-memory.mjs [count=1500000]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, eventLine, requireBuild, requireTool, tempDir } from './_support.mjs';

const count = Number(process.argv[2] ?? 1_500_000);
const PER_REQUEST = 1000;
const PAGE = 100_000;
requireBuild();
requireTool('/usr/bin/time', 'apt-get install -y time');
const dir = tempDir();
const stats = join(dir, 'time.txt');

// A process group of its own: SIGINT reaches the emulator, which /usr/bin/time waits for (time itself ignores it).
const child = spawn('/usr/bin/time', ['-v', '-o', stats, process.execPath, BIN, 'emulator', 'start', '--port', '0', '--json', '--data-dir', join(dir, 'data')], {
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
const [line] = await once(createInterface({ input: child.stdout }), 'line');
child.stdout.resume();
const { base_url: baseUrl, api_key: apiKey } = JSON.parse(line);
const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };

try {
  const started = Date.now();
  for (let first = 0; first < count; first += PER_REQUEST) {
    const body = `[${Array.from({ length: Math.min(PER_REQUEST, count - first) }, (_, k) => withKey(eventLine(first + k), first + k)).join(',')}]`;
    const times = (first / PER_REQUEST) % 100 === 99 ? 2 : 1;
    for (let time = 0; time < times; time++) {
      const reply = await fetch(`${baseUrl}/v1/async/events`, { method: 'POST', headers, body });
      if (reply.status !== 202) throw new Error(`POST /v1/async/events answered ${reply.status}: ${await reply.text()}`);
    }
  }
  console.log(`${count} events posted in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  let listed = 0;
  for (let after = 0; after !== null; ) {
    const page = await (await fetch(`${baseUrl}/_emulator/events?after=${after}&limit=${PAGE}`, { headers })).json();
    if (page.events.length > 0 && page.events[0].seq !== after + 1) throw new Error(`the page after ${after} starts at ${page.events[0].seq}`);
    listed += page.events.length;
    after = page.next;
  }
  if (listed !== count) throw new Error(`the pages listed ${listed} events of ${count}`);
  const whole = await fetch(`${baseUrl}/_emulator/events`, { headers });
  let bytes = 0;
  for await (const chunk of whole.body) bytes += chunk.length;
  console.log(`listed in pages of ${PAGE}: ${listed} events; the whole listing (${whole.status}): ${(bytes / 2 ** 20).toFixed(0)} MiB streamed`);
} finally {
  process.kill(-child.pid, 'SIGINT');
  await once(child, 'exit');
}
const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(stats, 'utf8'))?.[1];
console.log(`emulator peak RSS (/usr/bin/time -v): ${(Number(peak) / 1024).toFixed(0)} MiB`);
rmSync(dir, { recursive: true, force: true });

/** The bench's event line with an idempotency key of its own, so the key index is exercised too. */
function withKey(text, n) {
  return `${text.trimEnd().slice(0, -1)},"idempotency_key":"bench-${n}"}`;
}
