import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { BIN, closedPort, ended, outcome, runCsafe, spawnCsafe, tempDir, useEmulatorProcess, withEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';
import { closeServer, listenOnLoopback } from '../helpers/server.js';
import { EVENT_EXAMPLES } from '../../src/schemas/event-examples.js';
import { assertExactlyOnceInOrder, eventsText, ingestedEvents } from '../helpers/events.js';

const lines = (text: string) => text.split('\n').filter((line) => line !== '');
const readLines = (path: string) => (existsSync(path) ? lines(readFileSync(path, 'utf8')) : []);
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const pick = (record: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, record[key]]));

const classifyLine = (i: number) => JSON.stringify({ text: `message ${i}`, user_id: 'u1' });
const eventLine = (i: number) => JSON.stringify({ ...EVENT_EXAMPLES.create_account, user_id: `user-${i}` });
const objectLine = (i: number) => JSON.stringify({ id: `obj-${i}`, title: `listing ${i}` });
const verdictLine = (i: number) => JSON.stringify({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: `ref-${i}` });
const erasureLine = (i: number) => JSON.stringify({ subject_user_id: `subject-${i}`, requested_at: '2026-11-27T10:00:00Z' });
const partLine = (i: number) => JSON.stringify({ type: 'chat_message', sender_id: 'u7', sender_display_name: 'Ann', text: `hello ${i}`, timestamp: '2026-11-21T10:00:00Z' });

/** A file of `count` records, one a line. */
function inputFile(dir: string, name: string, count: number, line: (i: number) => string): { path: string; records: string[] } {
  const records = range(count).map(line);
  const path = join(dir, name);
  writeFileSync(path, records.join('\n') + '\n');
  return { path, records };
}

/** The requests csafe traced with --verbose: one `→ POST` line each attempt. */
const attempts = (stderr: string) => lines(stderr).filter((line) => line.includes('→ POST')).length;

const BULK = [
  { command: 'classify --batch', name: 'items.jsonl', line: classifyLine, args: (file: string, failed: string) => ['classify', '--batch', file, '--concurrency', '1', '--failed', failed] },
  { command: 'events send', name: 'events.jsonl', line: eventLine, args: (file: string, failed: string) => ['events', 'send', file, '--batch-size', '1', '--concurrency', '1', '--failed', failed] },
  { command: 'data add', name: 'items.jsonl', line: objectLine, args: (file: string, failed: string) => ['data', 'add', 'listings', file, '--batch-size', '1', '--concurrency', '1', '--failed', failed] },
  { command: 'stream parts', name: 'parts.jsonl', line: partLine, args: (file: string, failed: string) => ['stream', 'parts', 'live', '--id', 'show-1', file, '--batch-size', '1', '--failed', failed] },
  { command: 'agent-decision send', name: 'verdicts.jsonl', line: verdictLine, args: (file: string, failed: string) => ['agent-decision', 'send', file, '--concurrency', '1', '--failed', failed] },
  { command: 'deletion-request send', name: 'erasures.jsonl', line: erasureLine, args: (file: string, failed: string) => ['deletion-request', 'send', file, '--concurrency', '1', '--failed', failed] },
];

/** How many times the emulator holds the verdict about `ref-i`, or the deletion request of `subject-i`, for i from 1 to count. */
async function heldVerdicts(emulator: EmulatorProcess, count: number): Promise<number[]> {
  const { agent_decisions: held } = (await emulator.control('/_emulator/agent_decisions?limit=1000')) as { agent_decisions: Array<{ reference_id: string }> };
  return range(count).map((i) => held.filter((verdict) => verdict.reference_id === `ref-${i}`).length);
}
async function heldErasures(emulator: EmulatorProcess, count: number): Promise<number[]> {
  const { deletion_requests: held } = (await emulator.control('/_emulator/deletion_requests?limit=1000')) as { deletion_requests: Array<{ subject_user_id: string }> };
  return range(count).map((i) => held.filter((request) => request.subject_user_id === `subject-${i}`).length);
}

/** The input record a failed-file line holds: the record as sent (events with the idempotency_key csafe added), a classify line as read. */
function failedRecord(line: string): string {
  const { idempotency_key: _added, ...record } = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify(record);
}

