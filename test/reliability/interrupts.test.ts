import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, exitOf, hasScript, runCsafe, tempDir, useEmulatorProcess, withDeadline, type EmulatorProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

// Ctrl-C (SIGINT) and SIGTERM during every command that runs for long, on a real terminal (script
// gives csafe one, so its spinner draws as for a user): the exit code says which signal; the
// terminal is left as it was (the cursor shown again, the spinner's line cleared); csafe's
// temporary files are gone; and what is still pending is named with the command that goes on.

interface LongRun {
  command: string;
  /** Made before the run (a request or a decision to wait on): the words of the command line. */
  args(emulator: EmulatorProcess, dir: string): Promise<string[]>;
  /** What the interrupted run must say: the pending ids and the command that carries on. */
  says: RegExp;
  /** Whether the run is far enough along to be interrupted: its terminal shows this. */
  ready: RegExp;
  /** A server runs until it is stopped, so a stop is its normal end: exit 0 (else 130 or 143 by the signal). */
  server?: true;
  /** What must hold after it, beyond what holds for every command. */
  after?(emulator: EmulatorProcess, shown: string): Promise<void>;
}

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
/** A wait's spinner: the command has made what it waits for. */
const WAITING = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\S* Waiting/;
const objects = (count: number) => Array.from({ length: count }, (_, i) => JSON.stringify({ id: `obj-${i}`, title: `listing ${i}` })).join('\n') + '\n';
const events = (count: number) => Array.from({ length: count }, (_, i) => JSON.stringify({ type: 'create_account', event_name: 'signup', timestamp: '2026-11-27T10:00:00Z', user_id: `u${i}` })).join('\n') + '\n';

async function made(emulator: EmulatorProcess, args: string[], field: string): Promise<string> {
  const result = await runCsafe([...args, '--json'], { env: emulator.env });
  assert.equal(result.code, 0, result.stderr);
  const answer = JSON.parse(result.stdout) as Record<string, string> | Array<Record<string, string>>;
  return (Array.isArray(answer) ? answer[0]! : answer)[field]!;
}

const lines = (count: number, record: (i: number) => unknown) => Array.from({ length: count }, (_, i) => JSON.stringify(record(i))).join('\n') + '\n';

/** A bulk command with --checkpoint, interrupted as it sends: it says what it sent, and that the same command line carries on. */
const bulk = (command: string, args: (dir: string) => string[]): LongRun => ({
  command: `${command} --checkpoint`,
  args: async (_emulator, dir) => [...args(dir), '--checkpoint', 'state.json'],
  ready: /./,
  says: /interrupted: \d+ \w+ sent[\s\S]*continue with: csafe .* --checkpoint state\.json/,
});

const file = (dir: string, name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return name;
};

const LONG_RUNS: readonly LongRun[] = [
  {
    command: 'data add --wait',
    args: async (_emulator, dir) => ['data', 'add', 'listings', file(dir, 'objects.jsonl', objects(3)), '--wait'],
    ready: WAITING,
    says: /1 request still pending; check on it with:\s+csafe data status listings req_\w+ --wait/,
  },
  {
    command: 'data status --wait',
    args: async (emulator, dir) => ['data', 'status', 'listings', await made(emulator, ['data', 'add', 'listings', join(dir, file(dir, 'objects.jsonl', objects(3)))], 'request_id'), '--wait'],
    ready: WAITING,
    says: /check on it with:\s+csafe data status listings req_\w+ --wait/,
  },
  {
    command: 'data import --wait',
    args: async (_emulator, dir) => ['data', 'import', 'listings', file(dir, 'objects.jsonl', objects(3)), '--wait'],
    ready: WAITING,
    says: /check on it with:\s+csafe data status listings req_\w+ --wait/,
  },
  {
    command: 'decision create --wait',
    args: async () => ['decision', 'create', '--type', 'text', '--content', '{"text":"see you"}', '--wait'],
    ready: WAITING,
    says: /dec_\w+[^\n]*\n?[^\n]*csafe decision get dec_\w+ --wait/,
  },
  {
    command: 'import create --wait',
    args: async (_emulator, dir) => ['import', 'create', file(dir, 'records.jsonl', '{"type":"text","data":{"id":"m1","text":"hi"}}\n'), '--wait'],
    ready: WAITING,
    says: /csafe import get imp_\w+ --wait/,
  },
  {
    command: 'batch create --wait',
    args: async (_emulator, dir) => ['batch', 'create', '--type', 'text', file(dir, 'reviews.csv', 'Content\ngreat bike\n'), '--wait'],
    ready: WAITING,
    says: /csafe batch get bat_\w+ --wait/,
  },
  {
    command: 'decision get --wait',
    args: async (emulator) => ['decision', 'get', await made(emulator, ['decision', 'create', '--type', 'text', '--content', '{"text":"hi"}'], 'decision_id'), '--wait'],
    ready: WAITING,
    says: /csafe decision get dec_\w+ --wait/,
  },
  {
    command: 'import get --wait',
    args: async (emulator, dir) => ['import', 'get', await made(emulator, ['import', 'create', join(dir, file(dir, 'records.jsonl', '{"type":"text","data":{"id":"m1","text":"hi"}}\n'))], 'import_id'), '--wait'],
    ready: WAITING,
    says: /csafe import get imp_\w+ --wait/,
  },
  {
    command: 'batch get --wait',
    args: async (emulator, dir) => ['batch', 'get', await made(emulator, ['batch', 'create', '--type', 'text', join(dir, file(dir, 'reviews.csv', 'Content\ngreat bike\n'))], 'batch_id'), '--wait'],
    ready: WAITING,
    says: /csafe batch get bat_\w+ --wait/,
  },
  bulk('classify --batch', (dir) => ['classify', '--batch', file(dir, 'items.jsonl', lines(400, (i) => ({ text: `message ${i}`, user_id: 'u1' }))), '--concurrency', '1']),
  bulk('data add', (dir) => ['data', 'add', 'listings', file(dir, 'objects.jsonl', objects(400)), '--batch-size', '1', '--concurrency', '1']),
  bulk('stream parts', (dir) => ['stream', 'parts', 'live', '--id', 'show-1', file(dir, 'parts.jsonl', lines(400, (i) => ({ type: 'transcript', text: `part ${i}`, speaker: 'host', timestamp: '2026-11-21T10:00:00Z' }))), '--batch-size', '1']),
  bulk('agent-decision send', (dir) => ['agent-decision', 'send', file(dir, 'verdicts.jsonl', lines(400, (i) => ({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: `r${i}` }))), '--concurrency', '1']),
  bulk('deletion-request send', (dir) => ['deletion-request', 'send', file(dir, 'erasures.jsonl', lines(400, (i) => ({ subject_user_id: `s${i}`, requested_at: '2026-11-27T10:00:00Z' }))), '--concurrency', '1']),
  bulk('events send', (dir) => ['events', 'send', file(dir, 'events.jsonl', events(400)), '--batch-size', '1', '--concurrency', '1']),
  {
    command: 'webhooks listen',
    server: true,
    args: async () => ['webhooks', 'listen'],
    ready: /Ready: printing the notifications/,
    says: /^/,
    // Its own endpoint, named when it was ready: the other signal's listener may be running beside it.
    after: async (emulator, shown) => {
      const own = /\(endpoint (ep_\w+)\)/.exec(shown)?.[1];
      assert.ok(own !== undefined, `the listener named its endpoint: ${shown}`);
      const { endpoints } = (await emulator.control('/_emulator/webhooks/endpoints')) as { endpoints: Array<{ endpoint_id: string }> };
      assert.ok(!endpoints.some((endpoint) => endpoint.endpoint_id === own), `the listener took its endpoint ${own} away`);
    },
  },
  {
    command: 'emulator start',
    server: true,
    args: async () => ['emulator', 'start', '--port', '0'],
    ready: /listening on http/,
    says: /^/,
  },
];

