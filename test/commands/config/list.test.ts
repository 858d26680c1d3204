import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { configListRun } from '../../../src/commands/config/run.js';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { writeProfiles } from '../../helpers/config-file.js';
import { commandTest, exitCodeOf, type TestContextOptions } from '../../helpers/context.js';

const PROFILE = { api_key: 'sk_live_0123456789abcdef9f2c', base_url: 'https://service.example', request_timeout: '30s' };

// No test declares a request: config commands never talk to the service, and strict mode fails on any request.

/** Lists the default profile of a file holding two; the run must succeed and write nothing to stderr. */
async function listed(t: TestContext, options: TestContextOptions) {
  const run = await commandTest(t, options);
  writeProfiles(run, { default: PROFILE, staging: { request_timeout: '5m' } });
  assert.equal(await exitCodeOf(configListRun(run.ctx)), ExitCode.ok);
  assert.equal(run.stderr(), '');
  return run.stdout();
}

test('config list -o json prints the profile as indented JSON, the key masked', async (t) => {
  const stdout = await listed(t, { flags: { output: 'json' } });

  assert.equal(stdout, JSON.stringify({ ...PROFILE, api_key: 'sk_…9f2c' }, null, 2) + '\n');
});

test('config list in a pipe prints JSON when no format is asked for', async (t) => {
  assert.deepEqual(JSON.parse(await listed(t, {})), { ...PROFILE, api_key: 'sk_…9f2c' });
});

test('config list -o ndjson prints the profile on one line', async (t) => {
  assert.equal(await listed(t, { flags: { output: 'ndjson' } }), JSON.stringify({ ...PROFILE, api_key: 'sk_…9f2c' }) + '\n');
});

test('config list -o table in a pipe prints aligned key: value lines, -o tsv a header and one line', async (t) => {
  assert.equal(await listed(t, { flags: { output: 'table' } }), 'api_key:         sk_…9f2c\nbase_url:        https://service.example\nrequest_timeout: 30s\n');
  assert.equal(await listed(t, { flags: { output: 'tsv' } }), 'api_key\tbase_url\trequest_timeout\nsk_…9f2c\thttps://service.example\t30s\n');
});

test('config list on a terminal is a key: value view, without borders', async (t) => {
  const stdout = await listed(t, { tty: true });

  assert.match(stdout, /^request_timeout: +30s$/m);
  assert.doesNotMatch(stdout, /[┌│─\t]/);
  assert.ok(!stdout.includes(PROFILE.api_key));
});

test('config list masks a user name and password in base_url, as it masks the key', async (t) => {
  const run = await commandTest(t, { flags: { output: 'json' } });
  writeProfiles(run, { default: { base_url: 'https://alice:hunter2pw@service.example/v' } });

  assert.equal(await exitCodeOf(configListRun(run.ctx)), ExitCode.ok);
  assert.deepEqual(JSON.parse(run.stdout()), { base_url: 'https://***@service.example/v' });
});

test('config list --profile typo is a usage error listing the profiles', async (t) => {
  const run = await commandTest(t, { flags: { profile: 'typo', json: true } });
  writeProfiles(run, { default: PROFILE, staging: { request_timeout: '5m' } });

  await assert.rejects(configListRun(run.ctx), { constructor: UsageError, message: 'unknown profile "typo" (from --profile); the profiles are: default, staging' });
  assert.equal(run.stdout(), '');
});

test('config list keeps working while the profile holds a bad output value (the format comes from flags alone)', async (t) => {
  const run = await commandTest(t);
  writeProfiles(run, { default: { output: 'yaml' } });

  assert.equal(await exitCodeOf(configListRun(run.ctx)), ExitCode.ok);

  assert.deepEqual(JSON.parse(run.stdout()), { output: 'yaml' });
});

test('config list -o yaml is a usage error naming the flag', async (t) => {
  const run = await commandTest(t, { flags: { output: 'yaml' } });

  await assert.rejects(configListRun(run.ctx), { constructor: UsageError, message: '--output: expected one of table, json, ndjson, tsv, got "yaml"' });
  assert.equal(run.stdout(), '');
});