// Stopping on refused connections needs no process of its own: main() runs in this process. The
// interrupted runs below send real signals to bin/csafe and run its printed command in a shell.
describe('bulk commands stop when the service is unreachable', () => {
  for (const bulk of BULK) {
    it(`${bulk.command}: stops after --max-consecutive-failures refused connections, every record in the failed file, exit 1`, async () => {
      const dir = tempDir();
      const input = inputFile(dir, bulk.name, 40, bulk.line);
      const failed = join(dir, 'failed.jsonl');
      const base = `http://127.0.0.1:${await closedPort()}`;
      const { code, stdout, stderr } = await runInProcess(['-v', '--max-retries', '0', '--base-url', base, '--api-key', 'sk_test_x', ...bulk.args(input.path, failed), '--max-consecutive-failures', '3']);
      assert.equal(code, 1, stderr);
      assert.equal(attempts(stderr), 3, `three requests, then no more:\n${stderr}`);
      const unreachable = lines(stderr).filter((line) => /unreachable/.test(line));
      assert.equal(unreachable.length, 1, stderr);
      assert.match(unreachable[0]!, new RegExp(`127\\.0\\.0\\.1:\\d+.*cannot connect to 127\\.0\\.0\\.1:\\d+ \\(connection refused\\)`));
      assert.match(unreachable[0]!, new RegExp(failed.replaceAll('.', '\\.')));
      // The same stop reads the same on every bulk command.
      assert.match(unreachable[0]!, /^stopped: .*; what was not sent is in /);
      // No record is lost, and none is both accepted and failed: nothing was accepted.
      assert.deepEqual(readLines(failed).map((line) => failedRecord(line)), input.records.map((r) => JSON.stringify(JSON.parse(r))));
      assert.doesNotMatch(stdout, /"line":|"request_id"|"last_request_id":"/, "nothing was accepted");
      // No line per record: the stop is said once.
      assert.ok(lines(stderr).filter((line) => !line.includes('→') && !line.includes('←')).length < 10, stderr);
    });
  }

  it('the default is 5 failures in a row; 0 never stops', async () => {
    const dir = tempDir();
    const input = inputFile(dir, 'items.jsonl', 8, classifyLine);
    const base = `http://127.0.0.1:${await closedPort()}`;
    const run = (extra: string[]) =>
      runInProcess(['-v', '--max-retries', '0', '--base-url', base, '--api-key', 'sk_test_x', 'classify', '--batch', input.path, '--concurrency', '1', '--failed', join(dir, `f${extra.length}.jsonl`), ...extra]);
    const byDefault = await run([]);
    assert.equal(byDefault.code, 1, byDefault.stderr);
    assert.equal(attempts(byDefault.stderr), 5, byDefault.stderr);
    const never = await run(['--max-consecutive-failures', '0']);
    assert.equal(attempts(never.stderr), 8, never.stderr);
    assert.doesNotMatch(never.stderr, /unreachable/);
  });

  it('a negative or non-numeric --max-consecutive-failures is a usage error', async () => {
    const { code, stderr } = await runInProcess(['--base-url', 'http://127.0.0.1:9', '--api-key', 'k', 'classify', '--batch', '-', '--max-consecutive-failures', '-1'], { input: classifyLine(1) });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /--max-consecutive-failures/);
  });
});

/** The quoted text that tells record `i` of a BULK input apart in a request body (`"obj-1"` is not in `"obj-10"`). */
const MARKERS: Record<string, (i: number) => string> = {
  'classify --batch': (i) => `"message ${i}"`,
  'events send': (i) => `"user-${i}"`,
  'data add': (i) => `"obj-${i}"`,
  'stream parts': (i) => `"hello ${i}"`,
  'agent-decision send': (i) => `"ref-${i}"`,
  'deletion-request send': (i) => `"subject-${i}"`,
};

describe('a key refused part-way', () => {
  // Slow enough answers that the refusal comes while the run is part-way through its 30 records.
  const emulator = useEmulatorProcess(['--latency', '30']);

  for (const bulk of BULK) {
    it(`${bulk.command}: stops sending at once, every record not acknowledged in the failed file as sent, exit 3`, async () => {
      await emulator.control('/_emulator/reset', { method: 'POST' });
      const dir = tempDir();
      const input = inputFile(dir, bulk.name, 30, bulk.line);
      const failed = join(dir, 'failed.jsonl');
      const run = runInProcess(['--max-retries', '0', ...bulk.args(input.path, failed)], { env: emulator.env, cwd: dir });
      await waitFor(async () => (await emulator.requests()).length >= 5, { what: '5 requests to reach the emulator' });
      await emulator.control('/_emulator/quirks', { method: 'POST', body: { refused_requests: 1000 } });
      const { code, stderr } = await run;
      assert.equal(code, 3, stderr);
      const requests = await emulator.requests();
      const refused = requests.filter((request) => request.status === 401);
      assert.equal(refused.length, 1, `one refusal, then nothing more is sent:\n${stderr}`);
      const marker = MARKERS[bulk.command]!;
      const acknowledged = range(30).filter((i) => requests.some((request) => Number(request.status) < 300 && String(request.body).includes(marker(i))));
      const handedBack = readLines(failed).map((line) => failedRecord(line));
      const notAcknowledged = input.records.filter((_, index) => !acknowledged.includes(index + 1)).map((record) => JSON.stringify(JSON.parse(record)));
      assert.ok(acknowledged.length >= 4 && notAcknowledged.length > 0, `part-way: ${acknowledged.length} acknowledged`);
      assert.deepEqual(handedBack, notAcknowledged, 'the failed file holds exactly the records not acknowledged, in input order');
      assert.match(stderr, new RegExp(`^stopped: the service refused the credentials \\(401\\); what was not sent is in ${failed.replaceAll('.', '\\.')}$`, 'm'));
    });
  }
});

