import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { closedPort, outcome, runCsafe, spawnCsafe, tempDir, useEmulatorProcess, type RunResult } from '../helpers/cli.js';
// Profiles, keys and config values are main()'s answer to its arguments, environment and files: in this process. A
// login against the emulator and the unreadable config directories stay real processes.
import { runInProcess } from '../helpers/in-process.js';

/** The profiles a config directory holds on disk; undefined when csafe wrote no file. */
function storedProfiles(dir: string): Record<string, Record<string, string>> | undefined {
  const path = join(dir, 'config.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { profiles: Record<string, Record<string, string>> }).profiles : undefined;
}

describe('an unknown profile', () => {
  const config = tempDir('csafe-config-');
  const env = { CSAFE_CONFIG_DIR: config };

  it('config set creates a profile; the implicit default needs no config file', async () => {
    const none = await runInProcess(['config', 'list', '--json'], { env: { CSAFE_CONFIG_DIR: tempDir('csafe-config-') } });
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, '{}\n');
    const created = await runInProcess(['--profile', 'staging', 'config', 'set', 'user_id', 'u1'], { env });
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
      const { code, stdout, stderr } = await runInProcess(['--profile', 'typo', ...command], { env });
      assert.equal(code, 2, stderr);
      assert.equal(stdout, '');
      assert.match(stderr, /^error: unknown profile "typo" \(from --profile\); the profiles are: default, staging\n/);
      assert.match(stderr, /hint: .*csafe --profile typo auth login/);
      assert.deepEqual(storedProfiles(config), { staging: { user_id: 'u1' } });
    });
  }

  it('CSAFE_PROFILE naming an unknown profile is refused the same way, saying it came from the environment', async () => {
    const { code, stderr } = await runInProcess(['config', 'list'], { env: { ...env, CSAFE_PROFILE: 'typo' } });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^error: unknown profile "typo" \(from CSAFE_PROFILE\); the profiles are: default, staging\n/);
  });

  for (const name of ['', ' ', '__proto__', 'two\nlines']) {
    it(`--profile ${JSON.stringify(name)} is refused (exit 2) by config set and auth login, which would report a profile they never stored`, async () => {
      const fresh = tempDir('csafe-config-');
      const set = await runInProcess(['--profile', name, 'config', 'set', 'user_id', 'u1'], { env: { CSAFE_CONFIG_DIR: fresh } });
      assert.equal(set.code, 2, set.stderr);
      assert.match(set.stderr, /^error: --profile: .*not a profile name/);
      const login = await runInProcess(['--profile', name, 'auth', 'login', '--with-token', '--no-verify', '--base-url', 'https://example.com'], {
        env: { CSAFE_CONFIG_DIR: fresh },
        input: 'sk_live_0123456789\n',
      });
      assert.equal(login.code, 2, login.stderr);
      assert.match(login.stderr, /^error: --profile: .*not a profile name/);
      assert.equal(storedProfiles(fresh), undefined);
    });
  }

  it('--emulator runs need no profile: an unknown CSAFE_PROFILE is no error there', async () => {
    const { code, stderr } = await runInProcess(['--emulator', 'classify', '--text', 'hi', '--user-id', 'u1'], { env: { ...env, CSAFE_PROFILE: 'typo' } });
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
    const { code, stderr } = await runInProcess(['auth', 'login', '--with-token', '--base-url', emulator.baseUrl], { env: { CSAFE_CONFIG_DIR: config }, input: 'sk_live_wrong_0123456789\n' });
    assert.equal(code, 3, stderr);
    assert.match(stderr, /401/);
    assert.match(stderr, /nothing was stored/);
    assert.equal(storedProfiles(config), undefined);
    assert.deepEqual((await emulator.requests()).map((r) => [r.path, r.status, r.auth]), [['/v1/content', 401, 'invalid']]);
  });

  it('--no-verify stores the key without any request', async () => {
    await forget();
    const config = tempDir('csafe-config-');
    const { code, stderr } = await runInProcess(['auth', 'login', '--with-token', '--no-verify', '--base-url', emulator.baseUrl], { env: { CSAFE_CONFIG_DIR: config }, input: 'sk_live_unchecked_01234\n' });
    assert.equal(code, 0, stderr);
    assert.deepEqual(storedProfiles(config), { default: { base_url: emulator.baseUrl, api_key: 'sk_live_unchecked_01234' } });
    assert.deepEqual(await emulator.requests(), []);
  });

  it('an unreachable service exits 1, stores nothing, and points at --no-verify', async () => {
    const config = tempDir('csafe-config-');
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await runInProcess(['--max-retries', '0', 'auth', 'login', '--with-token', '--base-url', baseUrl], { env: { CSAFE_CONFIG_DIR: config }, input: `${emulator.apiKey}\n` });
    assert.equal(code, 1, stderr);
    assert.match(stderr, /^error: could not check the key against http:\/\/127\.0\.0\.1:\d+: /);
    assert.match(stderr, /--no-verify/);
    assert.equal(storedProfiles(config), undefined);
  });

  it('with no base URL anywhere exits 2 before reading the key, saying how to give one or to skip the check', async () => {
    const config = tempDir('csafe-config-');
    const { code, stderr } = await runInProcess(['auth', 'login', '--with-token'], { env: { CSAFE_CONFIG_DIR: config }, input: `${emulator.apiKey}\n` });
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
      const { code, stderr } = await runInProcess([...args, 'auth', 'login', '--with-token', '--base-url', emulator.baseUrl], {
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
      const { code, stderr } = await runInProcess(['auth', 'login', '--with-token', ...verify, '--base-url', emulator.baseUrl], {
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
    const { code, stderr } = await runInProcess(['--profile', 'fresh', 'auth', 'login', '--with-token', '--base-url', emulator.baseUrl], { env: { CSAFE_CONFIG_DIR: config }, input: emulator.apiKey });
    assert.equal(code, 0, stderr);
    assert.deepEqual(Object.keys(storedProfiles(config) ?? {}), ['fresh']);
  });
});

describe('csafe config set', () => {
  const BAD: Array<[key: string, value: string, message: RegExp]> = [
    ['base_url', 'not a url', /base_url: expected an https:\/\/ or http:\/\/ URL/],
    ['base_url', 'ftp://example.com', /base_url: expected an https:\/\/ or http:\/\/ URL/],
    ['base_url', 'https://csafe.example.com/?ref=docs', /base_url: expected a URL without a query or fragment/],
    ['base_url', 'https://csafe.example.com/#', /base_url: expected a URL without a query or fragment/],
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
      const { code, stderr } = await runInProcess(['config', 'set', key, value], { env: { CSAFE_CONFIG_DIR: config } });
      assert.equal(code, 2, stderr);
      assert.match(stderr, message);
      assert.equal(storedProfiles(config), undefined);
    });
  }
});

