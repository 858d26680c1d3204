import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkipFile } from '../../../src/core/bulk/checked-records.js';
import { FileWriteError } from '../../../src/core/files/write-errors.js';
import { tempDir } from '../../helpers/cli.js';

/** A checkpoint's record of what was set aside, as CheckpointFile keeps it, in memory. */
const ledger = (held: number[] = []) => {
  const positions = new Set(held);
  return { setAside: { holds: (position: number) => positions.has(position), add: (position: number) => void positions.add(position) }, positions };
};

describe('SkipFile', () => {
  it('sets a record aside, then records it in the checkpoint; one the checkpoint holds is counted as skipped by it, neither reported nor appended', async () => {
    const path = join(tempDir(), 'skipped.jsonl');
    const skip = new SkipFile(path);
    const checkpoint = ledger([2]);
    skip.keepIn(checkpoint);
    const counts = { invalid: 0, skipped_checkpoint: 0 };
    const reported: number[] = [];
    for (const position of [2, 5]) {
      await skip.setAside({ line: position * 10, position, problem: 'id: missing', text: '{}' }, counts, () => reported.push(position));
    }
    await skip.close();
    assert.deepEqual(counts, { invalid: 1, skipped_checkpoint: 1 });
    assert.deepEqual([skip.count, skip.earlier], [1, 1]);
    assert.deepEqual(reported, [5]);
    assert.deepEqual(readFileSync(path, 'utf8'), '{"line":50,"error":"id: missing","record":"{}"}\n');
    assert.deepEqual([...checkpoint.positions], [2, 5]);
  });

  it('records nothing in the checkpoint for a record it could not write: the next run sets it aside again', async () => {
    const skip = new SkipFile(join(tempDir(), 'missing-dir', 'skipped.jsonl'));
    const checkpoint = ledger();
    skip.keepIn(checkpoint);
    await assert.rejects(skip.setAside({ line: 3, position: 3, problem: 'bad', text: 'x' }, { invalid: 0, skipped_checkpoint: 0 }, () => undefined), FileWriteError);
    await skip.close();
    assert.deepEqual([...checkpoint.positions], []);
  });
});
