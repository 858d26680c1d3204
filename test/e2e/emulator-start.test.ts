import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { runCsafe, spawnCsafe, startEmulatorProcess, type RunResult } from '../helpers/cli.js';

/** Runs csafe, killed after `deadlineMs`: a hang fails the test (code null) instead of hanging the run. */
async function runWithDeadline(args: readonly string[], deadlineMs = 15_000): Promise<RunResult> {
  const child = spawnCsafe(args);
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  try {
    const [code] = (await once(child, 'close')) as [number | null];
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

describe('csafe emulator start: failures to start are one line', () => {
  it('a port in use names the port and suggests --port 0 (exit 1, no stack)', async (t) => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    t.after(() => taken.close());
    const { port } = taken.address() as AddressInfo;
    const result = await runWithDeadline(['emulator', 'start', '--port', String(port)]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`port ${port}.*--port 0`));
    assert.doesNotMatch(result.stderr, /\bat \S+ \(|EADDRINUSE/);
  });

  it('a --data-dir that cannot be created names the directory and the reason, and exits', async () => {
    const result = await runWithDeadline(['emulator', 'start', '--port', '0', '--data-dir', '/proc/x/y']);
    assert.equal(result.code, 1, `code ${result.code}: ${result.stderr}`);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, /--data-dir \/proc\/x\/y: cannot create or use the directory: no such file or directory/);
  });

  it('--request-log-size keeps the last N requests; control routes need the key', async (t) => {
    const emulator = await startEmulatorProcess(['--request-log-size', '2']);
    t.after(() => emulator.stop());
    for (const id of ['a', 'b', 'c']) {
      await fetch(`${emulator.baseUrl}/v1/data/ns/requests/${id}`, { headers: { Authorization: `Bearer ${emulator.apiKey}` } });
    }
    assert.deepEqual((await emulator.requests()).map((entry) => entry.path), ['/v1/data/ns/requests/b', '/v1/data/ns/requests/c']);
    assert.equal((await fetch(`${emulator.baseUrl}/_emulator/requests`)).status, 401);
  });
});

describe('csafe emulator start --help', () => {
  it('lists every flag the command reads, --api-key and --json among them', async () => {
    const { code, stdout, stderr } = await runCsafe(['emulator', 'start', '--help']);
    assert.equal(code, 0, stderr);
    const options = stdout.slice(stdout.indexOf('\nOptions:\n'), stdout.indexOf('\n\n', stdout.indexOf('\nOptions:\n') + 1));
    assert.match(options, /^ {2}--api-key <key> /m);
    assert.match(options, /^ {2}--json /m);
  });
});
