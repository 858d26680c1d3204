import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { put, requestImport } from './data-support.js';
import { useTestEmulator } from './support.js';

describe('emulator: an upload reaches the disk in large writes', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });

  test('while the disk is slow, the chunks that arrive meanwhile are written together, not one write each', async () => {
    const body = Buffer.alloc(16 << 20, '{"id":"a"}\n');
    const issued = await requestImport(emulator, 'writes');
    const { write, writev } = fs;
    let writes = 0;
    // Each write completes 20 ms late, as on a busy disk; the upload's 64 KiB network chunks keep coming.
    type Callback = (...results: unknown[]) => void;
    const slow = (original: (...args: unknown[]) => void) => (...args: unknown[]) => {
      writes++;
      const done = args.pop() as Callback;
      original(...args, (...results: unknown[]) => setTimeout(() => done(...results), 20));
    };
    Object.assign(fs, { write: slow(write as never), writev: slow(writev as never) });
    try {
      assert.equal((await put(issued.upload_url, body)).status, 200);
    } finally {
      Object.assign(fs, { write, writev });
    }
    // One write per 64 KiB chunk would be 256.
    assert.ok(writes <= 32, `${writes} writes for 16 MiB`);
  });
});
