import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authStatusRun } from '../../../src/commands/auth/status.js';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { DEFAULT_EMULATOR_API_KEY } from '../../../src/emulator/index.js';
import { configFile, writeProfiles } from '../../helpers/config-file.js';
import { commandTest, exitCodeOf } from '../../helpers/context.js';

const STORED_KEY = 'sk_live_0123456789abcdef9f2c';
const NO_ENV = { CSAFE_API_KEY: undefined, CSAFE_BASE_URL: undefined };

// No test declares a request: status reads settings only, and strict mode fails on any request.

test('auth status shows the key from the environment masked, with where each setting came from', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });

  assert.equal(await exitCodeOf(authStatusRun(run.ctx)), ExitCode.ok);

  assert.deepEqual(JSON.parse(run.stdout()), {
    profile: 'default',
    base_url: run.emulator.baseUrl,
    base_url_source: 'env',
    api_key: 'sk_…ator',
    api_key_source: 'env',
    config_file: configFile(run),
  });
  assert.ok(!run.stdout().includes(DEFAULT_EMULATOR_API_KEY));
  assert.equal(run.stderr(), '');
});

test('auth status: a stored profile is used when nothing else is set, and a flag beats it', async (t) => {
  const stored = await commandTest(t, { flags: { json: true }, env: NO_ENV });
  writeProfiles(stored, { default: { api_key: STORED_KEY, base_url: 'https://profile.example' } });
  assert.equal(await exitCodeOf(authStatusRun(stored.ctx)), ExitCode.ok);
  assert.deepEqual(JSON.parse(stored.stdout()), {
    profile: 'default',
    base_url: 'https://profile.example',
    base_url_source: 'profile',
    api_key: 'sk_…9f2c',
    api_key_source: 'profile',
    config_file: configFile(stored),
  });
  assert.ok(!stored.stdout().includes(STORED_KEY));

  const flagged = await commandTest(t, { flags: { json: true, apiKey: 'sk_flag_abcdefghijkl', baseUrl: 'https://flag.example' }, env: NO_ENV });
  writeProfiles(flagged, { default: { api_key: STORED_KEY, base_url: 'https://profile.example' } });
  assert.equal(await exitCodeOf(authStatusRun(flagged.ctx)), ExitCode.ok);
  const shown = JSON.parse(flagged.stdout()) as Record<string, string>;
  assert.deepEqual([shown.api_key, shown.api_key_source, shown.base_url, shown.base_url_source], ['sk_…ijkl', 'flag', 'https://flag.example', 'flag']);
});

test('auth status with no key anywhere prints the status, warns and exits 3', async (t) => {
  const run = await commandTest(t, { flags: { json: true }, env: NO_ENV });

  assert.equal(await exitCodeOf(authStatusRun(run.ctx)), ExitCode.auth);

  assert.deepEqual(JSON.parse(run.stdout()), {
    profile: 'default',
    base_url: null,
    base_url_source: null,
    api_key: null,
    api_key_source: null,
    config_file: configFile(run),
  });
  assert.equal(run.stderr(), 'no API key configured: run `csafe auth login` or set CSAFE_API_KEY\n');
});

test('auth status --profile typo is a usage error listing the profiles, even with a key in the environment', async (t) => {
  const run = await commandTest(t, { flags: { json: true, profile: 'typo' } });
  writeProfiles(run, { default: { api_key: STORED_KEY } });

  await assert.rejects(authStatusRun(run.ctx), { constructor: UsageError, message: 'unknown profile "typo" (from --profile); the profiles are: default' });
  assert.equal(run.stdout(), '');
});

test('auth status -o table in a pipe prints aligned key: value lines, -o tsv a header and one line', async (t) => {
  const run = await commandTest(t, { flags: { output: 'table' }, env: NO_ENV });
  writeProfiles(run, { default: { api_key: STORED_KEY } });

  assert.equal(await exitCodeOf(authStatusRun(run.ctx)), ExitCode.ok);

  assert.equal(
    run.stdout(),
    // A null (no base URL configured) shows as nothing, not the word null.
    ['profile:         default', 'base_url:', 'base_url_source:', 'api_key:         sk_…9f2c', 'api_key_source:  profile', `config_file:     ${configFile(run)}`, ''].join('\n'),
  );

  const tsv = await commandTest(t, { flags: { output: 'tsv' }, env: NO_ENV });
  writeProfiles(tsv, { default: { api_key: STORED_KEY } });
  assert.equal(await exitCodeOf(authStatusRun(tsv.ctx)), ExitCode.ok);
  assert.equal(tsv.stdout(), `profile\tbase_url\tbase_url_source\tapi_key\tapi_key_source\tconfig_file\ndefault\tnull\tnull\tsk_…9f2c\tprofile\t${configFile(tsv)}\n`);
});

test('auth status refuses a bad value stored in the profile, naming the key, the file and the fix', async (t) => {
  const run = await commandTest(t);
  writeProfiles(run, { default: { output: 'yaml' } });

  await assert.rejects(authStatusRun(run.ctx), {
    constructor: UsageError,
    message: `output in profile "default" (${configFile(run)}): expected one of table, json, ndjson, tsv, got "yaml"`,
    hint: 'fix it with `csafe config set output <value>` or `csafe config unset output`',
  });
  assert.equal(run.stdout(), '');
});
