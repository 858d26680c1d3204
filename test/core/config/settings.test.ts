import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigStore } from '../../../src/core/config/store.js';
import { parseDuration } from '../../../src/core/cli/duration.js';
import { resolveOutputFormat } from '../../../src/core/terminal/output.js';
import { checkApiKey, checkBaseUrl, checkConfigValue, isLoopback, resolveProfile, resolveSettings } from '../../../src/core/config/settings.js';
import { UsageError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';
import { canListDescriptors, descriptorsOn } from '../../helpers/descriptors.js';

describe('settings precedence', () => {
  const profile = { api_key: 'sk_profile_key_1', base_url: 'https://profile.example', request_timeout: '5s' };

  it('flag beats environment beats profile', () => {
    const env = { CSAFE_API_KEY: 'sk_env_key_12345', CSAFE_BASE_URL: 'https://env.example' };
    const withFlags = resolveSettings({ apiKey: 'sk_flag_key_1234' }, env, profile, 'default');
    assert.deepEqual(withFlags.apiKey, { value: 'sk_flag_key_1234', source: 'flag' });
    assert.deepEqual(withFlags.baseUrl, { value: 'https://env.example', source: 'env' });
    const fromProfile = resolveSettings({}, {}, profile, 'default');
    assert.deepEqual(fromProfile.apiKey, { value: 'sk_profile_key_1', source: 'profile' });
    assert.equal(fromProfile.requestTimeoutMs, 5000);
  });

  it('falls back to defaults', () => {
    const settings = resolveSettings({}, {}, {}, 'default');
    assert.equal(settings.apiKey, undefined);
    assert.equal(settings.requestTimeoutMs, 60_000);
    assert.equal(settings.maxRetries, 2);
    assert.equal(settings.maxWaitMs, 60_000);
  });

  it('picks the profile from --profile, then CSAFE_PROFILE', () => {
    assert.deepEqual(resolveProfile({ profile: 'a' }, { CSAFE_PROFILE: 'b' }), { value: 'a', source: 'flag' });
    assert.deepEqual(resolveProfile({}, { CSAFE_PROFILE: 'b' }), { value: 'b', source: 'env' });
    assert.deepEqual(resolveProfile({}, { CSAFE_PROFILE: '' }), { value: 'default', source: 'default' });
    assert.deepEqual(resolveProfile({}, {}), { value: 'default', source: 'default' });
  });

  it('rejects a bad --max-retries or --request-timeout as usage errors', () => {
    assert.throws(() => resolveSettings({ maxRetries: 'lots' }, {}, {}, 'default'), /--max-retries: expected a whole number/);
    assert.throws(() => resolveSettings({ requestTimeout: '3 parsecs' }, {}, {}, 'default'), /--request-timeout: expected a duration/);
  });

  it('names where a bad value came from: flag, environment variable, or profile key and file', () => {
    assert.throws(() => resolveSettings({ requestTimeout: '0' }, {}, {}, 'default'), /^UsageError: --request-timeout: expected a duration greater than 0, got "0"$/);
    assert.throws(() => resolveSettings({ requestTimeout: '-5s' }, {}, {}, 'default'), /^UsageError: --request-timeout: expected a duration greater than 0, got "-5s"$/);
    assert.throws(() => resolveSettings({}, { CSAFE_REQUEST_TIMEOUT: '0ms' }, {}, 'default'), /^UsageError: CSAFE_REQUEST_TIMEOUT: expected a duration greater than 0/);
    assert.throws(() => resolveSettings({}, {}, { request_timeout: '5x' }, 'ci', '/home/u/.config/csafe/config.json'), /^UsageError: request_timeout in profile "ci" \(\/home\/u\/\.config\/csafe\/config\.json\): expected a duration/);
    assert.throws(() => resolveSettings({}, {}, { max_retries: '-1' }, 'default'), /^UsageError: max_retries in profile "default": expected a whole number/);
    assert.throws(() => resolveSettings({}, {}, { output: 'yaml' }, 'default'), /^UsageError: output in profile "default": expected one of table, json, ndjson/);
    assert.equal(resolveSettings({ output: 'json' }, {}, { output: 'yaml' }, 'default').output, 'json', 'a flag overrides a bad stored value');
  });

  it('refuses a request timeout or --max-wait longer than a timer can wait, which would fire after 1 ms', () => {
    assert.throws(() => resolveSettings({ requestTimeout: '1000h' }, {}, {}, 'default'), /^UsageError: --request-timeout: expected at most 596h, the longest a timer can wait, got "1000h"$/);
    assert.throws(() => resolveSettings({}, { CSAFE_REQUEST_TIMEOUT: '99999999999999s' }, {}, 'default'), /^UsageError: CSAFE_REQUEST_TIMEOUT: expected at most 596h/);
    assert.throws(() => resolveSettings({ maxWait: '597h' }, {}, {}, 'default'), /^UsageError: --max-wait: expected at most 596h/);
    assert.throws(() => checkConfigValue('request_timeout', '597h'), /^UsageError: request_timeout: expected at most 596h/);
    assert.equal(resolveSettings({ requestTimeout: '596h', maxWait: '596h' }, {}, {}, 'default').requestTimeoutMs, 596 * 3_600_000);
  });

  it('checks a value for `config set` with the rules of its flag', () => {
    assert.throws(() => checkConfigValue('request_timeout', '5x'), /^UsageError: request_timeout: expected a duration/);
    assert.throws(() => checkConfigValue('request_timeout', '0s'), /^UsageError: request_timeout: expected a duration greater than 0/);
    assert.throws(() => checkConfigValue('max_retries', '-1'), /^UsageError: max_retries: expected a whole number/);
    assert.throws(() => checkConfigValue('output', 'yaml'), /^UsageError: output: expected one of/);
    assert.throws(() => checkConfigValue('base_url', 'garbage'), /^UsageError: base_url: expected an https:\/\/ or http:\/\/ URL, got "garbage"/);
    assert.throws(() => checkConfigValue('user_id', ''), /^UsageError: user_id: expected a non-empty/);
    for (const [key, value] of [['request_timeout', '30s'], ['max_retries', '0'], ['output', 'ndjson'], ['output', 'tsv'], ['base_url', 'http://api.example'], ['user_id', 'u1']] as const) {
      assert.doesNotThrow(() => checkConfigValue(key, value));
    }
  });
});

describe('base URL checks', () => {
  it('allows https anywhere and http only on loopback unless --insecure', () => {
    assert.equal(checkBaseUrl({ value: 'https://api.example/', source: 'flag' }, false), 'https://api.example');
    assert.equal(checkBaseUrl({ value: 'http://127.0.0.1:4477', source: 'flag' }, false), 'http://127.0.0.1:4477');
    assert.equal(checkBaseUrl({ value: 'http://localhost:1', source: 'flag' }, false), 'http://localhost:1');
    assert.throws(() => checkBaseUrl({ value: 'http://api.example', source: 'env' }, false), /plain http/);
    assert.equal(checkBaseUrl({ value: 'http://api.example', source: 'env' }, true), 'http://api.example');
    assert.throws(() => checkBaseUrl({ value: 'ftp://x', source: 'env' }, false), /https/);
  });
});

describe('durations and output format', () => {
  it('parses durations', () => {
    assert.equal(parseDuration('90', '--x'), 90_000);
    assert.equal(parseDuration('500ms', '--x'), 500);
    assert.equal(parseDuration('30m', '--x'), 1_800_000);
    assert.equal(parseDuration('1h30m', '--x'), 5_400_000);
  });

  it('defaults to table on a terminal and JSON in a pipe; --json with another --output is a conflict', () => {
    assert.equal(resolveOutputFormat({}, true, 'single'), 'table');
    assert.equal(resolveOutputFormat({}, false, 'single'), 'json');
    assert.throws(() => resolveOutputFormat({ output: 'ndjson', json: true }, true, 'single'), /conflict/);
    assert.throws(() => resolveOutputFormat({ output: 'xml' }, true, 'single'), /--output/);
  });
});

describe('config store', () => {
  it('keeps profiles apart and writes the file with mode 0600', async () => {
    const dir = join(tempDir('csafe-conf-'), 'nested');
    const store = new ConfigStore(dir);
    await store.set('default', 'base_url', 'https://a.example');
    await store.set('staging', 'base_url', 'https://b.example');
    await store.set('staging', 'api_key', 'sk_stage_123456');
    await store.unset('staging', 'api_key');
    assert.deepEqual(new ConfigStore(dir).profile('staging'), { base_url: 'https://b.example' });
    assert.deepEqual(new ConfigStore(dir).profileNames().sort(), ['default', 'staging']);
    assert.equal(statSync(store.path).mode & 0o777, 0o600);
  });
});

describe('settings: each value and where it came from', () => {
  it('skips empty values at each level', () => {
    const settings = resolveSettings({ apiKey: '', baseUrl: '' }, { CSAFE_API_KEY: '', CSAFE_BASE_URL: 'https://env.example' }, { api_key: 'sk_p_123456789', base_url: 'https://p.example', user_id: '' }, 'default');
    assert.deepEqual(settings.apiKey, { value: 'sk_p_123456789', source: 'profile' });
    assert.deepEqual(settings.baseUrl, { value: 'https://env.example', source: 'env' });
    assert.equal(settings.userId, undefined);
    assert.equal(resolveSettings({}, {}, { api_key: '' }, 'default').apiKey, undefined);
  });

  it('takes every value from the flag, the environment or the profile', () => {
    const fromFlags = resolveSettings(
      { requestTimeout: '2s', maxRetries: '4', output: 'ndjson', maxWait: '2m', insecure: true, baseUrl: 'https://f.example' },
      { CSAFE_REQUEST_TIMEOUT: '3s', CSAFE_MAX_RETRIES: '5', CSAFE_OUTPUT: 'json', CSAFE_USER_ID: 'env-user' },
      { request_timeout: '4s', max_retries: '6', output: 'table', user_id: 'profile-user' },
      'ci',
    );
    assert.deepEqual(fromFlags, {
      profile: 'ci',
      apiKey: undefined,
      baseUrl: { value: 'https://f.example', source: 'flag' },
      userId: { value: 'env-user', source: 'env' },
      output: 'ndjson',
      requestTimeoutMs: 2_000,
      maxRetries: 4,
      maxWaitMs: 120_000,
      insecure: true,
    });
    const fromEnv = resolveSettings({}, { CSAFE_REQUEST_TIMEOUT: '3s', CSAFE_MAX_RETRIES: '5', CSAFE_OUTPUT: 'json' }, { request_timeout: '4s', max_retries: '6', user_id: 'profile-user' }, 'ci');
    assert.deepEqual([fromEnv.requestTimeoutMs, fromEnv.maxRetries, fromEnv.output, fromEnv.userId, fromEnv.insecure], [3_000, 5, undefined, { value: 'profile-user', source: 'profile' }, false]);
    const fromProfile = resolveSettings({}, {}, { request_timeout: '4s', max_retries: '6', output: 'table' }, 'ci');
    assert.deepEqual([fromProfile.requestTimeoutMs, fromProfile.maxRetries, fromProfile.output], [4_000, 6, 'table']);
    assert.equal(resolveSettings({ maxWait: '' }, {}, {}, 'ci').maxWaitMs, 60_000);
    assert.throws(() => resolveSettings({ maxWait: 'soon' }, {}, {}, 'ci'), /^UsageError: --max-wait: expected a duration/);
    assert.equal(resolveSettings({ maxWait: '0' }, {}, {}, 'ci').maxWaitMs, 0, '--max-wait 0: never sleep through a Retry-After');
  });

  it('names a bad base URL or user id by its flag or variable, and a bad profile value with how to fix it', () => {
    assert.throws(() => resolveSettings({ baseUrl: 'nope' }, {}, {}, 'default'), (error: unknown) => error instanceof UsageError && error.message === '--base-url: expected an https:// or http:// URL, got "nope"' && error.hint === undefined);
    assert.throws(() => resolveSettings({}, { CSAFE_USER_ID: ' ' }, {}, 'default'), (error: unknown) => error instanceof UsageError && error.message === 'CSAFE_USER_ID: expected a non-empty user id');
    assert.throws(
      () => resolveSettings({}, {}, { base_url: 'ftp://x' }, 'ci'),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message === 'base_url in profile "ci": expected an https:// or http:// URL, got "ftp://x"' &&
        error.hint === 'fix it with `csafe --profile ci config set base_url <value>` or `csafe --profile ci config unset base_url`',
    );
    assert.throws(
      () => resolveSettings({}, {}, { request_timeout: '0' }, 'default'),
      (error: unknown) => error instanceof UsageError && error.hint === 'fix it with `csafe config set request_timeout <value>` or `csafe config unset request_timeout`',
    );
  });

  it('refuses the old CSAFE_TIMEOUT and profile key timeout, naming what replaced them, rather than ignore them', () => {
    assert.throws(
      () => resolveSettings({}, { CSAFE_TIMEOUT: '30s' }, {}, 'default'),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message === 'CSAFE_TIMEOUT is no longer read: the timeout of each request is now CSAFE_REQUEST_TIMEOUT' &&
        error.hint === 'rename it: CSAFE_REQUEST_TIMEOUT=30s',
    );
    assert.throws(
      () => resolveSettings({}, {}, { timeout: '30s' }, 'ci', '/home/u/.config/csafe/config.json'),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message === 'timeout in profile "ci" (/home/u/.config/csafe/config.json) is no longer read: the timeout of each request is now request_timeout' &&
        error.hint === 'rename it: `csafe --profile ci config set request_timeout 30s` then `csafe --profile ci config unset timeout`',
    );
    assert.throws(() => resolveSettings({ requestTimeout: '5s' }, { CSAFE_TIMEOUT: '30s' }, {}, 'default'), /CSAFE_TIMEOUT is no longer read/, 'refused even when the new flag is given');
    assert.throws(
      () => resolveSettings({}, {}, { timeout: '30 s' }, 'my work'),
      (error: unknown) => error instanceof UsageError && error.hint === "rename it: `csafe --profile 'my work' config set request_timeout '30 s'` then `csafe --profile 'my work' config unset timeout`",
      'the commands of a hint run as printed, whatever the profile is called',
    );
    assert.throws(() => resolveSettings({}, { CSAFE_TIMEOUT: '30 s' }, {}, 'default'), (error: unknown) => error instanceof UsageError && error.hint === "rename it: CSAFE_REQUEST_TIMEOUT='30 s'");
    assert.equal(resolveSettings({}, { CSAFE_TIMEOUT: '' }, {}, 'default').requestTimeoutMs, 60_000, 'an empty variable is no setting');
  });

  it('names a bad flag or variable in the message of its own rule; an API key has no rule', () => {
    assert.throws(() => resolveSettings({ output: 'xml' }, {}, {}, 'default'), (error: unknown) => error instanceof UsageError && error.message.startsWith('--output: expected one of'));
    assert.throws(() => resolveSettings({}, { CSAFE_MAX_RETRIES: 'x' }, {}, 'default'), (error: unknown) => error instanceof UsageError && error.message === 'CSAFE_MAX_RETRIES: expected a whole number, got "x"');
    assert.throws(() => resolveSettings({ maxRetries: 'x' }, {}, {}, 'default'), (error: unknown) => error instanceof UsageError && error.message === '--max-retries: expected a whole number, got "x"');
    assert.throws(() => resolveSettings({}, { CSAFE_BASE_URL: 'x' }, {}, 'default'), (error: unknown) => error instanceof UsageError && error.message === 'CSAFE_BASE_URL: expected an https:// or http:// URL, got "x"');
    assert.doesNotThrow(() => checkConfigValue('api_key', ''));
  });

  it('tells loopback hosts from others', () => {
    assert.deepEqual(
      ['localhost', '[::1]', '::1', '127.0.0.1', '127.255.1.2', '127.0.10.12'].map(isLoopback),
      [true, true, true, true, true, true],
    );
    assert.deepEqual(['128.0.0.1', 'a127.0.0.1', '127.0.0.1.example', '127.0.0', 'localhost.example', '10.0.0.1'].map(isLoopback), [false, false, false, false, false, false]);
  });

  it('refuses plain http to another host with a hint, names the source of a bad URL, and trims trailing slashes', () => {
    assert.throws(
      () => checkBaseUrl({ value: 'http://api.example/', source: 'profile' }, false),
      (error: unknown) => error instanceof UsageError && error.message === 'refusing to send the API key over plain http:// to api.example' && error.hint === 'use https://, or pass --insecure if you really mean it',
    );
    assert.throws(() => checkBaseUrl({ value: 'ftp://x', source: 'env' }, true), (error: unknown) => error instanceof UsageError && error.message === 'base URL (from env): expected an https:// or http:// URL, got "ftp://x"');
    assert.equal(checkBaseUrl({ value: 'https://api.example/v1///', source: 'flag' }, false), 'https://api.example/v1');
    assert.equal(checkBaseUrl({ value: 'http://[::1]:8080/', source: 'flag' }, false), 'http://[::1]:8080');
  });
  it('refuses a user name or password in the base URL, showing it masked, with how to fix it', () => {
    for (const value of ['https://user:pa55word@api.example', 'https://user@api.example', 'https://:pa55word@api.example']) {
      assert.throws(() => checkBaseUrl({ value, source: 'flag' }, false), (error: unknown) =>
        error instanceof UsageError &&
        error.message === 'base URL (from flag): expected a URL without a user name or password, got "https://***@api.example": csafe sends the API key and never credentials from a URL' &&
        error.hint === 'remove the "user:password@" part');
    }
  });
});

describe('profile names', () => {
  it('refuses a blank name, one with a control character and __proto__, naming where it came from', () => {
    for (const name of ['', '  ', 'a\nb', 'tab\tbed', '__proto__']) {
      const expected = `is not a profile name: expected a name with no control characters, not blank and not __proto__`;
      assert.throws(() => resolveProfile({ profile: name }, {}), (error: unknown) => error instanceof UsageError && error.message === `--profile: ${JSON.stringify(name)} ${expected}`);
      if (name !== '') assert.throws(() => resolveProfile({}, { CSAFE_PROFILE: name }), (error: unknown) => error instanceof UsageError && error.message === `CSAFE_PROFILE: ${JSON.stringify(name)} ${expected}`);
    }
    assert.deepEqual(resolveProfile({ profile: 'staging eu' }, {}), { value: 'staging eu', source: 'flag' });
  });
});

describe('--api-key-file', () => {
  const dir = tempDir();
  const keyFile = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };
  const HINT = 'give a file whose first line is the key, readable by you alone (chmod 600)';

  it("takes the key from the file's first line, without its line end, before CSAFE_API_KEY and the profile", () => {
    for (const text of ['sk_file_key_1234\n', 'sk_file_key_1234\r\nsecond line\n', 'sk_file_key_1234']) {
      const settings = resolveSettings({ apiKeyFile: keyFile('key', text) }, { CSAFE_API_KEY: 'sk_env_key_12345' }, { api_key: 'sk_profile_key_1' }, 'default');
      assert.deepEqual(settings.apiKey, { value: 'sk_file_key_1234', source: 'file' });
    }
  });

  it('reads at most 64 KiB of the file: a key on a first line past that is cut there', () => {
    const settings = resolveSettings({ apiKeyFile: keyFile('long', `${'k'.repeat(70_000)}\n`) }, {}, {}, 'default');
    assert.equal((settings.apiKey!.value as string).length, 64 * 1024);
  });

  it('refuses it with --api-key, and a file that is missing, a directory or has an empty first line, naming the file', () => {
    const refused = (flags: { apiKey?: string; apiKeyFile?: string }, message: string, hint?: string) =>
      assert.throws(() => resolveSettings(flags, {}, {}, 'default'), (error: unknown) => error instanceof UsageError && error.message === message && error.hint === hint);
    refused({ apiKey: 'sk_flag_key_1234', apiKeyFile: keyFile('both', 'sk_file_key_1234\n') }, '--api-key and --api-key-file both give the key: give one of them');
    refused({ apiKeyFile: join(dir, 'missing') }, `--api-key-file ${join(dir, 'missing')}: no such file`, HINT);
    refused({ apiKeyFile: dir }, `--api-key-file ${dir}: not a regular file`);
    refused({ apiKeyFile: keyFile('empty-line', '\nsk_file_key_1234\n') }, `--api-key-file ${join(dir, 'empty-line')}: its first line is empty, expected the key`);
    refused({ apiKeyFile: keyFile('empty', '') }, `--api-key-file ${join(dir, 'empty')}: its first line is empty, expected the key`);
    const underFile = join(keyFile('plain', 'x\n'), 'key');
    refused({ apiKeyFile: underFile }, `--api-key-file ${underFile}: ENOTDIR: not a directory, open '${underFile}'`, HINT);
  });

  it('closes the file once read, a key or not', { skip: !canListDescriptors && 'needs /proc/self/fd' }, () => {
    const key = keyFile('closed', 'sk_file_key_1234\n');
    resolveSettings({ apiKeyFile: key }, {}, {}, 'default');
    assert.throws(() => resolveSettings({ apiKeyFile: dir }, {}, {}, 'default'), UsageError);
    assert.equal(descriptorsOn(key), 0);
    assert.equal(descriptorsOn(dir), 0);
  });
});

