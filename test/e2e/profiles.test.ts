import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { closedPort, runCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';

/** The profiles a config directory holds on disk; undefined when csafe wrote no file. */
function storedProfiles(dir: string): Record<string, Record<string, string>> | undefined {
  const path = join(dir, 'config.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { profiles: Record<string, Record<string, string>> }).profiles : undefined;
}

describe('an unknown profile', () => {
  const config = tempDir('csafe-config-');
  const env = { CSAFE_CONFIG_DIR: config };

  it('config set creates a profile; the implicit default needs no config file', async () => {
    const none = await runCsafe(['config', 'list', '--json'], { env: { CSAFE_CONFIG_DIR: tempDir('csafe-config-') } });
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, '{}\n');
    const created = await runCsafe(['--profile', 'staging', 'config', 'set', 'user_id', 'u1'], { env });
    assert.equal(created.code, 0, created.stderr);
    assert.deepEqual(storedProfiles(config), { staging: { user_id: 'u1' } });
  });

  const commands = [
    ['config', 'list'],
    ['config', 'get', 'base_url'],
    ['config', 'unset', 'base_url'],
    ['auth', 'status'],
    ['auth', 'logout'],
    ['classify', '--text', 'hi', '--user-id', 'u1'],
  ];
  for (const command of commands) {
    it(`${command.slice(0, 2).join(' ')} with --profile typo exits 2 listing the profiles that exist, and writes nothing`, async () => {
      const { code, stdout, stderr } = await runCsafe(['--profile', 'typo', ...command], { env });
      assert.equal(code, 2, stderr);
      assert.equal(stdout, '');
      assert.match(stderr, /^error: unknown profile "typo" \(from --profile\); the profiles are: default, staging\n/);
      assert.match(stderr, /hint: .*csafe --profile typo auth login/);
      assert.deepEqual(storedProfiles(config), { staging: { user_id: 'u1' } });
    });
  }

  it('CSAFE_PROFILE naming an unknown profile is refused the same way, saying it came from the environment', async () => {
    const { code, stderr } = await runCsafe(['config', 'list'], { env: { ...env, CSAFE_PROFILE: 'typo' } });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^error: unknown profile "typo" \(from CSAFE_PROFILE\); the profiles are: default, staging\n/);
  });

  for (const name of ['', ' ', '__proto__', 'two\nlines']) {
    it(`--profile ${JSON.stringify(name)} is refused (exit 2) by config set and auth login, which would report a profile they never stored`, async () => {
      const fresh = tempDir('csafe-config-');
      const set = await runCsafe(['--profile', name, 'config', 'set', 'user_id', 'u1'], { env: { CSAFE_CONFIG_DIR: fresh } });
      assert.equal(set.code, 2, set.stderr);
      assert.match(set.stderr, /^error: --profile: .*not a profile name/);
      const login = await runCsafe(['--profile', name, 'auth', 'login', '--with-token', '--no-verify', '--base-url', 'https://example.com'], {
        env: { CSAFE_CONFIG_DIR: fresh },
        input: 'sk_live_0123456789\n',
      });
      assert.equal(login.code, 2, login.stderr);
      assert.match(login.stderr, /^error: --profile: .*not a profile name/);
      assert.equal(storedProfiles(fresh), undefined);
    });
  }

  it('--emulator runs need no profile: an unknown CSAFE_PROFILE is no error there', async () => {
    const { code, stderr } = await runCsafe(['--emulator', 'classify', '--text', 'hi', '--user-id', 'u1'], { env: { ...env, CSAFE_PROFILE: 'typo' } });
    assert.equal(code, 0, stderr);
  });
});

