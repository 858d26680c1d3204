import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runCsafe, tempDir } from '../helpers/cli.js';

// What help and version must not pay for: each is loaded only by the commands that use it.
const HEAVY = ['zod', 'chalk', 'conf', 'undici', 'cli-table3', 'ora', 'csv-parse'];
const HOOK = pathToFileURL(join(import.meta.dirname, '../helpers/module-log.js')).href;

/** The modules `csafe …args` loaded, as URLs. */
async function modulesLoaded(args: string[]): Promise<string[]> {
  const log = join(tempDir(), 'modules.txt');
  const result = await runCsafe(args, { env: { NODE_OPTIONS: `--import=${HOOK}`, CSAFE_MODULE_LOG: log } });
  assert.equal(result.code, 0, result.stderr);
  return readFileSync(log, 'utf8').split('\n');
}

const packagesOf = (urls: string[]) => [...new Set(urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter((name) => name !== undefined))];

describe('start-up of help and version', () => {
  const commands = [
    ['--version'],
    ['--help'],
    ...['classify', 'token', 'auth', 'config', 'settings', 'data', 'import', 'events', 'stream', 'decision', 'batch', 'emulator'].map((group) => [group, '--help']),
    ['data', 'add', '--help'],
    ['events', 'send', '--help'],
    ['stream', 'parts', '--help'],
    ['batch', 'create', '--help'],
  ];
  for (const args of commands) {
    it(`csafe ${args.join(' ')} loads none of ${HEAVY.join(', ')}`, async () => {
      const urls = await modulesLoaded(args);
      assert.ok(urls.some((url) => url.includes('/dist/src/')), 'the log names the modules csafe loaded');
      assert.deepEqual(packagesOf(urls).filter((name) => HEAVY.includes(name)), []);
    });
  }
});

// Node 20.18 (the oldest csafe supports) cannot require() an ES module; 20.19+ can unless told not to.
describe('colour without require() of ES modules (as on Node 20.18)', () => {
  const node2018 = { NODE_OPTIONS: '--no-experimental-require-module' };

  it('an error line is red with FORCE_COLOR=1', async () => {
    const result = await runCsafe(['classify', '--text', 'hi', '--request-timeout', '0'], { env: { ...node2018, FORCE_COLOR: '1' } });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^\u001b\[31merror: --request-timeout: .*\u001b\[39m$/m);
  });

  it('a table header is bold with CSAFE_FORCE_TTY=1', async () => {
    const env = { ...node2018, CSAFE_FORCE_TTY: '1', CSAFE_EMULATOR_DATA_DIR: tempDir() };
    const result = await runCsafe(['--emulator', 'classify', '--text', 'hi', '--user-id', 'u1'], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\u001b\[1mLABEL\u001b\[22m/);
  });
});