describe("a profile's output format", () => {
  const withOutput = async (format: string) => {
    const config = tempDir('csafe-config-');
    const set = await runInProcess(['config', 'set', 'output', format], { env: { CSAFE_CONFIG_DIR: config } });
    assert.equal(set.code, 0, set.stderr);
    return { CSAFE_CONFIG_DIR: config, CSAFE_API_KEY: 'sk_test_0123456789abcdef', CSAFE_BASE_URL: 'https://api.example' };
  };

  it('applies on a terminal', async () => {
    const { code, stdout, stderr } = await runInProcess(['auth', 'status'], { env: await withOutput('json'), isTTY: true });
    assert.equal(code, 0, stderr);
    assert.equal(JSON.parse(stdout).base_url, 'https://api.example');
  });

  it('does not break a pipe: `config set output table` still gives `csafe … | jq` JSON', async () => {
    const { code, stdout, stderr } = await runInProcess(['auth', 'status'], { env: await withOutput('table') });
    assert.equal(code, 0, stderr);
    assert.equal(JSON.parse(stdout).base_url, 'https://api.example');
  });

  it('gives way to --json on a terminal, never a conflict the user did not type', async () => {
    const { code, stdout, stderr } = await runInProcess(['auth', 'status', '--json'], { env: await withOutput('tsv'), isTTY: true });
    assert.equal(code, 0, stderr);
    assert.equal(JSON.parse(stdout).base_url, 'https://api.example');
  });

  it('gives way to the command line in a pipe too', async () => {
    const env = await withOutput('table');
    const tsv = await runInProcess(['-o', 'tsv', 'auth', 'status'], { env });
    assert.equal(tsv.code, 0, tsv.stderr);
    assert.match(tsv.stdout, /^profile\tbase_url\t.*\ndefault\thttps:\/\/api\.example\t/);
  });
});

