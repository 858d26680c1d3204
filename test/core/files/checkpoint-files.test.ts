import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeFileAtomic } from '../../../src/core/files/atomic-file.js';
import { acquireFileLock } from '../../../src/core/files/file-lock.js';
import { runLanes } from '../../helpers/lanes.js';
import { tempDir } from '../../helpers/cli.js';

describe('writeFileAtomic', () => {
  it('replaces the content and leaves no temporary file behind', async () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    await writeFileAtomic(path, 'new');
    assert.equal(readFileSync(path, 'utf8'), 'new');
    assert.deepEqual(readdirSync(dir), ['state.json']);
  });
});

describe('acquireFileLock', () => {
  it('refuses a second holder while the first lives, and frees the lock on release', async () => {
    const path = join(tempDir(), 'state.json');
    const lock = await acquireFileLock(path, Date.now());
    await assert.rejects(acquireFileLock(path, Date.now()), /in use by another run \(pid \d+/);
    await lock.release();
    assert.equal(existsSync(`${path}.lock`), false);
    await (await acquireFileLock(path, Date.now())).release();
  });

  it('takes over a lock left by a process that is gone (kill -9)', async () => {
    const path = join(tempDir(), 'state.json');
    const { hostname } = await import('node:os');
    // A pid far above any real one: the owner does not run.
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), since: 'earlier' }));
    const lock = await acquireFileLock(path, Date.now());
    assert.equal(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid, process.pid);
    await lock.release();
  });
});

describe('runLanes', () => {
  async function* numbers(count: number) {
    for (let i = 0; i < count; i++) yield i;
  }

  it('keeps each lane in input order, batches by count, and delivers everything once', async () => {
    const seen: number[][] = [[], [], []];
    const sizes: number[] = [];
    await runLanes(numbers(1000), { lanes: 3, laneOf: (n) => n % 3, maxBatchItems: 7, maxBatchBytes: 1e9, sizeOf: () => 1 }, async (batch) => {
      sizes.push(batch.length);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
      seen[batch[0]! % 3]!.push(...batch);
    });
    for (const [lane, items] of seen.entries()) {
      assert.deepEqual(items, [...items].sort((a, b) => a - b), `lane ${lane} in order`);
      assert.ok(items.every((n) => n % 3 === lane));
    }
    assert.equal(seen.flat().length, 1000);
    assert.ok(sizes.every((size) => size <= 7));
  });

  it('cuts a batch at the byte cap, keeping at least one item', async () => {
    const sizes: number[] = [];
    await runLanes(numbers(10), { lanes: 1, laneOf: () => 0, maxBatchItems: 100, maxBatchBytes: 25, sizeOf: () => 10 }, async (batch) => {
      sizes.push(batch.length);
    });
    assert.deepEqual(sizes, [2, 2, 2, 2, 2]);
  });

  it('stops every lane and the reader when one lane throws', async () => {
    await assert.rejects(
      runLanes(numbers(100_000), { lanes: 4, laneOf: (n) => n % 4, maxBatchItems: 10, maxBatchBytes: 1e9, sizeOf: () => 1 }, async (batch) => {
        if (batch[0] === 42) throw new Error('boom');
      }),
      /boom/,
    );
  });
});
