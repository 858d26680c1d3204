import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeStaleTemporaries, writeFileAtomic, writeStreamAtomic } from '../../src/core/atomic-file.js';
import { tempDir } from '../helpers/cli.js';

describe('writeFileAtomic', () => {
  it('creates a new file private to the user', async () => {
    const path = join(tempDir(), 'state.json');
    await writeFileAtomic(path, '{}');
    assert.equal(readFileSync(path, 'utf8'), '{}');
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('removes its temporary file when the write fails, and keeps the old content', async () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    await assert.rejects(writeFileAtomic(path, 42 as unknown as string), TypeError);
    assert.deepEqual(readdirSync(dir), ['state.json']);
    assert.equal(readFileSync(path, 'utf8'), 'old');
  });

  it('leaves the temporary file under `path.<pid>.tmp` when the rename fails', async () => {
    const dir = tempDir();
    const path = join(dir, 'taken');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(path, 'inside'), { recursive: true });
    await assert.rejects(writeFileAtomic(path, 'x'));
    assert.deepEqual(readdirSync(dir).sort(), ['taken', `taken.${process.pid}.tmp`]);
    await removeStaleTemporaries(path);
    assert.deepEqual(readdirSync(dir).sort(), ['taken', `taken.${process.pid}.tmp`], 'our own is not stale');
  });
});

describe('writeStreamAtomic', () => {
  it('writes a stream as it comes, and on a failure mid-stream keeps the old content and no temporary', async () => {
    const dir = tempDir();
    const path = join(dir, 'results.csv');
    async function* chunks() {
      yield 'a,b\n';
      yield Buffer.from('1,2\n');
    }
    await writeStreamAtomic(path, chunks());
    assert.equal(readFileSync(path, 'utf8'), 'a,b\n1,2\n');
    async function* broken() {
      yield 'half';
      throw new Error('connection cut');
    }
    await assert.rejects(writeStreamAtomic(path, broken()), /connection cut/);
    assert.equal(readFileSync(path, 'utf8'), 'a,b\n1,2\n');
    assert.deepEqual(readdirSync(dir), ['results.csv']);
  });
});

describe('removeStaleTemporaries', () => {
  it("removes other processes' temporaries of that file only", async () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    const names = ['state.json', 'state.json.123.tmp', 'state.json.9.tmp', `state.json.${process.pid}.tmp`, 'state.json.abc.tmp', 'state.json.12x.tmp', 'state.json.1', 'state.json.1.tmp.bak', 'other.json.1.tmp', 'xstate.json.1.tmp', 'state.json..tmp'];
    for (const name of names) writeFileSync(join(dir, name), '');
    await removeStaleTemporaries(path);
    assert.deepEqual(readdirSync(dir).sort(), names.filter((name) => !['state.json.123.tmp', 'state.json.9.tmp'].includes(name)).sort());
  });

  it('does nothing where the directory is missing', async () => {
    await removeStaleTemporaries(join(tempDir(), 'missing', 'state.json'));
  });
});