describe('checkApiKey', () => {
  it('takes a key alone, and refuses one with white space or a control character, naming where it came from and how to fix it', () => {
    assert.equal(checkApiKey({ value: 'sk_live_abc123', source: 'env' }, 'default'), 'sk_live_abc123');
    const refused = (source: 'flag' | 'file' | 'env' | 'profile', profile: string, where: string, hint: string) =>
      assert.throws(() => checkApiKey({ value: 'sk_live_abc123\n', source }, profile), (error: unknown) =>
        error instanceof UsageError && error.message === `the API key from ${where} contains white space or a control character` && error.hint === hint, source);
    refused('flag', 'default', '--api-key', 'give the key alone, as the service issued it');
    refused('file', 'default', '--api-key-file', 'give the key alone, as the service issued it');
    refused('env', 'default', 'CSAFE_API_KEY', 'give the key alone, as the service issued it');
    refused('profile', 'default', 'api_key of profile "default"', 'store it again: `csafe auth login`');
    refused('profile', 'staging', 'api_key of profile "staging"', 'store it again: `csafe --profile staging auth login`');
    for (const key of ['', 'sk live', 'sk\tlive', 'sk\u0000live', 'sk\u0085live']) assert.throws(() => checkApiKey({ value: key, source: 'flag' }, 'default'), UsageError, JSON.stringify(key));
  });
});
