import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { EXAMPLES, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

/** A required field that is absent is called missing, with the flag or field that supplies it — never zod's own words. */
describe('messages for a missing required field', () => {
  const emulator = useEmulatorProcess();
  // In process: the messages are main()'s answer to the input; every path here is absolute or stdin.
  const run = (args: string[], input?: string) => runInProcess(args, { env: emulator.env, input });

  it('classify --batch: a line without user_id names --user-id and the "user_id" field', async () => {
    const { code, stderr } = await run(['classify', '--batch', join(EXAMPLES, 'items.jsonl')]);
    assert.equal(code, 2, stderr);
    for (const line of [1, 2, 3]) {
      assert.match(stderr, new RegExp(`items\\.jsonl:${line}: user_id: missing; give --user-id or a "user_id" field on the line$`, 'm'));
    }
    assert.doesNotMatch(stderr, /Invalid input|undefined/);
  });

  it('classify --batch: a line with nothing to classify names the "text" and "content" fields', async () => {
    const { code, stderr } = await run(['classify', '--batch', '-', '--user-id', 'u1'], '{"content_id": "c1"}\n');
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^stdin:1: content: missing; give a "text" or "content" field on the line$/m);
  });

  it('classify --batch: a content part without its text says so', async () => {
    const line = JSON.stringify({ content: [{ type: 'text' }], user_id: 'u1' });
    const { stderr } = await run(['classify', '--batch', '-'], line + '\n');
    assert.match(stderr, /^stdin:1: content\[0\]\.text: missing$/m);
  });

  it('classify: a request without a user id names --user-id and the config key', async () => {
    const { code, stderr } = await run(['classify', '--text', 'hi']);
    assert.equal(code, 2);
    assert.match(stderr, /--user-id is required/);
    assert.match(stderr, /csafe config set user_id/);
  });

  it('the emulator calls an absent field missing too', async () => {
    const response = await fetch(`${emulator.baseUrl}/v1/content`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: [{ type: 'text', text: 'hi' }] }),
    });
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { error: { message: string } }).error.message, /^user_id: missing$/);
  });
});
