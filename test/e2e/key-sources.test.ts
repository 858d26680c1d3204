import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
// In process: where the key came from and why it is refused is main()'s answer to its flags and environment.
import { runInProcess } from '../helpers/in-process.js';

describe('an API key that no header can carry', () => {
  const emulator = useEmulatorProcess();

  for (const [where, args, env] of [
    ['--api-key', ['--api-key', 'sk_live_ab\nSECRETPART'], {}],
    ['CSAFE_API_KEY', [], { CSAFE_API_KEY: 'sk_live_ab\rSECRETPART' }],
  ] as const) {
    it(`from ${where}: refused before anything is sent, on one line naming ${where}, exit 2, not retried`, async () => {
      const before = (await emulator.requests()).length;
      const { code, stderr } = await runInProcess([...args, 'token', 'create'], { env: { ...emulator.env, CSAFE_API_KEY: undefined, ...env } });
      assert.equal(code, 2, stderr);
      // --api-key is first warned of: other users see it in `ps`.
      const [error, hint] = stderr.trimEnd().split('\n').filter((line) => !line.startsWith('warning: --api-key shows the key'));
      assert.match(error!, new RegExp(`^error: .*${where}.*white space or a control character`));
      assert.match(hint!, /^hint: /);
      assert.doesNotMatch(stderr, /retry|SECRETPART/);
      assert.equal((await emulator.requests()).length, before);
    });
  }
});

describe('where the key is read from, and who else can see it', () => {
  const emulator = useEmulatorProcess();
  const dir = tempDir('csafe-key-');
  const keyFile = (name: string, text: string, mode: number) => {
    const path = join(dir, name);
    writeFileSync(path, text, { mode });
    return path;
  };
  const run = (args: string[]) => runInProcess(args, { env: { ...emulator.env, CSAFE_API_KEY: undefined } });

  it('--api-key-file: the first line of a file only its owner reads, no warning; its source is "file"', async () => {
    const file = keyFile('key', `${emulator.apiKey}\r\nanother line\n`, 0o600);
    const created = await run(['--api-key-file', file, 'token', 'create', '--json']);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stderr, '');
    const status = await run(['--api-key-file', file, 'auth', 'status', '--json']);
    assert.equal(JSON.parse(status.stdout).api_key_source, 'file');
  });

  it('--api-key-file others can read: used, with one warning that says how to mend it', async () => {
    const file = keyFile('open-key', `${emulator.apiKey}\n`, 0o644);
    const result = await run(['--api-key-file', file, 'token', 'create', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, `warning: ${file}, which holds the API key, can be read by other users (mode 0644): chmod 600 ${file}\n`);
  });

  it('--api-key works and warns once that other users see it, naming the ways that do not show it', async () => {
    const result = await run(['--api-key', emulator.apiKey, 'token', 'create', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^warning: --api-key shows the key to other users of this machine \(ps\) and keeps it in shell history; prefer CSAFE_API_KEY, `csafe auth login --with-token`, or --api-key-file FILE\n$/);
    assert.ok(!result.stderr.includes(emulator.apiKey));
  });

  it('a key file that cannot give a key, or both flags: one line naming it, exit 2, nothing sent', async () => {
    const before = (await emulator.requests()).length;
    const cases: Array<[string[], RegExp]> = [
      [['--api-key-file', join(dir, 'none')], /^error: --api-key-file .*none: no such file$/m],
      [['--api-key-file', keyFile('empty', '\nsk_later\n', 0o600)], /^error: --api-key-file .*empty: its first line is empty, expected the key$/m],
      [['--api-key-file', dir], /^error: --api-key-file .*: not a regular file$/m],
      [['--api-key-file', keyFile('both', 'k\n', 0o600), '--api-key', 'sk_other'], /^error: --api-key and --api-key-file both give the key: give one of them$/m],
    ];
    for (const [args, message] of cases) {
      const result = await run([...args, 'token', 'create']);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
    }
    assert.equal((await emulator.requests()).length, before);
  });

  it('a key file that is a named pipe nothing writes to: refused at once as not a regular file (exit 2), not waited on', async () => {
    // A child, not in process: a wait to open the pipe would hold the test's own thread.
    const result = await runCsafe(['--api-key-file', namedPipe(join(dir, 'fifo')), 'token', 'create'], { env: { ...emulator.env, CSAFE_API_KEY: undefined }, timeoutMs: 15_000 });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^error: --api-key-file .*fifo: not a regular file$/m);
  });
});

/** A named pipe nothing writes to: opening it to read waits for a writer unless told not to. */
function namedPipe(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}
