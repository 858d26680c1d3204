import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runCsafe, startEmulatorProcess, tempDir, type EmulatorProcess, type RunResult, exitOf } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

/** The lines of stderr a person reads, hints aside; every failure here must be exactly one. */
const errorLines = (stderr: string) => stderr.trim().split('\n').filter((line) => line !== '' && !line.startsWith('hint:'));

function assertOneLine(result: RunResult, code: number, pattern: RegExp): void {
  assert.equal(result.code, code, result.stderr);
  assert.equal(errorLines(result.stderr).length, 1, result.stderr);
  assert.match(result.stderr, pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at |SyntaxError|RangeError/, 'no stack trace');
}

describe('client faults: a full stdout, a corrupt or wrong config, bad flags', () => {
  let emulator: EmulatorProcess;
  const dirs: string[] = [];
  const configDir = (config?: string) => {
    const dir = tempDir('csafe-config-');
    dirs.push(dir);
    if (config !== undefined) writeFileSync(join(dir, 'config.json'), config);
    return dir;
  };
  // The key by a flag that shows it to no one (--api-key would print a warning to stderr).
  const keyFile = join(tempDir('csafe-key-'), 'key');
  const flags = () => ['--base-url', emulator.baseUrl, '--api-key-file', keyFile];

  before(async () => {
    emulator = await startEmulatorProcess();
    writeFileSync(keyFile, `${emulator.apiKey}\n`, { mode: 0o600 });
  });
  after(async () => {
    await emulator.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  describe('stdout on a full device', () => {
    const toDevFull = (args: string[]) =>
      new Promise<RunResult>((resolve, reject) => {
        const full = openSync('/dev/full', 'w');
        const child = spawn(process.execPath, [BIN, ...args], {
          env: { PATH: process.env.PATH, CSAFE_CONFIG_DIR: configDir(), CSAFE_BASE_URL: emulator.baseUrl, CSAFE_API_KEY: emulator.apiKey },
          stdio: ['ignore', full, 'pipe'],
        });
        closeSync(full);
        let stderr = '';
        child.stderr!.on('data', (chunk) => (stderr += chunk));
        child.on('error', reject);
        exitOf(child).then((code) => resolve({ code, stdout: '', stderr }), reject);
      });

    for (const format of [[], ['--json'], ['-o', 'table']]) {
      it(`classify ${format.join(' ')} > /dev/full: one line naming stdout and ENOSPC, exit 1`, async () => {
        const result = await toDevFull(['classify', '--text', 'hi', '--user-id', 'u', ...format]);
        assertOneLine(result, 1, /^error: cannot write to stdout: ENOSPC/);
      });
    }

    // Answered by bin/csafe before the bundle loads (src/quick.ts), and by main() (`csafe version`): the same line and exit code.
    for (const args of [['--version'], ['--help'], ['data', 'add', '--help'], ['version']]) {
      it(`csafe ${args.join(' ')} > /dev/full: one line naming stdout and ENOSPC, exit 1`, async () => {
        assertOneLine(await toDevFull(args), 1, /^error: cannot write to stdout: ENOSPC/);
      });
    }
  });

  // Config, flag and argument faults are main()'s answer to its arguments, environment and files: they run in this
  // process (but for a relative @FILE, read from where a real process runs); a full stdout is a real process's.
  describe('a corrupt config.json', () => {
    const corrupt = '{"profiles": {"default": {"base_url": "https://x.example",';

    it('commands given everything by flags or environment still work, with one warning line', async () => {
      const env = { CSAFE_CONFIG_DIR: configDir(corrupt) };
      const byFlags = await runInProcess([...flags(), 'classify', '--text', 'hi', '--user-id', 'u', '--json'], { env });
      assert.equal(byFlags.code, 0, byFlags.stderr);
      assert.equal(JSON.parse(byFlags.stdout).user_id, 'u');
      assert.match(byFlags.stderr, /config\.json is not valid JSON/);
      const byEnv = await runInProcess(['classify', '--text', 'hi', '--user-id', 'u'], { env: { ...env, ...emulator.env } });
      assert.equal(byEnv.code, 0, byEnv.stderr);
    });

    it('every command that needs the file says which file is corrupt and how to fix it', async () => {
      const dir = configDir(corrupt);
      const env = { CSAFE_CONFIG_DIR: dir };
      const path = join(dir, 'config.json');
      for (const args of [['config', 'list'], ['config', 'get', 'base_url'], ['config', 'set', 'user_id', 'u'], ['auth', 'logout'], ['classify', '--text', 'hi', '--user-id', 'u']]) {
        const result = await runInProcess(args, { env });
        assertOneLine(result, 2, new RegExp(`error: config file ${path.replace(/[.]/g, '\\.')} is not valid JSON`));
        assert.match(result.stderr, /hint: .*repair it or remove it/);
      }
      assert.equal(readFileSync(path, 'utf8'), corrupt, 'the file is left as it was');
    });

    it('auth login says the file is corrupt before it reads the key or sends it to be checked', async () => {
      const dir = configDir(corrupt);
      await emulator.control('/_emulator/requests', { method: 'DELETE' });
      const result = await runInProcess(['--base-url', emulator.baseUrl, 'auth', 'login', '--with-token'], { env: { CSAFE_CONFIG_DIR: dir }, input: `${emulator.apiKey}\n` });
      assertOneLine(result, 2, /^error: config file .*config\.json is not valid JSON/);
      assert.deepEqual(await emulator.requests(), [], 'the key was not sent');
      assert.equal(readFileSync(join(dir, 'config.json'), 'utf8'), corrupt);
    });
  });

  describe('config values', () => {
    for (const [key, value] of [['request_timeout', '5x'], ['request_timeout', '0'], ['max_retries', '-1'], ['output', 'yaml'], ['base_url', 'garbage'], ['base_url', 'ftp://x.example']]) {
      it(`config set ${key} ${value} is refused like the flag, exit 2`, async () => {
        const env = { CSAFE_CONFIG_DIR: configDir() };
        const result = await runInProcess(['config', 'set', key!, value!], { env });
        assertOneLine(result, 2, new RegExp(`^error: ${key}: expected`));
        assert.equal((await runInProcess(['config', 'get', key!], { env })).stdout, '', 'nothing stored');
      });
    }

    it('a bad stored value names the profile key and the file; config commands still work to fix it', async () => {
      const dir = configDir(JSON.stringify({ profiles: { default: { request_timeout: '5x', output: 'yaml' } } }));
      const env = { CSAFE_CONFIG_DIR: dir, ...emulator.env };
      const output = await runInProcess(['classify', '--text', 'hi', '--user-id', 'u'], { env });
      assertOneLine(output, 2, /^error: output in profile "default" \(.*config\.json\): expected one of table, json, ndjson, tsv, got "yaml"/);
      const list = await runInProcess(['config', 'list'], { env });
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /5x/);
      assert.equal((await runInProcess(['config', 'get', 'output'], { env })).stdout, 'yaml\n');
      assert.equal((await runInProcess(['config', 'unset', 'output'], { env })).code, 0);
      const status = await runInProcess(['auth', 'status'], { env });
      assertOneLine(status, 2, /^error: request_timeout in profile "default" \(.*config\.json\): expected a duration .* got "5x"/);
      assert.doesNotMatch(status.stderr, /--request-timeout/);
      assert.equal((await runInProcess(['config', 'set', 'request_timeout', '30s'], { env })).code, 0);
      const fixed = await runInProcess(['classify', '--text', 'hi', '--user-id', 'u'], { env });
      assert.equal(fixed.code, 0, fixed.stderr);
    });

    it('--request-timeout 0 is a usage error from the flag, CSAFE_REQUEST_TIMEOUT and the profile', async () => {
      const run = (args: string[], env: Record<string, string> = {}) => runInProcess([...args, 'classify', '--text', 'hi', '--user-id', 'u'], { env: { ...emulator.env, ...env } });
      assertOneLine(await run(['--request-timeout', '0']), 2, /--request-timeout: expected a duration greater than 0/);
      assertOneLine(await run([], { CSAFE_REQUEST_TIMEOUT: '0s' }), 2, /CSAFE_REQUEST_TIMEOUT: expected a duration greater than 0/);
      const dir = configDir(JSON.stringify({ profiles: { default: { request_timeout: '0' } } }));
      assertOneLine(await run([], { CSAFE_CONFIG_DIR: dir }), 2, /request_timeout in profile "default" .*greater than 0/);
    });
  });

  describe('flags and arguments', () => {
    it('--concurrency 0 asks for a whole number ≥ 1', async () => {
      const classify = await runInProcess(['classify', '--batch', '-', '--user-id', 'u', '--concurrency', '0'], { env: emulator.env, input: '{"text":"a"}\n' });
      assertOneLine(classify, 2, /--concurrency: expected a whole number ≥ 1/);
      const add = await runInProcess(['data', 'add', 'ns', '-', '--concurrency', '0'], { env: emulator.env, input: '{"id":"a"}\n' });
      assertOneLine(add, 2, /--concurrency: expected a whole number ≥ 1/);
    });

    for (const name of ['.', '..']) {
      it(`namespace "${name}" is refused because it would change the URL path`, async () => {
        const result = await runInProcess(['data', 'add', name, '-'], { env: emulator.env, input: '{"id":"a"}\n' });
        assertOneLine(result, 2, /NAMESPACE "\.\.?": .*URL path/);
        assert.doesNotMatch(result.stderr, /whitespace/);
      });
    }

    for (const args of [['decision', 'get', '..'], ['decision', 'get', '.'], ['data', 'status', 'ns', '..'], ['data', 'status', 'ns', ''], ['batch', 'get', '..'], ['import', 'get', '.']]) {
      it(`${args.join(' ')} is refused before anything is sent: "." and ".." would move the request to another endpoint`, async () => {
        const before = (await emulator.requests()).length;
        const result = await runInProcess([...flags(), ...args]);
        assertOneLine(result, 2, /^error: <[a-z]+-id> (is empty|"\.\.?": "\." and "\.\." cannot name one: in the URL path they mean "this" and "parent", so the request would go to another address)$/m);
        assert.equal((await emulator.requests()).length, before);
      });
    }

    it('decision create --content or --metadata @FILE nested too deep: refused before sending, naming the file and line, exit 2', async () => {
      const dir = configDir();
      writeFileSync(join(dir, 'deep.json'), `{"text":\n${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
      const before = (await emulator.requests()).length;
      for (const flag of ['--content', '--metadata']) {
        const args = ['decision', 'create', '--type', 'text', ...(flag === '--content' ? ['--content', '@deep.json'] : ['--content', '{"text":"hi"}', '--metadata', '@deep.json'])];
        const result = await runCsafe([...flags(), ...args], { cwd: dir });
        assertOneLine(result, 2, new RegExp(`^error: ${flag}: deep\\.json:2: nested deeper than 64 levels of arrays and objects$`, 'm'));
      }
      assert.equal((await emulator.requests()).length, before);
    });

    it('a base URL with a user name and password is refused, shown masked: csafe never sends credentials from a URL', async () => {
      for (const args of [['--base-url', 'http://user:pa55@127.0.0.1:9', 'auth', 'status'], ['--base-url', 'https://user:pa55@example.com', 'decision', 'get', 'dec_1']]) {
        const result = await runInProcess(args, { env: { CSAFE_CONFIG_DIR: configDir(), CSAFE_API_KEY: 'sk_test_0123456789ab' } });
        assertOneLine(result, 2, /^error: --base-url: expected a URL without a user name or password, got "https?:\/\/\*\*\*@[^"]+": csafe sends the API key and never credentials from a URL$/m);
        assert.doesNotMatch(result.stderr + result.stdout, /pa55/);
      }
    });

    it('a base URL with a query or fragment, which the path of each request would follow, is refused before anything is sent (exit 2), its key parameter masked', async () => {
      const before = (await emulator.requests()).length;
      for (const [baseUrl, shown] of [
        [`${emulator.baseUrl}/#docs`, `${emulator.baseUrl}/#docs`],
        [`${emulator.baseUrl}?key=sk_in_url_0123456789`, `${emulator.baseUrl}/?key=[REDACTED]`],
      ]) {
        const result = await runInProcess(['--base-url', baseUrl, 'classify', '--text', 'hi', '--user-id', 'u1'], { env: { CSAFE_CONFIG_DIR: configDir(), CSAFE_API_KEY: emulator.apiKey } });
        assert.equal(result.code, 2, result.stderr);
        assert.equal(
          result.stderr,
          `error: --base-url: expected a URL without a query or fragment, got "${shown}": csafe adds each request's path to its end\nhint: remove the part from "?" or "#" on\n`,
        );
      }
      assert.equal((await emulator.requests()).length, before);
    });

    it('auth logout says so when no key was stored, exit 0', async () => {
      const env = { CSAFE_CONFIG_DIR: configDir() };
      const result = await runInProcess(['auth', 'logout'], { env });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /no API key was stored in profile "default"/);
      assert.doesNotMatch(result.stderr, /Removed/);
    });
  });

  it('an upload address that expires three times is a failure (exit 1), not an authentication error', async () => {
    const dir = configDir();
    const file = join(dir, 'objects.jsonl');
    writeFileSync(file, '{"id":"a","title":"x"}\n');
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { expired_upload_urls: 3 } });
    const result = await runCsafe(['data', 'import', 'ns', file], { env: { ...emulator.env, CSAFE_CONFIG_DIR: dir } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /error: .*upload address expired 3 times/);
  });
});
