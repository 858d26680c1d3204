import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authLogoutRun } from '../../../src/commands/auth/logout.js';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { storedConfig, writeProfiles } from '../../helpers/config-file.js';
import { commandTest, exitCodeOf } from '../../helpers/context.js';

const KEY = 'sk_live_0123456789abcdef9f2c';

test('auth logout removes the key of the profile and keeps its other settings and the other profiles', async (t) => {
  const run = await commandTest(t);
  writeProfiles(run, { default: { api_key: KEY, base_url: 'https://service.example' }, staging: { api_key: KEY } });

  assert.equal(await exitCodeOf(authLogoutRun(run.ctx)), ExitCode.ok);

  assert.deepEqual(storedConfig(run), { profiles: { default: { base_url: 'https://service.example' }, staging: { api_key: KEY } }, mode: 0o600 });
  assert.equal(run.stdout(), '');
  assert.equal(run.stderr(), 'Removed the API key from profile "default"\n');
});

test('auth logout of a profile that holds no key changes nothing and says so', async (t) => {
  const run = await commandTest(t, { flags: { profile: 'staging' } });
  writeProfiles(run, { default: { api_key: KEY }, staging: {} });

  assert.equal(await exitCodeOf(authLogoutRun(run.ctx)), ExitCode.ok);

  assert.deepEqual(storedConfig(run), { profiles: { default: { api_key: KEY }, staging: {} }, mode: 0o644 });
  assert.equal(run.stderr(), 'no API key was stored in profile "staging"; nothing to remove\n');
});

test('auth logout --profile typo is a usage error listing the profiles, and changes nothing', async (t) => {
  const run = await commandTest(t, { flags: { profile: 'typo' } });
  writeProfiles(run, { default: { api_key: KEY } });

  await assert.rejects(authLogoutRun(run.ctx), { constructor: UsageError, message: 'unknown profile "typo" (from --profile); the profiles are: default' });

  assert.deepEqual(storedConfig(run), { profiles: { default: { api_key: KEY } }, mode: 0o644 });
});
