import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCsafe } from '../helpers/cli.js';

/** A new user's slips with flags: each is one line on stderr that says what to use, and exit 2. */
describe('flag errors', () => {
  it('a misspelt flag is one line that suggests the right one', async () => {
    const { code, stderr } = await runCsafe(['data', 'add', 'listings', 'items.jsonl', '--skip-invaild', 'bad.jsonl']);
    assert.equal(code, 2);
    assert.equal(stderr, "error: unknown option '--skip-invaild' (did you mean --skip-invalid?)\n");
  });

  for (const flag of ['--shard', '--concurrency']) {
    it(`stream parts ${flag} says why the command has none instead of suggesting another flag`, async () => {
      const { code, stderr } = await runCsafe(['stream', 'parts', 'live', '--id', 'show-42', 'parts.jsonl', flag, '2']);
      assert.equal(code, 2);
      assert.equal(stderr.split('\n').filter(Boolean).length, 1, stderr);
      assert.match(stderr, new RegExp(`^error: ${flag}: stream parts has none: one stream's parts are sent in order`));
    });
  }
});
