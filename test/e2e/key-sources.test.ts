import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useEmulatorProcess } from '../helpers/cli.js';
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
      const [error, hint] = stderr.trimEnd().split('\n');
      assert.match(error!, new RegExp(`^error: .*${where}.*white space or a control character`));
      assert.match(hint!, /^hint: /);
      assert.doesNotMatch(stderr, /retry|SECRETPART/);
      assert.equal((await emulator.requests()).length, before);
    });
  }
});
