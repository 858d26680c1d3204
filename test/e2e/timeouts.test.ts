import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { outcome, runCsafe, spawnCsafe, startEmulatorProcess, tempDir, type EmulatorProcess, type RunResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

/** Every verb that waits: the only ones with a --timeout, and it limits the wait. */
const WAITING_VERBS = [
  ['data', 'add'],
  ['data', 'import'],
  ['data', 'status'],
  ['decision', 'create'],
  ['decision', 'get'],
  ['import', 'create'],
  ['import', 'get'],
  ['batch', 'create'],
  ['batch', 'get'],
];

const CLASSIFY = ['classify', '--text', 'hi', '--user-id', 'u'];

function assertUsage(result: RunResult, pattern: RegExp): void {
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, pattern);
  assert.equal(result.stdout, '');
}

describe('timeouts: --request-timeout bounds each request, --timeout only a wait', { concurrency: 4 }, () => {
  let slow: EmulatorProcess;
  const dirs: string[] = [];
  const configDir = () => {
    const dir = tempDir('csafe-config-');
    dirs.push(dir);
    return dir;
  };

  before(async () => {
    // Every answer takes 2 s: any request limit below that runs out first.
    slow = await startEmulatorProcess(['--latency', '2000']);
  });
  after(async () => {
    await slow.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const assertRequestTimedOut = (result: RunResult) => {
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^error: POST \/v1\/content: no answer within 0\.3 s$/m);
    assert.match(result.stderr, /^hint: raise --request-timeout \(or CSAFE_REQUEST_TIMEOUT\) if the service is slow$/m);
  };

  // The one run of a real process here (the rest, flags and messages, run in this process).
  it('--request-timeout, before or after the command, ends a request that takes longer (exit 1)', async () => {
    assertRequestTimedOut(await runCsafe(['--request-timeout', '300ms', '--max-retries', '0', ...CLASSIFY], { env: slow.env }));
    assertRequestTimedOut(await runCsafe([...CLASSIFY, '--max-retries', '0', '--request-timeout=300ms'], { env: slow.env }));
  });

  it('CSAFE_REQUEST_TIMEOUT does the same', async () => {
    assertRequestTimedOut(await runInProcess(['--max-retries', '0', ...CLASSIFY], { env: { ...slow.env, CSAFE_REQUEST_TIMEOUT: '300ms' } }));
  });

  it('so does `config set request_timeout`, and the flag overrides it', async () => {
    const env = { ...slow.env, CSAFE_CONFIG_DIR: configDir() };
    const set = await runInProcess(['config', 'set', 'request_timeout', '300ms'], { env });
    assert.equal(set.code, 0, set.stderr);
    assert.equal((await runInProcess(['config', 'get', 'request_timeout'], { env })).stdout, '300ms\n');
    assertRequestTimedOut(await runInProcess(['--max-retries', '0', ...CLASSIFY], { env }));
    const longer = await runInProcess(['--request-timeout', '30s', '--max-retries', '0', ...CLASSIFY, '--json'], { env });
    assert.equal(longer.code, 0, longer.stderr);
  });

  it('the old global --timeout before a group is a usage error saying what to use instead', async () => {
    for (const args of [['--timeout', '30s', ...CLASSIFY], ['--timeout=30s', 'data', 'status', 'ns', 'req_1', '--wait']]) {
      const result = await runInProcess(args, { env: slow.env });
      assertUsage(result, /^error: --timeout before the command is no longer the timeout of each request: use --request-timeout 30s$/m);
      assert.match(result.stderr, /^hint: --timeout now goes after a command that waits and limits the wait: csafe data status NAMESPACE REQUEST_ID --wait --timeout 30s$/m);
    }
  });

  it('--timeout after a verb that does not wait says to use --request-timeout', async () => {
    for (const [name, args] of [['classify', [...CLASSIFY, '--timeout', '30s']], ['events send', ['events', 'send', '-', '--timeout=30s']]] as const) {
      const result = await runInProcess(args, { env: slow.env });
      assertUsage(result, new RegExp(`^error: ${name} does not wait, so it has no --timeout: for the timeout of each request use --request-timeout 30s$`, 'm'));
    }
  });

  it('a duration of 0 or below is refused, naming the flag, the variable or the profile key (exit 2)', async () => {
    assertUsage(await runInProcess(['--request-timeout', '0', ...CLASSIFY], { env: slow.env }), /^error: --request-timeout: expected a duration greater than 0, got "0"$/m);
    assertUsage(await runInProcess([...CLASSIFY, '--request-timeout', '-5s'], { env: slow.env }), /^error: --request-timeout: expected a duration greater than 0, got "-5s"$/m);
    assertUsage(await runInProcess(CLASSIFY, { env: { ...slow.env, CSAFE_REQUEST_TIMEOUT: '0s' } }), /^error: CSAFE_REQUEST_TIMEOUT: expected a duration greater than 0, got "0s"$/m);
    assertUsage(await runInProcess(['data', 'status', 'ns', 'req_1', '--wait', '--timeout', '0'], { env: slow.env }), /^error: --timeout: expected a duration greater than 0, got "0"$/m);
    const env = { ...slow.env, CSAFE_CONFIG_DIR: configDir() };
    assertUsage(await runInProcess(['config', 'set', 'request_timeout', '0'], { env }), /^error: request_timeout: expected a duration greater than 0, got "0"$/m);
  });

  it('emulator start --upload-ttl 0 is refused: an upload URL that expires as it is handed out is of no use', { timeout: 30_000 }, async (t) => {
    const child = spawnCsafe(['emulator', 'start', '--port', '0', '--upload-ttl', '0']);
    t.after(() => child.kill());
    assertUsage(await outcome(child), /^error: --upload-ttl: expected a duration greater than 0, got "0"$/m);
  });

  it('the old CSAFE_TIMEOUT and profile key timeout are refused, naming what replaced them; config set timeout too', async () => {
    assertUsage(await runInProcess(CLASSIFY, { env: { ...slow.env, CSAFE_TIMEOUT: '30s' } }), /^error: CSAFE_TIMEOUT is no longer read: the timeout of each request is now CSAFE_REQUEST_TIMEOUT\nhint: rename it: CSAFE_REQUEST_TIMEOUT=30s$/m);
    const dir = configDir();
    const env = { ...slow.env, CSAFE_CONFIG_DIR: dir };
    assertUsage(await runInProcess(['config', 'set', 'timeout', '30s'], { env }), /^error: config key "timeout" is now "request_timeout" \(the timeout of each request\): csafe config set request_timeout 30s$/m);
    // A profile written by an older csafe.
    writeFileSync(`${dir}/config.json`, JSON.stringify({ profiles: { default: { timeout: '30s' } } }));
    assertUsage(await runInProcess(CLASSIFY, { env }), /^error: timeout in profile "default" \(.*config\.json\) is no longer read: the timeout of each request is now request_timeout\nhint: rename it: `csafe config set request_timeout 30s` then `csafe config unset timeout`$/m);
    assert.equal((await runInProcess(['config', 'unset', 'timeout'], { env })).code, 0);
    const fixed = await runInProcess(['--request-timeout', '30s', ...CLASSIFY, '--json'], { env });
    assert.equal(fixed.code, 0, fixed.stderr);
  });

  it('--help lists --request-timeout and CSAFE_REQUEST_TIMEOUT, and no global --timeout', async () => {
    const { stdout } = await runInProcess(['--help']);
    assert.match(stdout, /--request-timeout <duration>/);
    assert.match(stdout, /CSAFE_REQUEST_TIMEOUT/);
    assert.doesNotMatch(stdout, /--timeout|CSAFE_TIMEOUT\b/);
  });

  for (const verb of WAITING_VERBS) {
    it(`${verb.join(' ')} --help: --timeout limits the wait, and no longer points before the command`, async () => {
      const { stdout, code } = await runInProcess([...verb, '--help']);
      assert.equal(code, 0);
      assert.match(stdout, /--timeout <duration> +with --wait: how long to wait/);
      assert.doesNotMatch(stdout, /before\s+the\s+command|csafe --timeout/);
    });
  }
});
