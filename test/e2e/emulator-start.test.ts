import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCsafe, spawnCsafe, startEmulatorProcess, tempDir, type RunResult } from '../helpers/cli.js';
import { userDirectory } from '../helpers/data-dirs.js';

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

describe('csafe emulator start: what it refuses to start with (exit 2, one line)', () => {
  it('a --data-dir with files of its own and no marker, leaving every file in it', async () => {
    const dataDir = userDirectory();
    const result = await runWithDeadline(['emulator', 'start', '--port', '0', '--data-dir', dataDir]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`--data-dir ${dataDir}: the directory is not empty and has no \\.csafe-emulator file.*give an empty or new directory`));
    assert.deepEqual(readdirSync(dataDir, { recursive: true }).map(String).sort(), ['uploads', join('uploads', 'thesis.docx'), 'x.part']);
  });

  it('a --data-dir whose signing secret is too short to be secret', async () => {
    const dataDir = tempDir('csafe-emulator-');
    writeFileSync(join(dataDir, 'signing-secret'), 'abcd', { mode: 0o600 });
    const result = await runWithDeadline(['emulator', 'start', '--port', '0', '--data-dir', dataDir]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, /signing-secret file is not at least 64 hex characters.*remove the file/);
  });

  for (const [why, args, message] of [
    ['a non-loopback --host with the published default key', ['--host', '0.0.0.0'], /--host 0\.0\.0\.0 is not a loopback address.*pass --api-key/],
    ['the IPv6 any-address with the default key', ['--host', '::'], /--host :: is not a loopback address/],
    ['a non-loopback --host with the published default key passed as --api-key', ['--host', '0.0.0.0', '--api-key', 'sk_test_csafe_emulator'], /--api-key is the published default key.*--host 0\.0\.0\.0/],
    ['an --api-key with a control character, which no client could send', ['--api-key', 'sk_test_0123456789abcdef\u0001'], /--api-key contains a control character/],
    ['an empty --api-key', ['--api-key', ''], /--api-key is empty: expected a key of at least 16 characters without white space/],
    ['an --api-key with white space', ['--api-key', 'sk_test emulator key'], /--api-key contains white space/],
    ['an --api-key shorter than 16 characters', ['--api-key', 'sk_test_short'], /--api-key has 13 characters/],
  ] as const) {
    it(why, async () => {
      const result = await runWithDeadline(['emulator', 'start', '--port', '0', ...args]);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, message);
    });
  }

  it('a non-loopback --host with a key of its own starts', async () => {
    const emulator = await startEmulatorProcess(['--host', '0.0.0.0', '--api-key', 'sk_test_0123456789abcdef']);
    await emulator.stop();
    assert.equal(emulator.apiKey, 'sk_test_0123456789abcdef');
  });
});

describe('csafe emulator start: a closed terminal', () => {
  it('SIGHUP stops it and removes its temporary data directory', async () => {
    const tmp = tempDir('csafe-tmp-');
    const child = spawnCsafe(['emulator', 'start', '--port', '0', '--json'], { env: { TMPDIR: tmp } });
    child.stdin.end();
    const exited = once(child, 'exit');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      // Whichever comes first: the ready line, or an exit (the deadline's kill among them) that fails the test below.
      await Promise.race([once(child.stdout, 'data'), exited]);
      assert.equal(readdirSync(tmp).length, 1, 'the emulator made its data directory');
      child.kill('SIGHUP');
      await exited;
    } finally {
      clearTimeout(timer);
    }
    assert.deepEqual(readdirSync(tmp), []);
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