/** A key file as `--api-key-file` wants it: the key on its first line, readable by its owner alone. */
function keyFile(): string {
  const path = join(tempDir('csafe-key-'), 'key');
  writeFileSync(path, 'sk_live_given_1\n', { mode: 0o600 });
  return path;
}

describe('csafe --emulator auth status', () => {
  it("reports the emulator's key, masked, with source emulator, and exits 0", async () => {
    const { code, stdout, stderr } = await runInProcess(['--emulator', 'auth', 'status', '--json']);
    assert.equal(code, 0, stderr);
    const status = JSON.parse(stdout) as Record<string, string>;
    assert.equal(status.api_key_source, 'emulator');
    assert.match(status.api_key!, /^sk_…\w{4}$/);
    assert.equal(status.base_url_source, 'emulator');
    assert.match(status.base_url!, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  for (const [flag, value] of [['--base-url', () => 'https://api.example'], ['--api-key', () => 'sk_live_given_1'], ['--api-key-file', keyFile]] as const) {
    it(`refuses ${flag} beside --emulator (exit 2), rather than pass it over and answer from the emulator`, async () => {
      for (const dryRun of [[], ['--dry-run']]) {
        const { code, stdout, stderr } = await runInProcess(['--emulator', flag, value(), 'classify', '--text', 'hi', '--user-id', 'u1', ...dryRun]);
        assert.equal(code, 2, stderr);
        assert.equal(stdout, '');
        assert.match(stderr, new RegExp(`^error: --emulator and ${flag} conflict: --emulator runs against an in-process emulator with its own key; give one$`, 'm'));
      }
    });
  }
});

/** Runs csafe, killed after `deadlineMs`: a read that never ends fails the test (code null) instead of hanging the run. */
async function runWithin(args: readonly string[], env: Record<string, string>, deadlineMs = 15_000): Promise<RunResult> {
  const child = spawnCsafe(args, { env });
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  try {
    return await outcome(child);
  } finally {
    clearTimeout(timer);
  }
}

describe('a config directory that cannot be created, or a config file that cannot be read', () => {
  const emulator = useEmulatorProcess();
  const classify = ['classify', '--text', 'hello', '--user-id', 'u1', '--json'];

  it('reading creates nothing: a CSAFE_CONFIG_DIR that does not exist is no profiles, and stays absent (a read-only HOME)', async () => {
    const parent = join(tempDir('csafe-config-'), 'missing');
    const result = await runWithin(classify, { ...emulator.env, CSAFE_CONFIG_DIR: join(parent, 'csafe') });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.equal(existsSync(parent), false, 'no directory created by a command that only reads settings');
  });

  /** Each returns a CSAFE_CONFIG_DIR, and what the warning says of its config.json. */
  const unreadable: Array<[string, () => string, string]> = [
    ['a CSAFE_CONFIG_DIR that is a file', () => fileAt(join(tempDir('csafe-config-'), 'config-dir')), 'cannot be read: a part of its path is not a directory (ENOTDIR)'],
    ['a CSAFE_CONFIG_DIR under a file', () => join(fileAt(join(tempDir('csafe-config-'), 'home')), 'csafe'), 'cannot be read: a part of its path is not a directory (ENOTDIR)'],
    ['a config.json that is a directory', () => withConfig((path) => mkdirSync(path)), 'is not a regular file'],
    ['a config.json linked to /dev/zero', () => withConfig((path) => symlinkSync('/dev/zero', path)), 'is not a regular file'],
    ['a config.json over 1 MiB', () => withConfig((path) => writeFileSync(path, `{"profiles": {}, "pad": "${'x'.repeat(1024 * 1024)}"}`)), 'is larger than 1 MiB'],
  ];
  for (const [what, configDir, reason] of unreadable) {
    it(`${what}: a command given the key and base URL by the environment runs, with one warning line`, async () => {
      const dir = configDir();
      const result = await runWithin(classify, { ...emulator.env, CSAFE_CONFIG_DIR: dir });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(JSON.parse(result.stdout).user_id, 'u1');
      assert.equal(result.stderr, `warning: config file ${join(dir, 'config.json')} ${reason}; using flags and environment variables only\n`);
    });
  }

  it('without the key elsewhere, the unreadable file is the error (exit 2); config set refuses to write over it', async () => {
    const dir = withConfig((path) => symlinkSync('/dev/zero', path));
    const read = await runWithin(classify, { CSAFE_BASE_URL: emulator.baseUrl, CSAFE_CONFIG_DIR: dir });
    assert.equal(read.code, 2, read.stderr);
    assert.match(read.stderr, /^error: config file \S+ is not a regular file\n/);
    const written = await runWithin(['config', 'set', 'user_id', 'u1'], { CSAFE_CONFIG_DIR: dir });
    assert.equal(written.code, 2, written.stderr);
    assert.match(written.stderr, /^error: config file \S+ is not a regular file\n/);
  });

  it('a config directory that cannot be written (a link to a directory that is gone): one error naming config.json and why, a hint, exit 1', async () => {
    const dir = join(tempDir('csafe-config-'), 'csafe');
    symlinkSync(join(dirname(dir), 'gone'), dir);
    for (const args of [['config', 'set', 'user_id', 'u1'], ['auth', 'login', '--with-token', '--no-verify']]) {
      const result = await runCsafe(args, { env: { CSAFE_CONFIG_DIR: dir }, input: 'sk_live_abcdef9f2c\n', timeoutMs: 15_000 });
      assert.equal(result.code, 1, result.stderr);
      assert.equal(
        result.stderr,
        `error: config file ${join(dir, 'config.json')} could not be written: no such directory (ENOENT)\n` +
          'hint: create its directory, or set CSAFE_CONFIG_DIR to a directory this user may write to\n',
      );
    }
  });

  it('a config or cache directory under /proc, where no directory can be made: config set fails at once (exit 1), a run that writes no config ends', { skip: !existsSync('/proc/self') }, async () => {
    const underProc = `/proc/csafe-test-${process.pid}`;
    const set = await runCsafe(['config', 'set', 'user_id', 'u1'], { env: { CSAFE_CONFIG_DIR: join(underProc, 'csafe') }, timeoutMs: 15_000 });
    assert.equal(set.code, 1, set.stderr);
    assert.match(set.stderr, /^error: config file \/proc\/\S+ could not be written: no such directory \(ENOENT\)\n/);
    // Its code cache, written as it exits, has nowhere to go: the run ends all the same.
    const list = await runCsafe(['config', 'list'], { env: { CSAFE_CONFIG_DIR: tempDir('csafe-config-'), XDG_CACHE_HOME: underProc }, timeoutMs: 15_000 });
    assert.equal(list.code, 0, list.stderr);
  });

  it('writing creates the directory 0700 and the file 0600', async () => {
    const dir = join(tempDir('csafe-config-'), 'new', 'csafe');
    const result = await runWithin(['config', 'set', 'user_id', 'u1'], { CSAFE_CONFIG_DIR: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, 'config.json')).mode & 0o777, 0o600);
  });
});

function fileAt(path: string): string {
  writeFileSync(path, 'not a directory');
  return path;
}

/** A fresh config directory whose config.json `make` creates. */
function withConfig(make: (path: string) => void): string {
  const dir = tempDir('csafe-config-');
  make(join(dir, 'config.json'));
  return dir;
}

describe('config file changed by runs at once', () => {
  it('twenty-four `config set` run at once, each for a profile of its own: every profile is kept, every run ends 0', async () => {
    const config = tempDir('csafe-config-');
    const names = Array.from({ length: 24 }, (_, index) => `p${index}`);
    const results = await Promise.all(names.map((name) => runCsafe(['--profile', name, 'config', 'set', 'user_id', `user-${name}`], { env: { CSAFE_CONFIG_DIR: config }, timeoutMs: 30_000 })));
    for (const result of results) assert.equal(result.code, 0, result.stderr);
    const stored = storedProfiles(config) ?? {};
    assert.deepEqual(Object.keys(stored).sort(), [...names].sort());
    for (const name of names) assert.equal(stored[name]?.user_id, `user-${name}`);
    assert.ok(!existsSync(join(config, 'config.json.lock')), 'the lock is let go');
  });
});
