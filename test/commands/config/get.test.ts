import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { configGetRun } from '../../../src/commands/config/run.js';
import { CorruptConfigError, ExitCode, UsageError } from '../../../src/core/errors.js';
import { configFile, writeProfiles } from '../../helpers/config-file.js';
import { commandTest, exitCodeOf } from '../../helpers/context.js';

// No test declares a request: config commands never talk to the service, and strict mode fails on any request.

const PRINTED: Array<[what: string, key: string, line: string]> = [
  ['the value stored in the profile', 'request_timeout', '30s\n'],
  ['the key masked', 'api_key', 'sk_…9f2c\n'],
  ['base_url with its user name and password masked', 'base_url', 'https://***@service.example\n'],
  ['a bad value as it is, so it can be seen and fixed', 'output', 'yaml\n'],
];

for (const [what, key, line] of PRINTED) {
  test(`config get prints ${what}, one line, whatever -o says`, async (t) => {
    const run = await commandTest(t, { flags: { json: true } });
    writeProfiles(run, { default: { request_timeout: '30s', api_key: 'sk_live_0123456789abcdef9f2c', output: 'yaml', base_url: 'https://alice:hunter2pw@service.example' }, staging: { request_timeout: '5m' } });

    assert.equal(await exitCodeOf(configGetRun(run.ctx, key)), ExitCode.ok);

    assert.equal(run.stdout(), line);
    assert.equal(run.stderr(), '');
  });
}

test('config get of a key the profile does not hold prints nothing and exits 1 (the environment does not count)', async (t) => {
  const run = await commandTest(t);
  writeProfiles(run, { default: { request_timeout: '30s' } });

  // CSAFE_BASE_URL is set by the helper: config get reads the profile only.
  assert.equal(await exitCodeOf(configGetRun(run.ctx, 'base_url')), ExitCode.failure);

  assert.equal(run.stdout() + run.stderr(), '');
});

test('config get --profile typo is a usage error listing the profiles (not an empty profile), from the flag or CSAFE_PROFILE', async (t) => {
  const run = await commandTest(t, { flags: { profile: 'typo' } });
  writeProfiles(run, { default: { request_timeout: '30s' }, staging: {} });
  await assert.rejects(configGetRun(run.ctx, 'request_timeout'), {
    constructor: UsageError,
    message: 'unknown profile "typo" (from --profile); the profiles are: default, staging',
    hint: 'create it with `csafe --profile typo auth login` or `csafe --profile typo config set <key> <value>`',
  });

  const fromEnv = await commandTest(t, { env: { CSAFE_PROFILE: 'typo' } });
  await assert.rejects(configGetRun(fromEnv.ctx, 'request_timeout'), { constructor: UsageError, message: 'unknown profile "typo" (from CSAFE_PROFILE); the profiles are: default' });
  assert.equal(run.stdout() + fromEnv.stdout(), '');
});

test('config get of the default profile with no config file at all is no error: the setting is not set (exit 1)', async (t) => {
  const run = await commandTest(t, { flags: { profile: 'default' } });

  assert.equal(await exitCodeOf(configGetRun(run.ctx, 'request_timeout')), ExitCode.failure);

  assert.equal(run.stdout() + run.stderr(), '');
});

test('config get of an unknown key is a usage error listing the keys', async (t) => {
  const run = await commandTest(t);

  await assert.rejects(configGetRun(run.ctx, 'colour'), {
    constructor: UsageError,
    message: 'unknown config key "colour": expected one of api_key, base_url, user_id, output, request_timeout, max_retries',
  });
  assert.equal(run.stdout(), '');
});

test('config get names a config file that is not JSON', async (t) => {
  const run = await commandTest(t);
  mkdirSync(dirname(configFile(run)), { recursive: true });
  writeFileSync(configFile(run), '{"profiles": ');

  await assert.rejects(configGetRun(run.ctx, 'request_timeout'), { constructor: CorruptConfigError, message: new RegExp(`^config file ${configFile(run)} is not valid JSON \\(line 1, column 14\\)$`) });
});
