import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { ended, runCsafe, spawnCsafe, tempDir, useEmulatorProcess, withDeadline } from '../helpers/cli.js';
import { listenOnLoopback } from '../helpers/server.js';
// status and reset are main()'s answer against a running emulator: in this process. The request log is the emulator process's own stderr.
import { runInProcess } from '../helpers/in-process.js';

describe('csafe emulator status and reset', () => {
  const emulator = useEmulatorProcess();

  it('status says an emulator answers at the base URL, and for how long it has run', async () => {
    const { code, stdout, stderr } = await runInProcess(['emulator', 'status', '--json'], { env: emulator.env });
    assert.equal(code, 0, stderr);
    const status = JSON.parse(stdout) as { base_url: string; status: string; uptime_s: number };
    assert.deepEqual([status.base_url, status.status, typeof status.uptime_s], [emulator.baseUrl, 'ok', 'number']);
  });

  it('status where no emulator listens says how to start one, exit 1', async () => {
    const env = { CSAFE_BASE_URL: 'http://127.0.0.1:1', CSAFE_API_KEY: 'sk_test_x', CSAFE_MAX_RETRIES: '0' };
    const { code, stdout, stderr } = await runInProcess(['emulator', 'status'], { env });
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.equal(stderr, 'error: GET /_emulator/health: cannot connect to 127.0.0.1:1 (connection refused)\nhint: no emulator listens there: start one with `csafe emulator start` (or run a command with --emulator)\n');
  });

  it('reset drops what the emulator holds, with the configured key: no hand-written curl', async () => {
    const added = await runInProcess(['data', 'add', 'listings', '-'], { env: emulator.env, input: '{"id":"a","title":"bike"}\n' });
    assert.equal(added.code, 0, added.stderr);
    assert.equal(((await emulator.control('/_emulator/data/listings')) as { objects: unknown[] }).objects.length, 1);
    const { code, stdout, stderr } = await runInProcess(['emulator', 'reset', '--json'], { env: emulator.env });
    assert.equal(code, 0, stderr);
    assert.equal((JSON.parse(stdout) as { status: string }).status, 'reset');
    assert.deepEqual(((await emulator.control('/_emulator/data/listings')) as { objects: unknown[] }).objects, []);
  });

  it('a service that is not an emulator is named as such (exit 1), its key never shown', async (t) => {
    const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"type":"not_found","message":"no such route"}}'));
    const baseUrl = await listenOnLoopback(server);
    t.after(() => server.close());
    const { code, stderr } = await runInProcess(['emulator', 'reset'], { env: { CSAFE_BASE_URL: baseUrl, CSAFE_API_KEY: 'sk_live_secret_0123456789' } });
    assert.equal(code, 1);
    assert.match(stderr, new RegExp(`^error: ${baseUrl.replaceAll('.', '\\.')} is not a csafe emulator: POST /_emulator/reset answered 404\\nhint: `));
    assert.doesNotMatch(stderr, /sk_live_secret/);
  });

  it('--emulator keeps its state between runs, and `csafe --emulator emulator reset` clears it', async () => {
    const env = { CSAFE_EMULATOR_DATA_DIR: tempDir('csafe-emulator-') };
    const added = await runInProcess(['--emulator', 'data', 'add', 'listings', '-', '--json'], { env, input: '{"id":"a","title":"bike"}\n' });
    const [{ request_id: id }] = JSON.parse(added.stdout) as Array<{ request_id: string }>;
    assert.equal((await runInProcess(['--emulator', 'data', 'status', 'listings', id], { env })).code, 0, 'the next run still knows the request');
    const reset = await runInProcess(['--emulator', 'emulator', 'reset'], { env });
    assert.equal(reset.code, 0, reset.stderr);
    const after = await runInProcess(['--emulator', 'data', 'status', 'listings', id], { env });
    assert.equal(after.code, 1);
    assert.match(after.stderr, /404/);
  });
});

describe('csafe emulator start logs each request', () => {
  /** An emulator whose stderr is read, ready once it has printed its base URL on stdout. */
  async function loggingEmulator(env: Record<string, string>, args: string[] = []) {
    const child = spawnCsafe([...args, 'emulator', 'start', '--port', '0', '--json'], { env });
    const [line] = await withDeadline(new Promise<string[]>((resolve) => createInterface({ input: child.stdout }).once('line', (text) => resolve([text]))), 20_000, 'the ready line');
    const { base_url: baseUrl } = JSON.parse(line!) as { base_url: string };
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    return { baseUrl, child, stderr: () => stderr };
  }

  for (const [what, env, args, logged] of [
    ['on its terminal', { CSAFE_FORCE_TTY: '1', NO_COLOR: '1' }, [], true],
    ['not with --quiet', { CSAFE_FORCE_TTY: '1', NO_COLOR: '1' }, ['--quiet'], false],
    ['not in a pipe', {}, [], false],
    ['in a pipe with --verbose', {}, ['--verbose'], true],
  ] as const) {
    it(`${what}: method, path, status and time${logged ? '' : ' (not)'}`, async () => {
      const emulator = await loggingEmulator({ ...env }, [...args]);
      const classified = await runCsafe(['classify', '--text', 'hi', '--user-id', 'u1'], { env: { CSAFE_BASE_URL: emulator.baseUrl, CSAFE_API_KEY: 'sk_test_csafe_emulator' } });
      assert.equal(classified.code, 0, classified.stderr);
      const exited = ended(emulator.child);
      emulator.child.kill('SIGINT');
      await exited;
      const line = /^\d\d:\d\d:\d\d POST \/v1\/content 200 \d+ ms$/m;
      if (logged) assert.match(emulator.stderr(), line);
      else assert.doesNotMatch(emulator.stderr(), /POST \/v1\/content/);
    });
  }
});
