import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configSetRun } from '../../../src/commands/config/run.js';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { configFile, storedConfig, writeProfiles } from '../../helpers/config-file.js';
import { commandTest, exitCodeOf } from '../../helpers/context.js';

// No test declares a request: config commands never talk to the service, and strict mode fails on any request.

test('config set creates the config file, mode 0600, holding the setting in the default profile', async (t) => {
  const run = await commandTest(t);

  assert.equal(await exitCodeOf(configSetRun(run.ctx, 'request_timeout', '30s')), ExitCode.ok);

  assert.deepEqual(storedConfig(run), { profiles: { default: { request_timeout: '30s' } }, mode: 0o600 });
  assert.equal(run.stdout() + run.stderr(), '');
});

test('config set replaces one setting, keeps the others and the other profiles, and narrows a wider file to 0600', async (t) => {
  const run = await commandTest(t);
  writeProfiles(run, { default: { request_timeout: '30s', output: 'json' }, staging: { request_timeout: '5m' } });

  assert.equal(await exitCodeOf(configSetRun(run.ctx, 'request_timeout', '2m')), ExitCode.ok);

  assert.deepEqual(storedConfig(run), { profiles: { default: { request_timeout: '2m', output: 'json' }, staging: { request_timeout: '5m' } }, mode: 0o600 });
});

test('config set --profile NEW creates that profile, says so on stderr, and leaves default alone', async (t) => {
  const run = await commandTest(t, { flags: { profile: 'staging' } });
  writeProfiles(run, { default: { base_url: 'https://service.example' } });

  assert.equal(await exitCodeOf(configSetRun(run.ctx, 'base_url', 'https://other.example')), ExitCode.ok);
  assert.equal(await exitCodeOf(configSetRun(run.ctx, 'user_id', 'u1')), ExitCode.ok);

  assert.deepEqual(storedConfig(run)?.profiles, { default: { base_url: 'https://service.example' }, staging: { base_url: 'https://other.example', user_id: 'u1' } });
  assert.equal(run.stderr(), `Created profile "staging" in ${configFile(run)}\n`, 'said once, when it was created');
});

test('config set accepts each key\'s valid values as its flag would (plain http:// is checked when used, not here)', async (t) => {
  const run = await commandTest(t);
  const values = { base_url: 'http://example.com', user_id: 'user_1', output: 'ndjson', request_timeout: '1500ms', max_retries: '0' };

  for (const [key, value] of Object.entries(values)) assert.equal(await exitCodeOf(configSetRun(run.ctx, key, value)), ExitCode.ok, key);

  assert.deepEqual(storedConfig(run)?.profiles, { default: values });
});

const KEYS = 'api_key, base_url, user_id, output, request_timeout, max_retries';

/** What config set refuses, each a usage error; the file stays as it was. */
const REFUSED: Array<[key: string, value: string, message: string]> = [
  ['colour', 'red', `unknown config key "colour": expected one of ${KEYS}`],
  // The key belongs to auth login, which keeps it out of shell history.
  ['api_key', 'sk_live_0123456789abcdef9f2c', 'use `csafe auth login` to store a key (it keeps the key out of shell history)'],
  ['request_timeout', '5x', 'request_timeout: expected a duration such as 30, 30s, 5m or 1h, got "5x"'],
  ['request_timeout', '0s', 'request_timeout: expected a duration greater than 0, got "0s"'],
  // The name an older csafe used: refused with the command that stores it under its new name.
  ['timeout', '30s', 'config key "timeout" is now "request_timeout" (the timeout of each request): csafe config set request_timeout 30s'],
  ['max_retries', '-1', 'max_retries: expected a whole number, got "-1"'],
  ['output', 'yaml', 'output: expected one of table, json, ndjson, tsv, got "yaml"'],
  ['base_url', 'garbage', 'base_url: expected an https:// or http:// URL, got "garbage"'],
  ['base_url', 'ftp://example.com', 'base_url: expected an https:// or http:// URL, got "ftp://example.com"'],
  ['user_id', '  ', 'user_id: expected a non-empty user id'],
];

for (const [key, value, message] of REFUSED) {
  test(`config set ${key} ${JSON.stringify(value)} is refused (as its flag would be) and changes nothing`, async (t) => {
    const run = await commandTest(t);
    writeProfiles(run, { default: { user_id: 'before' } });

    await assert.rejects(configSetRun(run.ctx, key, value), { constructor: UsageError, message });

    assert.deepEqual(storedConfig(run), { profiles: { default: { user_id: 'before' } }, mode: 0o644 });
  });
}

test('config set of an unknown key writes no file where there was none', async (t) => {
  const run = await commandTest(t);

  await assert.rejects(configSetRun(run.ctx, 'colour', 'red'), UsageError);

  assert.equal(storedConfig(run), undefined);
});