describe('429 and 503: not processed, so retried per the core policy (Retry-After honoured up to --max-wait)', () => {
  // A quarter of the requests answer 429 (Retry-After 1-2 s) or 503; the seed fixes which.
  const emulator = useEmulatorProcess(['--fault-rate', '0.25', '--faults', '429,503', '--seed', '11']);

  for (const bulk of BULK) {
    it(`${bulk.command}: every record accepted once, after retries, exit 0`, async () => {
      await emulator.control('/_emulator/reset', { method: 'POST' });
      const dir = tempDir();
      inputFile(dir, bulk.name, 8, bulk.line);
      const { code, stderr } = await runInProcess(['--max-retries', '8', ...bulk.args(bulk.name, 'failed.jsonl')], { env: emulator.env, cwd: dir });
      assert.equal(code, 0, stderr);
      const requests = (await emulator.requests()).filter((request) => request.method === 'POST');
      assert.ok(requests.some((request) => request.status === 429 || request.status === 503), 'some requests met a fault');
      const marker = MARKERS[bulk.command]!;
      const accepted = range(8).map((i) => requests.filter((request) => Number(request.status) < 300 && String(request.body).includes(marker(i))).length);
      assert.deepEqual(accepted, range(8).map(() => 1), 'how many times the service accepted each record');
      assert.equal(existsSync(join(dir, 'failed.jsonl')), false, 'nothing failed');
    });
  }

  for (const bulk of BULK) {
    it(`${bulk.command}: a Retry-After longer than --max-wait stops the run at the first such answer: everything in the failed file, exit 1`, async () => {
      await withEmulatorProcess(['--fault-rate', '1', '--faults', '429'], async (limited) => {
        const dir = tempDir();
        const input = inputFile(dir, bulk.name, 5, bulk.line);
        const { code, stderr } = await runInProcess(['--max-wait', '0s', ...bulk.args(bulk.name, 'failed.jsonl')], { env: limited.env, cwd: dir });
        assert.equal(code, 1, stderr);
        assert.match(stderr, /^stopped: service answered 429 and asked to wait [12] s.*; what was not sent is in failed\.jsonl$/m);
        assert.equal((await limited.requests()).filter((request) => request.method === 'POST').length, 1, 'one request, then none');
        assert.deepEqual(readLines(join(dir, 'failed.jsonl')).map((line) => failedRecord(line)), input.records.map((r) => JSON.stringify(JSON.parse(r))));
      });
    });
  }
});

describe('an answer lost after the service stored the request (the connection cut mid-answer)', () => {
  // 30 % of answers are cut after the request was processed.
  const emulator = useEmulatorProcess(['--fault-rate', '0.3', '--faults', 'reset', '--seed', '11']);
  const COUNT = 12;
  const numbers = (texts: readonly string[], pattern: RegExp) => texts.map((text) => Number(pattern.exec(text)?.[1])).sort((a, b) => a - b);

  /** What each command does with such an answer: retry where sending twice stores once, else the unconfirmed file. */
  const rows: Array<{ command: string; code: number; check(dir: string, stdout: string): Promise<void> }> = [
    {
      command: 'classify --batch',
      code: 0,
      check: async (_dir, stdout) => assert.deepEqual(lines(stdout).map((line) => (JSON.parse(line) as { line: number }).line), range(COUNT), 'retried: every line classified once'),
    },
    {
      command: 'events send',
      code: 0,
      check: async () => {
        const { events } = await ingestedEvents(emulator);
        assert.deepEqual(numbers(events.map(({ event }) => event.user_id), /user-(\d+)/), range(COUNT), 'retried with its idempotency keys: each event stored once');
      },
    },
    {
      command: 'data add',
      code: 0,
      check: async () => {
        const { objects } = (await emulator.control('/_emulator/data/listings')) as { objects: Array<{ id: string }> };
        assert.deepEqual(numbers(objects.map((object) => object.id), /obj-(\d+)/), range(COUNT), 'retried: upserted by id, each object once');
      },
    },
    {
      command: 'stream parts',
      code: 5,
      check: async (dir) => {
        const stream = (await emulator.control('/_emulator/streams/live/show-1')) as { parts: Array<{ text: string }> };
        const stored = numbers(stream.parts.map((part) => part.text), /hello (\d+)/);
        assert.deepEqual(stored, range(COUNT), 'never sent twice: each part stored once');
        const unconfirmed = readdirSync(dir).filter((name) => name.includes('unconfirmed'));
        assert.equal(unconfirmed.length, 1, 'the parts whose answer was lost are in the unconfirmed file');
        assert.ok(readLines(join(dir, unconfirmed[0]!)).length > 0);
      },
    },
    {
      command: 'agent-decision send',
      code: 5,
      check: async (dir) => {
        assert.deepEqual(await heldVerdicts(emulator, COUNT), range(COUNT).map(() => 1), 'never sent twice: each verdict held once');
        const unconfirmed = readdirSync(dir).filter((name) => name.includes('unconfirmed'));
        assert.equal(unconfirmed.length, 1, 'the verdicts whose answer was lost are in the unconfirmed file');
        assert.ok(readLines(join(dir, unconfirmed[0]!)).length > 0);
      },
    },
    {
      command: 'deletion-request send',
      code: 0,
      check: async () => assert.deepEqual(await heldErasures(emulator, COUNT), range(COUNT).map(() => 1), 'retried with its derived external_request_id: each request held once'),
    },
  ];
  for (const row of rows) {
    it(`${row.command}: ${row.code === 0 ? 'retried, as sending it twice stores it once' : 'not sent again: in the unconfirmed file'}`, async () => {
      await emulator.control('/_emulator/reset', { method: 'POST' });
      const bulk = BULK.find((candidate) => candidate.command === row.command)!;
      const dir = tempDir();
      const input = inputFile(dir, bulk.name, COUNT, bulk.line);
      const result = await runInProcess(bulk.args(input.path, join(dir, 'failed.jsonl')), { env: emulator.env, cwd: dir });
      assert.equal(result.code, row.code, result.stderr);
      assert.deepEqual(readLines(join(dir, 'failed.jsonl')), [], 'nothing failed: every request reached the service');
      await row.check(dir, result.stdout);
    });
  }
});

