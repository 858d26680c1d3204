import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configUnsetRun } from '../../../src/commands/config/run.js';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { storedConfig, writeProfiles } from '../../helpers/config-file.js';
import { commandTest, exitCodeOf } from '../../helpers/context.js';

// No test declares a request: config commands never talk to the service, and strict mode fails on any request.

test('config unset removes one setting of the profile, keeps the rest, and narrows the file to 0600', async (t) => {
  const run = await commandTest(t);
  writeProfiles(run, { default: { request_timeout: '30s', output: 'yaml' }, staging: { output: 'yaml' } });

  assert.equal(await exitCodeOf(configUnsetRun(run.ctx, 'output')), ExitCode.ok);

  assert.deepEqual(storedConfig(run), { profiles: { default: { request_timeout: '30s' }, staging: { output: 'yaml' } }, mode: 0o600 });
  assert.equal(run.stdout() + run.stderr(), '');
});

test('config unset of a key the profile does not hold succeeds', async (t) => {
  const run = await commandTest(t, { flags: { profile: 'staging' } });
  writeProfiles(run, { default: { request_timeout: '30s' }, staging: {} });

  assert.equal(await exitCodeOf(configUnsetRun(run.ctx, 'request_timeout')), ExitCode.ok);

  assert.deepEqual(storedConfig(run)?.profiles, { default: { request_timeout: '30s' }, staging: {} });
});

test('config unset --profile typo is a usage error listing the profiles, and changes nothing', async (t) => {
  const run = await commandTest(t, { flags: { profile: 'typo' } });
  writeProfiles(run, { default: { request_timeout: '30s' } });

  await assert.rejects(configUnsetRun(run.ctx, 'request_timeout'), { constructor: UsageError, message: 'unknown profile "typo" (from --profile); the profiles are: default' });

  assert.deepEqual(storedConfig(run), { profiles: { default: { request_timeout: '30s' } }, mode: 0o644 });
});

test('config unset of an unknown key is a usage error and changes nothing', async (t) => {
  const run = await commandTest(t);
  writeProfiles(run, { default: { request_timeout: '30s' } });

  await assert.rejects(configUnsetRun(run.ctx, 'timeouts'), { constructor: UsageError, message: /^unknown config key "timeouts": expected one of / });

  assert.deepEqual(storedConfig(run), { profiles: { default: { request_timeout: '30s' } }, mode: 0o644 });
});

test('config unset timeout removes the key an older csafe wrote (it is refused when read, so it must be removable)', async (t) => {
  const run = await commandTest(t);
  writeProfiles(run, { default: { timeout: '30s', output: 'json' } });

  assert.equal(await exitCodeOf(configUnsetRun(run.ctx, 'timeout')), ExitCode.ok);

  assert.deepEqual(storedConfig(run)?.profiles, { default: { output: 'json' } });
});