/** The pid of the process `script` runs the command in (its one child). */
function childOf(pid: number): number | undefined {
  // Gone already: the command ended before it could be interrupted, which the wait then reports.
  const children = (() => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    } catch {
      return '';
    }
  })();
  return children === '' ? undefined : Number(children.split(' ')[0]);
}

/** `csafe …args` on a terminal of its own, interrupted with `signal` once `ready` shows: its exit code and all it drew. */
async function interruptedOnTerminal(emulator: EmulatorProcess, run: LongRun, signal: NodeJS.Signals): Promise<{ code: number | null; shown: string; tmp: string }> {
  const dir = tempDir('csafe-interrupt-');
  const tmp = tempDir('csafe-interrupt-tmp-');
  const args = await run.args(emulator, dir);
  const env = { ...emulator.env, TMPDIR: tmp };
  const line = ['exec', 'env', ...Object.entries(env).map(([name, value]) => `${name}=${value}`), process.execPath, BIN, ...args].map((word) => (word === 'exec' ? word : `'${word}'`)).join(' ');
  const { NO_COLOR: _n, FORCE_COLOR: _f, CI: _c, ...inherited } = process.env;
  const child = spawn('script', ['-qec', `stty cols 100; ${line}`, '/dev/null'], { cwd: dir, env: { ...inherited, TERM: 'xterm-256color' } });
  let shown = '';
  child.stdout.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
  const exited = exitOf(child);
  await waitFor(() => run.ready.test(shown) && childOf(child.pid!) !== undefined, { what: `${run.command} to be under way on its terminal` });
  process.kill(childOf(child.pid!)!, signal);
  const code = await withDeadline(exited, 30_000, `${run.command} to end after ${signal}`);
  return { code, shown, tmp };
}

describe('interrupted on a terminal: exit code, the terminal restored, no temporary file left, what is pending named', { skip: !hasScript && 'no script(1)', concurrency: 4 }, () => {
  // Nothing ends by itself: the waits wait for an hour, each event takes a while.
  const emulator = useEmulatorProcess(['--processing-delay', '1h', '--latency', '100']);
  for (const run of LONG_RUNS) {
    for (const [signal, exit] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      it(`${run.command}: ${signal}`, async () => {
        const { code, shown, tmp } = await interruptedOnTerminal(emulator, run, signal);
        assert.equal(code, run.server ? 0 : exit, shown);
        const hidden = shown.lastIndexOf('\u001b[?25l');
        assert.ok(hidden < shown.lastIndexOf('\u001b[?25h') || hidden === -1, `the cursor is shown again: ${JSON.stringify(shown.slice(-300))}`);
        const lastFrame = Math.max(...[...shown.matchAll(new RegExp(SPINNER, 'g'))].map((match) => match.index));
        if (lastFrame >= 0) assert.match(shown.slice(lastFrame), /\u001b\[(2)?K|\u001b\[1G\u001b\[0K|\r\u001b\[K/, 'the spinner\'s line is cleared');
        assert.match(shown, run.says);
        assert.deepEqual(readdirSync(tmp), [], 'no temporary file left');
        await run.after?.(emulator, shown);
      });
    }
  }
});