/**
 * A proxy in front of the emulator that passes every request on, so the emulator processes it,
 * and answers the POST numbered `lost` (from 1) with `status` instead of the emulator's answer:
 * an answer that may come after processing (a 408 or 409 from a gateway, say).
 */
async function lyingProxy(target: string, lost: number, status: number): Promise<{ baseUrl: string; close(): void }> {
  let posts = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const upstream = await fetch(target + req.url, { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
      const text = await upstream.text();
      if (req.method === 'POST' && ++posts === lost) {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'lost', message: `the gateway answered ${status} after the service processed the request` } }));
        return;
      }
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });
  const baseUrl = await listenOnLoopback(server);
  return { baseUrl, close: () => closeServer(server) };
}

describe('a 408 or 409 answered after the service processed the request', () => {
  const emulator = useEmulatorProcess();
  const COUNT = 6;
  /** How many times the service holds each record of the input, 1 … COUNT. */
  const held: Record<string, (stdout: string) => Promise<number[]>> = {
    'classify --batch': async (stdout) => range(COUNT).map((i) => lines(stdout).filter((line) => (JSON.parse(line) as { line: number }).line === i).length),
    'events send': async () => {
      const { events } = await ingestedEvents(emulator);
      return range(COUNT).map((i) => events.filter(({ event }) => event.user_id === `user-${i}`).length);
    },
    'data add': async () => {
      const { objects } = (await emulator.control('/_emulator/data/listings')) as { objects: Array<{ id: string }> };
      return range(COUNT).map((i) => objects.filter((object) => object.id === `obj-${i}`).length);
    },
    'stream parts': async () => {
      const { parts } = (await emulator.control('/_emulator/streams/live/show-1')) as { parts: Array<{ text: string }> };
      return range(COUNT).map((i) => parts.filter((part) => part.text === `hello ${i}`).length);
    },
    'agent-decision send': () => heldVerdicts(emulator, COUNT),
    'deletion-request send': () => heldErasures(emulator, COUNT),
  };
  const rows = [
    ...['classify --batch', 'events send', 'data add', 'deletion-request send'].map((command) => ({ command, extra: [] as string[], retried: true })),
    ...['stream parts', 'agent-decision send'].map((command) => ({ command, extra: [] as string[], retried: false })),
    { command: 'events send', extra: ['--no-auto-idempotency'], retried: false },
  ];
  for (const status of [408, 409]) {
    for (const row of rows) {
      const what = row.retried ? 'retried (sending it again stores it once)' : 'not sent again: in the unconfirmed file';
      it(`${status}: ${row.command}${row.extra.map((flag) => ` ${flag}`).join('')}: ${what}`, async () => {
        await emulator.control('/_emulator/reset', { method: 'POST' });
        const proxy = await lyingProxy(emulator.baseUrl, 2, status);
        try {
          const bulk = BULK.find((candidate) => candidate.command === row.command)!;
          const dir = tempDir();
          const input = inputFile(dir, bulk.name, COUNT, bulk.line);
          const unconfirmed = join(dir, 'unconfirmed.jsonl');
          const args = ['--base-url', proxy.baseUrl, '--max-retries', '1', ...bulk.args(input.path, join(dir, 'failed.jsonl')), ...row.extra];
          const result = await runInProcess(row.retried ? args : [...args, '--unconfirmed', unconfirmed], { env: emulator.env, cwd: dir });
          assert.equal(result.code, row.retried ? 0 : 5, result.stderr);
          assert.deepEqual(readLines(join(dir, 'failed.jsonl')), [], 'nothing in the failed file: it is safe to resend, and these were processed');
          assert.deepEqual(await held[row.command]!(result.stdout), range(COUNT).map(() => 1), 'each record held once');
          assert.equal(readLines(unconfirmed).length, row.retried ? 0 : 1);
        } finally {
          proxy.close();
        }
      });
    }
  }
});

describe('--max-rate', () => {
  const emulator = useEmulatorProcess();

  for (const bulk of BULK) {
    it(`${bulk.command}: starts its requests no faster than the rate given`, async () => {
      await emulator.control('/_emulator/reset', { method: 'POST' });
      const dir = tempDir();
      const input = inputFile(dir, bulk.name, 8, bulk.line);
      const { code, stderr } = await runInProcess([...bulk.args(input.path, join(dir, 'failed.jsonl')), '--max-rate', '20/s'], { env: emulator.env, cwd: dir });
      assert.equal(code, 0, stderr);
      const arrivals = (await emulator.requests()).filter((request) => request.method === 'POST').map((request) => Date.parse(String(request.time)));
      assert.equal(arrivals.length, 8);
      // 8 requests at 20 a second: the last starts at least 7 × 50 ms after the first (less the first one's connection set-up).
      assert.ok(arrivals.at(-1)! - arrivals[0]! >= 300, `8 requests arrived within ${arrivals.at(-1)! - arrivals[0]!} ms`);
    });
  }
});

describe('--max-rate with more than ten requests waiting their turn', () => {
  const emulator = useEmulatorProcess();

  it('no warning of Node on stderr (each listens for Ctrl-C)', async () => {
    await emulator.control('/_emulator/reset', { method: 'POST' });
    const dir = tempDir();
    const input = inputFile(dir, 'items.jsonl', 40, objectLine);
    const { code, stderr } = await runCsafe(['data', 'add', 'listings', input.path, '--batch-size', '1', '--concurrency', '16', '--max-rate', '200/s'], { env: emulator.env, cwd: dir });
    assert.equal(code, 0, stderr);
    assert.deepEqual(lines(stderr), ['added 40 objects to listings in 40 requests']);
  });
});

