import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCsafe, startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';

/** A control route, with the API key every one of them takes. */
async function control(emulator: EmulatorProcess, path: string): Promise<unknown> {
  const response = await fetch(emulator.baseUrl + path, { headers: { Authorization: `Bearer ${emulator.apiKey}` } });
  assert.equal(response.status, 200, path);
  return response.json();
}

describe('csafe data add when answers are lost after processing', () => {
  const dir = tempDir();
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a batch cut off by a connection reset is resent, not failed: one object per id, nothing in the failed file', { timeout: 120_000 }, async () => {
    const emulator = await startEmulatorProcess(['--fault-rate', '0.3', '--faults', 'reset', '--seed', '9', '--processing-delay', '0']);
    try {
      const count = 600;
      const input = join(dir, 'objects.jsonl');
      writeFileSync(input, Array.from({ length: count }, (_, i) => JSON.stringify({ id: `obj_${i}`, text: `listing ${i}` })).join('\n') + '\n');
      const failed = join(dir, 'failed.jsonl');
      const result = await runCsafe(['--max-retries', '10', 'data', 'add', 'listings', input, '--batch-size', '20', '--failed', failed], { env: emulator.env, cwd: dir, timeoutMs: 110_000 });
      assert.equal(result.code, 0, result.stderr);
      assert.ok(!existsSync(failed), 'nothing was written to the failed file');

      const { requests } = (await control(emulator, '/_emulator/requests')) as { requests: Array<{ fault: string | null }> };
      assert.ok(requests.some((entry) => entry.fault === 'reset'), 'resets were injected');
      const { objects } = (await control(emulator, '/_emulator/data/listings')) as { objects: Array<{ id: string; adds: number }> };
      assert.equal(objects.length, count, 'exactly one object per id');
      assert.equal(new Set(objects.map((object) => object.id)).size, count);
      assert.ok(objects.some((object) => object.adds > 1), 'some batches were processed, cut off and sent again');
    } finally {
      await emulator.stop();
    }
  });
});
