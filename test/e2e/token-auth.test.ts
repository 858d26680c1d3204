import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { runCsafe, startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';
// The first test of each group runs real processes; the flag, profile and precedence checks after it run in this process.
import { runInProcess } from '../helpers/in-process.js';

describe('csafe token create', () => {
  let emulator: EmulatorProcess;
  before(async () => {
    emulator = await startEmulatorProcess();
  });
  after(() => emulator.stop());

  it('creates a token that works as a key for other commands, but cannot create tokens', async () => {
    const created = await runCsafe(['token', 'create', '--expires-in', '900', '--user-id', 'u1', '--json'], { env: emulator.env });
    assert.equal(created.code, 0, created.stderr);
    const token = JSON.parse(created.stdout);
    assert.equal(token.token_type, 'Bearer');
    assert.equal(token.expires_in, 900);
    const withToken = { CSAFE_BASE_URL: emulator.baseUrl, CSAFE_API_KEY: token.access_token };
    const classified = await runCsafe(['classify', '--text', 'hi', '--user-id', 'u1'], { env: withToken });
    assert.equal(classified.code, 0, classified.stderr);
    const again = await runCsafe(['token', 'create'], { env: withToken });
    assert.equal(again.code, 3);
    assert.match(again.stderr, /403/);
  });

  for (const columns of [40, 120]) {
    it(`on a terminal of ${columns} columns prints the token and every id whole, to be copied`, async () => {
      const { code, stdout, stderr } = await runInProcess(['token', 'create', '--user-id', 'u1'], { env: emulator.env, isTTY: true, columns });
      assert.equal(code, 0, stderr);
      assert.doesNotMatch(stdout, /…/);
      const token = /^access_token: +(\S+)$/m.exec(stdout)?.[1];
      const { access_token: full } = JSON.parse((await runInProcess(['token', 'create', '--user-id', 'u1', '--json'], { env: emulator.env })).stdout) as { access_token: string };
      assert.equal(token?.length, full.length, stdout);
    });
  }

  it('--expires-in takes a duration as every duration flag does (15m), a plain number being seconds', async () => {
    for (const [given, seconds] of [['15m', 900], ['900', 900], ['1h30m', 5400]] as const) {
      const { code, stdout, stderr } = await runInProcess(['token', 'create', '--expires-in', given, '--json'], { env: emulator.env });
      assert.equal(code, 0, stderr);
      assert.equal((JSON.parse(stdout) as { expires_in: number }).expires_in, seconds, given);
    }
    const short = await runInProcess(['token', 'create', '--expires-in', '2m'], { env: emulator.env });
    assert.equal(short.code, 2);
    assert.match(short.stderr, /^error: --expires-in: expected at least 300 seconds/);
  });

  it('validates --expires-in before sending', async () => {
    await emulator.control('/_emulator/requests', { method: 'DELETE' });
    for (const bad of ['299', '86401', 'soon']) {
      const { code, stderr } = await runInProcess(['token', 'create', '--expires-in', bad], { env: emulator.env });
      assert.equal(code, 2, stderr);
      assert.match(stderr, /--expires-in: expected/);
    }
    assert.equal((await emulator.requests()).length, 0);
  });
});

describe('csafe auth and config', () => {
  let emulator: EmulatorProcess;
  before(async () => {
    emulator = await startEmulatorProcess();
  });
  after(() => emulator.stop());

  it('login --with-token stores the key 0600; status masks it; logout removes it', async () => {
    const config = tempDir('csafe-config-');
    const env = { CSAFE_CONFIG_DIR: config };
    const login = await runCsafe(['auth', 'login', '--with-token', '--base-url', emulator.baseUrl], { env, input: `${emulator.apiKey}\n` });
    assert.equal(login.code, 0, login.stderr);
    assert.equal(statSync(join(config, 'config.json')).mode & 0o777, 0o600);

    const status = await runCsafe(['auth', 'status', '--json'], { env });
    assert.equal(status.code, 0);
    const shown = JSON.parse(status.stdout);
    assert.equal(shown.api_key, `sk_…${emulator.apiKey.slice(-4)}`);
    assert.equal(shown.api_key_source, 'profile');
    assert.ok(!status.stdout.includes(emulator.apiKey));

    const classified = await runCsafe(['classify', '--text', 'hi', '--user-id', 'u1'], { env });
    assert.equal(classified.code, 0, classified.stderr);

    assert.equal((await runCsafe(['auth', 'logout'], { env })).code, 0);
    const after = await runCsafe(['auth', 'status'], { env });
    assert.equal(after.code, 3);
  });

  it('login without a terminal and without --with-token is a usage error', async () => {
    const { code, stderr } = await runInProcess(['auth', 'login']);
    assert.equal(code, 2);
    assert.match(stderr, /--with-token/);
  });

  it('profiles, and flag > env > profile precedence', async () => {
    const config = tempDir('csafe-config-');
    const env = { CSAFE_CONFIG_DIR: config };
    assert.equal((await runInProcess(['--profile', 'staging', 'config', 'set', 'base_url', 'https://staging.example'], { env })).code, 0);
    assert.equal((await runInProcess(['--profile', 'staging', 'config', 'get', 'base_url'], { env })).stdout, 'https://staging.example\n');
    const fromEnv = await runInProcess(['auth', 'status', '--json'], { env: { ...env, CSAFE_PROFILE: 'staging', CSAFE_BASE_URL: 'https://env.example' } });
    assert.equal(JSON.parse(fromEnv.stdout).base_url, 'https://env.example');
    const fromFlag = await runInProcess(['auth', 'status', '--json', '--base-url', 'https://flag.example'], { env: { ...env, CSAFE_PROFILE: 'staging', CSAFE_BASE_URL: 'https://env.example' } });
    assert.equal(JSON.parse(fromFlag.stdout).base_url, 'https://flag.example');
    const list = await runInProcess(['--profile', 'staging', 'config', 'list', '--json'], { env });
    assert.deepEqual(JSON.parse(list.stdout), { base_url: 'https://staging.example' });
    const unknown = await runInProcess(['config', 'set', 'colour', 'red'], { env });
    assert.equal(unknown.code, 2);
  });

  it('refuses plain http:// to a non-loopback host unless --insecure', async () => {
    const env = { CSAFE_BASE_URL: 'http://example.com', CSAFE_API_KEY: 'sk_test_123456789' };
    const { code, stderr } = await runInProcess(['classify', '--text', 'hi', '--user-id', 'u1'], { env });
    assert.equal(code, 2);
    assert.match(stderr, /refusing to send the API key over plain http/);
  });
});

describe('csafe --emulator', () => {
  it('runs a command against an in-process emulator with no configuration', async () => {
    const { code, stdout, stderr } = await runCsafe(['--emulator', 'classify', '--text', 'I will kill you', '--user-id', 'u1', '--json']);
    assert.equal(code, 0, stderr);
    assert.equal(JSON.parse(stdout).labels.find((l: { label: string }) => l.label === 'violence').decision, 'match');
  });

  it('documents the exit codes in --help', async () => {
    const { code, stdout } = await runInProcess(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /124\s+a wait timed out/);
  });

  it('an unknown option is a usage error', async () => {
    const { code } = await runInProcess(['classify', '--no-such-flag']);
    assert.equal(code, 2);
  });
});