describe('--max-rate, interrupted while a request waits its turn', () => {
  const emulator = useEmulatorProcess();

  for (const bulk of BULK) {
    it(`${bulk.command}: that request was never sent: not awaited as in flight, not failed, and the command that continues starts with it`, async (t) => {
      await emulator.control('/_emulator/reset', { method: 'POST' });
      const dir = tempDir();
      const input = inputFile(dir, bulk.name, 10, bulk.line);
      // One a second: two requests answered, the third waiting its turn when SIGINT comes.
      const { code, stderr } = await interruptAfter(t, emulator, [...bulk.args(input.path, 'failed.jsonl'), '--max-rate', '1/s'], dir, 2);
      assert.equal(code, 130, stderr);
      assert.equal((await emulator.requests()).length, 2, 'nothing sent after the signal');
      assert.doesNotMatch(stderr, /waiting for the answers? to/, 'no answer to wait for');
      assert.doesNotMatch(stderr, /:3: interrupted$/m, 'no failure of a record never sent');
      // stream parts sets aside every part it did not send, in order; the others send it next run.
      assert.deepEqual(readLines(join(dir, 'failed.jsonl')).map((line) => failedRecord(line)), bulk.command === 'stream parts' ? input.records.slice(2) : []);
      if (['classify --batch', 'agent-decision send', 'deletion-request send'].includes(bulk.command)) assert.match(printedResume(stderr), / --from-line 3 /);
    });
  }
});

/** Runs a command line exactly as csafe printed it, through a shell, with `csafe` meaning the built launcher. */
function runPrinted(line: string, env: Record<string, string>, cwd: string) {
  const script = `csafe() { "${process.execPath}" "${BIN}" "$@"; }\n${line}`;
  const child = spawn('/bin/sh', ['-c', script], { cwd, env: { PATH: process.env.PATH, CSAFE_CONFIG_DIR: join(cwd, 'config'), ...env }, stdio: 'pipe' });
  return outcome(child);
}

/** The command csafe printed to continue: the line after `continue with:`. */
function printedResume(stderr: string): string {
  const match = /continue with: (csafe .*)$/m.exec(stderr);
  assert.ok(match, `a command to continue with:\n${stderr}`);
  return match[1]!;
}

/** Starts a bulk command and sends it `signal` once the emulator has seen `after` requests. */
async function interruptAfter(t: TestContext, emulator: EmulatorProcess, args: string[], cwd: string, after: number, signal: NodeJS.Signals = 'SIGINT', env: Record<string, string> = {}) {
  const before = (await emulator.requests()).length;
  const child = spawnCsafe(args, { env: { ...emulator.env, ...env }, cwd });
  t.after(() => child.exitCode === null && child.kill('SIGKILL'));
  const result = ended(child);
  child.stdin.end();
  await waitFor(async () => (await emulator.requests()).length - before >= after, { what: `${after} requests to reach the emulator`, timeoutMs: 20_000 });
  child.kill(signal);
  return result;
}

describe('kill -9 with --checkpoint: the checkpoint is never more than the requests in flight behind the service', () => {
  const emulator = useEmulatorProcess(['--latency', '10']);
  // data add and events send have theirs in records.test.ts and events.test.ts (several in flight, batches of 50 and 100).
  for (const bulk of BULK.filter((b) => b.command === 'classify --batch' || b.command === 'stream parts')) {
    it(`${bulk.command}: one request in flight, so at most one record behind`, async (t) => {
      await emulator.control('/_emulator/reset', { method: 'POST' });
      const dir = tempDir();
      inputFile(dir, bulk.name, 2_000, bulk.line);
      const child = spawnCsafe([...bulk.args(bulk.name, 'failed.jsonl'), '--checkpoint', 'state.json'], { env: emulator.env, cwd: dir });
      t.after(() => child.exitCode === null && child.kill('SIGKILL'));
      const exited = ended(child);
      const accepted = async () => (await emulator.requests()).filter((request) => request.method === 'POST' && Number(request.status) < 300).length;
      await waitFor(async () => (await accepted()) >= 40, { what: '40 requests accepted', timeoutMs: 20_000 });
      child.kill('SIGKILL');
      await exited;
      // The request the killed run left behind is served before the service's count is read.
      await waitFor(async () => ((await emulator.control('/_emulator/in_flight')) as { in_flight: number }).in_flight === 0, { what: 'the emulator to finish serving the killed run' });
      const received = await accepted();
      assert.ok(received < 2_000, 'killed part-way');
      const ranges = (JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { acknowledged: Array<[number, number]> }).acknowledged;
      const checkpointed = ranges.reduce((sum, [first, last]) => sum + last - first + 1, 0);
      assert.ok(received - checkpointed <= 1 && received >= checkpointed, `the checkpoint holds ${checkpointed} records, the service accepted ${received}: more than the one request in flight apart`);
    });
  }
});