describe('csafe auth login', () => {
  const emulator = useEmulatorProcess();
  const forget = () => emulator.control('/_emulator/requests', { method: 'DELETE' });

  it('checks the key with one request the service answers 401 for a bad key, and stores a good one (0)', async () => {
    await forget();
    const config = tempDir('csafe-config-');
    const login = await runCsafe(['auth', 'login', '--with-token', '--base-url', emulator.baseUrl], { env: { CSAFE_CONFIG_DIR: config }, input: `${emulator.apiKey}\n` });
    assert.equal(login.code, 0, login.stderr);
    assert.deepEqual(storedProfiles(config), { default: { base_url: emulator.baseUrl, api_key: emulator.apiKey } });
    const requests = await emulator.requests();
    assert.deepEqual(requests.map((r) => [r.method, r.path, r.auth]), [['POST', '/v1/content', 'api_key']]);
    assert.equal(requests[0]!.status, 400, 'an empty body: nothing is classified');
  });

  it('a key the service refuses exits 3 and stores nothing', async () => {
    await forget();
    const config = tempDir('csafe-config-');
    const { code, stderr } = await runCsafe(['auth', 'login', '--with-token', '--base-url', emulator.baseUrl], { env: { CSAFE_CONFIG_DIR: config }, input: 'sk_live_wrong_0123456789\n' });
    assert.equal(code, 3, stderr);
    assert.match(stderr, /401/);
    assert.match(stderr, /nothing was stored/);
    assert.equal(storedProfiles(config), undefined);
    assert.deepEqual((await emulator.requests()).map((r) => [r.path, r.status, r.auth]), [['/v1/content', 401, 'invalid']]);
  });

  it('--no-verify stores the key without any request', async () => {
    await forget();
    const config = tempDir('csafe-config-');
    const { code, stderr } = await runCsafe(['auth', 'login', '--with-token', '--no-verify', '--base-url', emulator.baseUrl], { env: { CSAFE_CONFIG_DIR: config }, input: 'sk_live_unchecked_01234\n' });
    assert.equal(code, 0, stderr);
    assert.deepEqual(storedProfiles(config), { default: { base_url: emulator.baseUrl, api_key: 'sk_live_unchecked_01234' } });
    assert.deepEqual(await emulator.requests(), []);
  });

  it('an unreachable service exits 1, stores nothing, and points at --no-verify', async () => {
    const config = tempDir('csafe-config-');
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await runCsafe(['--max-retries', '0', 'auth', 'login', '--with-token', '--base-url', baseUrl], { env: { CSAFE_CONFIG_DIR: config }, input: `${emulator.apiKey}\n` });
    assert.equal(code, 1, stderr);
    assert.match(stderr, /^error: could not check the key against http:\/\/127\.0\.0\.1:\d+: /);
    assert.match(stderr, /--no-verify/);
    assert.equal(storedProfiles(config), undefined);
  });

  it('with no base URL anywhere exits 2 before reading the key, saying how to give one or to skip the check', async () => {
    const config = tempDir('csafe-config-');
    const { code, stderr } = await runCsafe(['auth', 'login', '--with-token'], { env: { CSAFE_CONFIG_DIR: config }, input: `${emulator.apiKey}\n` });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^error: no base URL to check the key against\n/);
    assert.match(stderr, /--base-url/);
    assert.match(stderr, /--no-verify/);
    assert.equal(storedProfiles(config), undefined);
  });

  for (const [what, args, env] of [
    ['CSAFE_API_KEY', [], { CSAFE_API_KEY: 'sk_env_0123456789' }],
    ['--api-key', ['--api-key', 'sk_flag_0123456789'], {}],
  ] as const) {
    it(`warns on stderr that ${what} overrides the key it stores`, async () => {
      const config = tempDir('csafe-config-');
      const { code, stderr } = await runCsafe([...args, 'auth', 'login', '--with-token', '--base-url', emulator.baseUrl], {
        env: { CSAFE_CONFIG_DIR: config, ...env },
        input: `${emulator.apiKey}\n`,
      });
      assert.equal(code, 0, stderr);
      assert.match(stderr, new RegExp(`warning: ${what} is set and overrides the stored key`));
      assert.equal(storedProfiles(config)?.default?.api_key, emulator.apiKey, 'the key read is the one checked and stored');
    });
  }

  it('refuses a key with a control character (a stray escape or paste marker) before any request, and stores nothing (2)', async () => {
    await forget();
    const config = tempDir('csafe-config-');
    for (const verify of [[], ['--no-verify']]) {
      const { code, stderr } = await runCsafe(['auth', 'login', '--with-token', ...verify, '--base-url', emulator.baseUrl], {
        env: { CSAFE_CONFIG_DIR: config },
        input: '\u001b[200~sk_live_0123456789\u001b[201~\n',
      });
      assert.equal(code, 2, stderr);
      assert.match(stderr, /^error: the API key .*control character/);
      assert.doesNotMatch(stderr, /sk_live_0123456789/);
    }
    assert.equal(storedProfiles(config), undefined);
    assert.deepEqual(await emulator.requests(), []);
  });

  it('creates the profile it is given (a new --profile is no error here)', async () => {
    const config = tempDir('csafe-config-');
    const { code, stderr } = await runCsafe(['--profile', 'fresh', 'auth', 'login', '--with-token', '--base-url', emulator.baseUrl], { env: { CSAFE_CONFIG_DIR: config }, input: emulator.apiKey });
    assert.equal(code, 0, stderr);
    assert.deepEqual(Object.keys(storedProfiles(config) ?? {}), ['fresh']);
  });
});

describe('csafe config set', () => {
  const BAD: Array<[key: string, value: string, message: RegExp]> = [
    ['base_url', 'not a url', /base_url: expected an https:\/\/ or http:\/\/ URL/],
    ['base_url', 'ftp://example.com', /base_url: expected an https:\/\/ or http:\/\/ URL/],
    ['output', 'yaml', /output: expected one of/],
    ['user_id', ' ', /user_id: expected a non-empty user id/],
    ['max_retries', '-1', /max_retries: expected a whole number/],
    ['max_retries', 'two', /max_retries: expected a whole number/],
    ['colour', 'red', /unknown config key "colour": expected one of api_key, base_url, user_id, output, /],
    ['api_key', 'sk_live_0123456789', /csafe auth login/],
  ];
  for (const [key, value, message] of BAD) {
    it(`refuses ${key} ${JSON.stringify(value)} with exit 2 and stores nothing`, async () => {
      const config = tempDir('csafe-config-');
      const { code, stderr } = await runCsafe(['config', 'set', key, value], { env: { CSAFE_CONFIG_DIR: config } });
      assert.equal(code, 2, stderr);
      assert.match(stderr, message);
      assert.equal(storedProfiles(config), undefined);
    });
  }
});

describe('csafe --emulator auth status', () => {
  it("reports the emulator's key, masked, with source emulator, and exits 0", async () => {
    const { code, stdout, stderr } = await runCsafe(['--emulator', 'auth', 'status', '--json']);
    assert.equal(code, 0, stderr);
    const status = JSON.parse(stdout) as Record<string, string>;
    assert.equal(status.api_key_source, 'emulator');
    assert.match(status.api_key!, /^sk_…\w{4}$/);
    assert.equal(status.base_url_source, 'emulator');
    assert.match(status.base_url!, /^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
