import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigStore } from '../../src/core/config.js';
import { parseDuration } from '../../src/core/duration.js';
import { resolveOutputFormat } from '../../src/core/output.js';
import { checkBaseUrl, checkConfigValue, resolveProfileName, resolveSettings } from '../../src/core/settings.js';
import { tempDir } from '../helpers/cli.js';

describe('settings precedence', () => {
  const profile = { api_key: 'sk_profile_key_1', base_url: 'https://profile.example', timeout: '5s' };

  it('flag beats environment beats profile', () => {
    const env = { CSAFE_API_KEY: 'sk_env_key_12345', CSAFE_BASE_URL: 'https://env.example' };
    const withFlags = resolveSettings({ apiKey: 'sk_flag_key_1234' }, env, profile, 'default');
    assert.deepEqual(withFlags.apiKey, { value: 'sk_flag_key_1234', source: 'flag' });
    assert.deepEqual(withFlags.baseUrl, { value: 'https://env.example', source: 'env' });
    const fromProfile = resolveSettings({}, {}, profile, 'default');
    assert.deepEqual(fromProfile.apiKey, { value: 'sk_profile_key_1', source: 'profile' });
    assert.equal(fromProfile.timeoutMs, 5000);
  });

  it('falls back to defaults', () => {
    const settings = resolveSettings({}, {}, {}, 'default');
    assert.equal(settings.apiKey, undefined);
    assert.equal(settings.timeoutMs, 60_000);
    assert.equal(settings.maxRetries, 2);
    assert.equal(settings.maxWaitMs, 60_000);
  });

  it('picks the profile from --profile, then CSAFE_PROFILE', () => {
    assert.equal(resolveProfileName({ profile: 'a' }, { CSAFE_PROFILE: 'b' }), 'a');
    assert.equal(resolveProfileName({}, { CSAFE_PROFILE: 'b' }), 'b');
    assert.equal(resolveProfileName({}, {}), 'default');
  });

  it('rejects a bad --max-retries or --timeout as usage errors', () => {
    assert.throws(() => resolveSettings({ maxRetries: 'lots' }, {}, {}, 'default'), /--max-retries: expected a whole number/);
    assert.throws(() => resolveSettings({ timeout: '3 parsecs' }, {}, {}, 'default'), /--timeout: expected a duration/);
  });

  it('names where a bad value came from: flag, environment variable, or profile key and file', () => {
    assert.throws(() => resolveSettings({ timeout: '0' }, {}, {}, 'default'), /^UsageError: --timeout: expected a duration greater than 0, got "0"$/);
    assert.throws(() => resolveSettings({}, { CSAFE_TIMEOUT: '0ms' }, {}, 'default'), /^UsageError: CSAFE_TIMEOUT: expected a duration greater than 0/);
    assert.throws(() => resolveSettings({}, {}, { timeout: '5x' }, 'ci', '/home/u/.config/csafe/config.json'), /^UsageError: timeout in profile "ci" \(\/home\/u\/\.config\/csafe\/config\.json\): expected a duration/);
    assert.throws(() => resolveSettings({}, {}, { max_retries: '-1' }, 'default'), /^UsageError: max_retries in profile "default": expected a whole number/);
    assert.throws(() => resolveSettings({}, {}, { output: 'yaml' }, 'default'), /^UsageError: output in profile "default": expected one of table, json, ndjson/);
    assert.equal(resolveSettings({ output: 'json' }, {}, { output: 'yaml' }, 'default').output, 'json', 'a flag overrides a bad stored value');
  });

  it('checks a value for `config set` with the rules of its flag', () => {
    assert.throws(() => checkConfigValue('timeout', '5x'), /^UsageError: timeout: expected a duration/);
    assert.throws(() => checkConfigValue('max_retries', '-1'), /^UsageError: max_retries: expected a whole number/);
    assert.throws(() => checkConfigValue('output', 'yaml'), /^UsageError: output: expected one of/);
    assert.throws(() => checkConfigValue('base_url', 'garbage'), /^UsageError: base_url: expected an https:\/\/ or http:\/\/ URL, got "garbage"/);
    assert.throws(() => checkConfigValue('user_id', ''), /^UsageError: user_id: expected a non-empty/);
    for (const [key, value] of [['timeout', '30s'], ['max_retries', '0'], ['output', 'ndjson'], ['base_url', 'http://api.example'], ['user_id', 'u1']] as const) {
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

  it('defaults to table on a terminal and JSON in a pipe; --json wins', () => {
    assert.equal(resolveOutputFormat({}, true), 'table');
    assert.equal(resolveOutputFormat({}, false), 'json');
    assert.equal(resolveOutputFormat({ output: 'ndjson', json: true }, true), 'json');
    assert.throws(() => resolveOutputFormat({ output: 'xml' }, true), /--output/);
  });
});

describe('config store', () => {
  it('keeps profiles apart and writes the file with mode 0600', () => {
    const dir = join(tempDir('csafe-conf-'), 'nested');
    const store = new ConfigStore(dir);
    store.set('default', 'base_url', 'https://a.example');
    store.set('staging', 'base_url', 'https://b.example');
    store.set('staging', 'api_key', 'sk_stage_123456');
    store.unset('staging', 'api_key');
    assert.deepEqual(new ConfigStore(dir).profile('staging'), { base_url: 'https://b.example' });
    assert.deepEqual(new ConfigStore(dir).profileNames().sort(), ['default', 'staging']);
    assert.equal(statSync(store.path).mode & 0o777, 0o600);
  });
});