describe('an interrupted bulk command says how to continue', () => {
  const emulator = useEmulatorProcess(['--latency', '150']);

  for (const bulk of BULK) {
    it(`${bulk.command} --checkpoint: SIGTERM, then the same command line, which it prints, delivers every record once`, async (t) => {
      await emulator.control('/_emulator/reset', { method: 'POST' });
      const dir = tempDir();
      inputFile(dir, bulk.name, 12, bulk.line);
      const args = [...bulk.args(bulk.name, 'failed.jsonl'), '--checkpoint', 'state.json'];
      const first = await interruptAfter(t, emulator, args, dir, 3, 'SIGTERM');
      assert.equal(first.code, 143, first.stderr);
      assert.equal(printedResume(first.stderr), `csafe ${args.join(' ')}`, 'one resume model: the same command line');
      const second = await runPrinted(printedResume(first.stderr), emulator.env, dir);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout + second.stderr, /[1-9]\d* \w+ skipped by checkpoint|skipped by checkpoint [1-9]|"skipped_checkpoint": ?[1-9]/, 'the second run skipped what the first delivered');
      const accepted = (await emulator.requests()).filter((request) => request.method === 'POST' && Number(request.status) < 300);
      const marker = MARKERS[bulk.command]!;
      const times = range(12).map((i) => accepted.filter((request) => String(request.body).includes(marker(i))).length);
      assert.deepEqual(times, range(12).map(() => 1), 'how many times the service accepted each record');
    });
  }

  it('classify --batch: Ctrl-C prints the command that starts at the first line not done; together the runs classify every line once', async (t) => {
    const dir = tempDir();
    const input = inputFile(dir, 'items.jsonl', 30, classifyLine);
    const first = await interruptAfter(t, emulator, ['classify', '--batch', 'items.jsonl', '--concurrency', '2'], dir, 4);
    assert.equal(first.code, 130, first.stderr);
    assert.match(first.stderr, /^interrupted: \d+ lines? sent in \d+ requests?, 0 failed; line \d+ on not done$/m, 'in the words every bulk command uses');
    const resume = printedResume(first.stderr);
    assert.match(resume, /--from-line \d+/);
    const second = await runPrinted(resume, emulator.env, dir);
    assert.equal(second.code, 0, second.stderr);
    const done = [...lines(first.stdout), ...lines(second.stdout)].map((line) => (JSON.parse(line) as { line: number }).line);
    assert.deepEqual(done, range(input.records.length));
  });

  it('classify --batch: Ctrl-C lets the lines in flight finish, so the printed command classifies none of them again', async (t) => {
    const dir = tempDir();
    const marked = (i: number) => JSON.stringify({ text: `in-flight ${i}`, user_id: 'u1' });
    const input = inputFile(dir, 'items.jsonl', 30, marked);
    const first = await interruptAfter(t, emulator, ['classify', '--batch', 'items.jsonl', '--concurrency', '4'], dir, 6);
    assert.equal(first.code, 130, first.stderr);
    assert.match(first.stderr, /^interrupted: waiting for the answers to [1-4] requests? in flight \(Ctrl-C again to leave without them\)$/m, 'said at once, as every bulk command says it');
    const second = await runPrinted(printedResume(first.stderr), emulator.env, dir);
    assert.equal(second.code, 0, second.stderr);
    const done = [...lines(first.stdout), ...lines(second.stdout)].map((line) => (JSON.parse(line) as { line: number }).line);
    assert.deepEqual(done, range(input.records.length));
    const sent = (await emulator.requests()).map((request) => /in-flight (\d+)/.exec(String(request.body))?.[1]).filter((n) => n !== undefined);
    assert.deepEqual(sent.map(Number).sort((a, b) => a - b), range(input.records.length), 'every line reached the service once');
  });

  it('classify --batch: SIGTERM exits 143 and says how to continue too', async (t) => {
    const dir = tempDir();
    inputFile(dir, 'items.jsonl', 30, classifyLine);
    const { code, stderr } = await interruptAfter(t, emulator, ['classify', '--batch', 'items.jsonl', '--concurrency', '1'], dir, 2, 'SIGTERM');
    assert.equal(code, 143, stderr);
    assert.match(printedResume(stderr), /^csafe classify --batch items\.jsonl --concurrency 1 --from-line \d+ --failed /);
  });

  it('events send --checkpoint: Ctrl-C prints the same command line; run, it sends the rest and only the rest', async (t) => {
    const dir = tempDir();
    const input = inputFile(dir, 'events with space.jsonl', 30, eventLine);
    const args = ['events', 'send', 'events with space.jsonl', '--checkpoint', 'state.json', '--batch-size', '1', '--concurrency', '1'];
    const first = await interruptAfter(t, emulator, args, dir, 4);
    assert.equal(first.code, 130, first.stderr);
    const resume = printedResume(first.stderr);
    assert.equal(resume, `csafe events send 'events with space.jsonl' --checkpoint state.json --batch-size 1 --concurrency 1`);
    const sentFirst = Number(/interrupted: (\d+) events? sent/.exec(first.stderr)?.[1]);
    assert.ok(sentFirst > 0, first.stderr);
    // In a pipe the run's record is on stdout, cut short or not.
    assert.deepEqual(pick(JSON.parse(first.stdout), ['input', 'sent', 'failed']), { input: 'events with space.jsonl', sent: sentFirst, failed: 0 });
    const second = await runPrinted(resume, emulator.env, dir);
    assert.equal(second.code, 0, second.stderr);
    const [, sent, skipped] = /sent (\d+), failed 0, skipped by checkpoint (\d+)/.exec(second.stderr) ?? [];
    assert.equal(Number(skipped), sentFirst, second.stderr);
    assert.equal(Number(sent) + sentFirst, input.records.length, second.stderr);
  });

  it('events send --no-auto-idempotency --checkpoint: SIGTERM lets the batches in flight be answered; the same line again delivers every event once', async (t) => {
    const dir = tempDir();
    await emulator.control('/_emulator/reset', { method: 'POST' });
    writeFileSync(join(dir, 'events.jsonl'), eventsText(40, 40));
    const args = ['events', 'send', 'events.jsonl', '--no-auto-idempotency', '--checkpoint', 'state.json', '--batch-size', '1', '--concurrency', '4'];
    const first = await interruptAfter(t, emulator, args, dir, 6, 'SIGTERM');
    assert.equal(first.code, 143, first.stderr);
    assert.equal(printedResume(first.stderr), `csafe ${args.join(' ')}`);
    const second = await runPrinted(printedResume(first.stderr), emulator.env, dir);
    assert.equal(second.code, 0, second.stderr);
    // Without idempotency keys the service stores a resent event twice: only an exact resume gives 40.
    assertExactlyOnceInOrder((await ingestedEvents(emulator)).events, 40);
  });

  it('events send --no-auto-idempotency without --checkpoint: SIGTERM puts the events not sent in the failed file; the command printed sends them, none twice', async (t) => {
    const dir = tempDir();
    await emulator.control('/_emulator/reset', { method: 'POST' });
    writeFileSync(join(dir, 'events.jsonl'), eventsText(40, 8));
    const first = await interruptAfter(t, emulator, ['events', 'send', 'events.jsonl', '--no-auto-idempotency', '--batch-size', '1', '--concurrency', '4'], dir, 6, 'SIGTERM');
    assert.equal(first.code, 143, first.stderr);
    assert.match(first.stderr, /^interrupted: \d+ events sent in \d+ requests, \d+ failed \(in csafe-events-failed-[\dTZ]+\.jsonl\); the events not sent are in the failed file too$/m);
    const resume = printedResume(first.stderr);
    assert.match(resume, /^csafe events send csafe-events-failed-[\dTZ]+\.jsonl --no-auto-idempotency --batch-size 1 --concurrency 4$/);
    const second = await runPrinted(resume, emulator.env, dir);
    assert.equal(second.code, 0, second.stderr);
    // Without idempotency keys the service stores a resent event twice: the same command line again would give more than 40.
    assertExactlyOnceInOrder((await ingestedEvents(emulator)).events, 40);
  });

  it('events send without --checkpoint: says how to get one next time', async (t) => {
    const dir = tempDir();
    inputFile(dir, 'events.jsonl', 30, eventLine);
    const first = await interruptAfter(t, emulator, ['events', 'send', 'events.jsonl', '--batch-size', '1', '--concurrency', '1'], dir, 2);
    assert.equal(first.code, 130, first.stderr);
    assert.match(printedResume(first.stderr), /^csafe events send events\.jsonl --batch-size 1 --concurrency 1$/);
    assert.match(first.stderr, /--checkpoint FILE/);
  });

  it('data add --checkpoint: Ctrl-C prints the same command line; the two runs carry every line once', async (t) => {
    const dir = tempDir();
    const input = inputFile(dir, 'items.jsonl', 30, objectLine);
    const args = ['data', 'add', 'listings', 'items.jsonl', '--checkpoint', 'state.json', '--batch-size', '1', '--concurrency', '1'];
    const first = await interruptAfter(t, emulator, args, dir, 4);
    assert.equal(first.code, 130, first.stderr);
    const resume = printedResume(first.stderr);
    assert.equal(resume, `csafe ${args.join(' ')}`);
    const second = await runPrinted(resume, emulator.env, dir);
    assert.equal(second.code, 0, second.stderr);
    const carried = [...lines(first.stdout), ...lines(second.stdout)].map((line) => (JSON.parse(line) as { first_line: number }).first_line).sort((a, b) => a - b);
    assert.deepEqual(carried, range(input.records.length));
  });

  it('stream parts --skip-invalid: Ctrl-C puts every part not sent in the failed file, also those it had not read yet', async (t) => {
    const dir = tempDir();
    // Checked as they are sent: the run has read a few hundred of them when the signal comes.
    const input = inputFile(dir, 'parts.jsonl', 3000, partLine);
    const first = await interruptAfter(t, emulator, ['stream', 'parts', 'live', '--id', 'show-6', 'parts.jsonl', '--skip-invalid', 'invalid.jsonl', '--batch-size', '1', '--failed', 'rest.jsonl'], dir, 4);
    assert.equal(first.code, 130, first.stderr);
    const sentFirst = Number(/interrupted: (\d+) parts sent/.exec(first.stderr)?.[1]);
    assert.ok(sentFirst > 0, first.stderr);
    assert.deepEqual(pick(JSON.parse(first.stdout), ['read', 'sent', 'failed']), { read: 3000, sent: sentFirst, failed: 3000 - sentFirst });
    // What the command printed sends is every part the run did not.
    assert.deepEqual(readLines(join(dir, 'rest.jsonl')), input.records.slice(sentFirst));
    assert.equal(printedResume(first.stderr), 'csafe stream parts live --id show-6 rest.jsonl --skip-invalid invalid.jsonl --batch-size 1');
  });

  it('stream parts: Ctrl-C puts the parts not sent in the failed file and prints the command that sends it', async (t) => {
    const dir = tempDir();
    const input = inputFile(dir, 'parts.jsonl', 30, partLine);
    const first = await interruptAfter(t, emulator, ['stream', 'parts', 'live', '--id', 'show-1', 'parts.jsonl', '--batch-size', '1', '--failed', 'rest.jsonl'], dir, 4);
    assert.equal(first.code, 130, first.stderr);
    const sentFirst = Number(/interrupted: (\d+) parts sent/.exec(first.stderr)?.[1]);
    assert.ok(sentFirst > 0, first.stderr);
    // In a pipe the run's record is on stdout, cut short or not.
    assert.deepEqual(pick(JSON.parse(first.stdout), ['sent', 'failed', 'failed_file']), { sent: sentFirst, failed: 30 - sentFirst, failed_file: 'rest.jsonl' });
    const rest = readLines(join(dir, 'rest.jsonl'));
    assert.deepEqual(rest, input.records.slice(sentFirst));
    const resume = printedResume(first.stderr);
    assert.equal(resume, 'csafe stream parts live --id show-1 rest.jsonl --batch-size 1');
    const second = await runPrinted(resume, emulator.env, dir);
    assert.equal(second.code, 0, second.stderr);
    assert.equal((JSON.parse(second.stdout) as { sent: number }).sent, rest.length);
  });

  it('stream parts: with a failed file that already held parts, the printed command sends this run\'s only; together the runs store every part once', async (t) => {
    const dir = tempDir();
    const input = inputFile(dir, 'parts.jsonl', 30, partLine);
    // An earlier run's failures, resent since: the file is a log, appended run after run.
    const earlier = `${range(3).map((i) => partLine(100 + i)).join('\n')}\n`;
    writeFileSync(join(dir, 'rest.jsonl'), earlier);
    const first = await interruptAfter(t, emulator, ['stream', 'parts', 'live', '--id', 'show-3', 'parts.jsonl', '--batch-size', '1', '--failed', 'rest.jsonl'], dir, 4);
    assert.equal(first.code, 130, first.stderr);
    const sentFirst = Number(/interrupted: (\d+) parts sent/.exec(first.stderr)?.[1]);
    const appended = Buffer.byteLength(`${input.records.slice(sentFirst).join('\n')}\n`);
    assert.equal(readFileSync(join(dir, 'rest.jsonl'), 'utf8'), `${earlier}${input.records.slice(sentFirst).join('\n')}\n`);
    const resume = /continue with: (.*)$/m.exec(first.stderr)?.[1];
    assert.equal(resume, `tail -c +${Buffer.byteLength(earlier) + 1} rest.jsonl | head -c ${appended} | csafe stream parts live --id show-3 - --batch-size 1`);
    const second = await runPrinted(resume!, emulator.env, dir);
    assert.equal(second.code, 0, second.stderr);
    const stream = (await emulator.control('/_emulator/streams/live/show-3')) as { parts: { text: string }[] };
    assert.deepEqual(stream.parts.map((part) => part.text), input.records.map((record) => (JSON.parse(record) as { text: string }).text));
  });

  it('stream parts on a terminal: cut short, the record goes to stdout only as the JSON asked for, not as a table repeating stderr', async (t) => {
    const dir = tempDir();
    inputFile(dir, 'parts.jsonl', 30, partLine);
    const args = ['stream', 'parts', 'live', '--id', 'show-4', 'parts.jsonl', '--batch-size', '1', '--failed', 'rest.jsonl'];
    const asked = await interruptAfter(t, emulator, [...args, '--json'], dir, 4, 'SIGINT', { CSAFE_FORCE_TTY: '1' });
    assert.equal(asked.code, 130, asked.stderr);
    assert.equal((JSON.parse(asked.stdout) as { id: string }).id, 'show-4');
    const table = await interruptAfter(t, emulator, args.map((arg) => (arg === 'show-4' ? 'show-5' : arg === 'rest.jsonl' ? 'rest-2.jsonl' : arg)), dir, 4, 'SIGINT', { CSAFE_FORCE_TTY: '1' });
    assert.equal(table.code, 130, table.stderr);
    assert.equal(table.stdout, '');
  });

  it('stream parts: the printed command keeps the flags the run was given (--base-url, --batch-size) and sends the rest there', async (t) => {
    const dir = tempDir();
    const input = inputFile(dir, 'parts.jsonl', 30, partLine);
    const baseUrl = emulator.env.CSAFE_BASE_URL!;
    const first = await interruptAfter(t, emulator, ['--base-url', baseUrl, 'stream', 'parts', 'live', '--id', 'show-2', 'parts.jsonl', '--batch-size', '1', '--failed', 'rest.jsonl'], dir, 4);
    assert.equal(first.code, 130, first.stderr);
    const rest = readLines(join(dir, 'rest.jsonl'));
    assert.ok(rest.length > 0 && rest.length < input.records.length, first.stderr);
    const resume = printedResume(first.stderr);
    assert.equal(resume, `csafe --base-url ${baseUrl} stream parts live --id show-2 rest.jsonl --batch-size 1`);
    // Without the flag the default service would get the rest: here a closed port.
    const before = (await emulator.requests()).length;
    const second = await runPrinted(resume, { CSAFE_API_KEY: emulator.env.CSAFE_API_KEY!, CSAFE_BASE_URL: `http://127.0.0.1:${await closedPort()}` }, dir);
    assert.equal(second.code, 0, second.stderr);
    assert.equal((JSON.parse(second.stdout) as { sent: number; requests: number }).requests, rest.length, 'one part a request, as --batch-size 1 asked');
    assert.equal((await emulator.requests()).length - before, rest.length);
  });
});
