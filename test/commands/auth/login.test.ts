import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authLoginRun } from '../../../src/commands/auth/login.js';
import { AuthenticationError, ExitCode, UsageError } from '../../../src/core/errors.js';
import { DEFAULT_EMULATOR_API_KEY } from '../../../src/emulator/index.js';
import { configFile, storedConfig } from '../../helpers/config-file.js';
import { commandTest, exitCodeOf, jsonBody, type CommandTest } from '../../helpers/context.js';

const KEY = 'sk_live_0123456789abcdef9f2c';

/** Nothing the run wrote shows the key; the file is the only place it goes. */
const assertKeyNotPrinted = (run: CommandTest, key: string) => assert.ok(!(run.stdout() + run.stderr()).includes(key), `the key was printed:\n${run.stderr()}`);

/** No CSAFE_API_KEY, which would make login warn that it overrides the stored key. */
const NO_ENV_KEY = { CSAFE_API_KEY: undefined };
const UNCHECKED = { withToken: true, verify: false };

// Strict mode fails on any request a test does not declare: with --no-verify, login asks the service nothing.

test('auth login checks the key with one POST /v1/content (empty body: a 400, nothing classified) and then stores it', async (t) => {
  const run = await commandTest(t, { stdin: { text: `${DEFAULT_EMULATOR_API_KEY}\n` }, env: NO_ENV_KEY });
  run.expect({ method: 'POST', path: '/v1/content', body: jsonBody({}) });

  assert.equal(await exitCodeOf(authLoginRun(run.ctx, { withToken: true })), ExitCode.ok);

  assert.deepEqual(storedConfig(run)?.profiles, { default: { api_key: DEFAULT_EMULATOR_API_KEY } });
  assert.equal(run.stderr(), `Stored key sk_…ator in profile "default" (${configFile(run)})\n`);
});

test('auth login with a key the service refuses throws its 401 (exit 3) with a hint, and stores nothing', async (t) => {
  const run = await commandTest(t, { stdin: { text: KEY }, env: NO_ENV_KEY });
  run.expect({ method: 'POST', path: '/v1/content' });

  await assert.rejects(authLoginRun(run.ctx, { withToken: true }), {
    constructor: AuthenticationError,
    hint: 'the service refused the key, so nothing was stored; check it and run `csafe auth login` again',
  });

  assert.equal(storedConfig(run), undefined);
  assertKeyNotPrinted(run, KEY);
});

test('auth login --with-token stores the key read from stdin in the profile, 0600, and names it masked', async (t) => {
  const run = await commandTest(t, { stdin: { text: `${KEY}\n` }, env: NO_ENV_KEY });

  assert.equal(await exitCodeOf(authLoginRun(run.ctx, UNCHECKED)), ExitCode.ok);

  assert.deepEqual(storedConfig(run), { profiles: { default: { api_key: KEY } }, mode: 0o600 });
  assert.equal(run.stdout(), '');
  assert.equal(run.stderr(), `Stored key sk_…9f2c in profile "default" (${configFile(run)})\n`);
  assertKeyNotPrinted(run, KEY);
  assert.ok(run.ctx.secrets.has(KEY), 'the key is a secret the error reporter redacts');
});

test('auth login --base-url stores the base URL (trailing slashes trimmed) with the key, in the --profile named', async (t) => {
  const run = await commandTest(t, { stdin: { text: KEY }, flags: { profile: 'staging', baseUrl: 'https://staging.example//' } });

  assert.equal(await exitCodeOf(authLoginRun(run.ctx, UNCHECKED)), ExitCode.ok);

  assert.deepEqual(storedConfig(run), { profiles: { staging: { base_url: 'https://staging.example', api_key: KEY } }, mode: 0o600 });
  assert.match(run.stderr(), /^Stored key sk_…9f2c in profile "staging" /);
});

test('auth login refuses a plain http:// base URL to another host and stores nothing; --insecure stores it', async (t) => {
  const refused = await commandTest(t, { stdin: { text: KEY }, flags: { baseUrl: 'http://example.com' } });
  await assert.rejects(authLoginRun(refused.ctx, { withToken: true }), { constructor: UsageError, message: 'refusing to send the API key over plain http:// to example.com' });
  assert.equal(storedConfig(refused), undefined);

  const insecure = await commandTest(t, { stdin: { text: KEY }, flags: { baseUrl: 'http://example.com', insecure: true } });
  assert.equal(await exitCodeOf(authLoginRun(insecure.ctx, UNCHECKED)), ExitCode.ok);
  assert.deepEqual(storedConfig(insecure)?.profiles, { default: { base_url: 'http://example.com', api_key: KEY } });
});

for (const [what, text] of [['an empty key', '\n'], ['a key with white space inside', 'sk_live_0123 456789\n']] as const) {
  test(`auth login refuses ${what} and stores nothing`, async (t) => {
    const run = await commandTest(t, { stdin: { text } });

    await assert.rejects(authLoginRun(run.ctx, { withToken: true }), { constructor: UsageError, message: 'the API key is empty or contains white space or a control character' });

    assert.equal(storedConfig(run), undefined);
    assert.equal(run.stdout() + run.stderr(), '');
  });
}

test('auth login without --with-token and without a terminal is a usage error that says how to pipe the key', async (t) => {
  const run = await commandTest(t);

  await assert.rejects(authLoginRun(run.ctx, { withToken: false }), {
    constructor: UsageError,
    message: 'stdin is not a terminal, so the key cannot be asked for',
    hint: 'pipe it in instead: `echo "$KEY" | csafe auth login --with-token`',
  });
  assert.equal(storedConfig(run), undefined);
});

test('auth login on a terminal asks for the key on stderr without echoing it (backspace edits it)', async (t) => {
  const run = await commandTest(t, { stdin: { text: `${KEY}x\u007f\r`, tty: true }, env: NO_ENV_KEY });

  assert.equal(await exitCodeOf(authLoginRun(run.ctx, { withToken: false, verify: false })), ExitCode.ok);

  assert.deepEqual(storedConfig(run)?.profiles, { default: { api_key: KEY } });
  assert.equal(run.stderr(), `API key: \nStored key sk_…9f2c in profile "default" (${configFile(run)})\n`);
  assertKeyNotPrinted(run, KEY);
});

test('auth login on a terminal stops at Ctrl-C and stores nothing', async (t) => {
  const run = await commandTest(t, { stdin: { text: `${KEY}\u0003`, tty: true } });

  assert.equal(await exitCodeOf(authLoginRun(run.ctx, { withToken: false })), ExitCode.interrupted);

  assert.equal(storedConfig(run), undefined);
  assertKeyNotPrinted(run, KEY);
});
