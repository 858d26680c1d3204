import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCsafe, tempDir } from '../helpers/cli.js';

// A bulk command keeps its checked records in a temporary file once they come to more than some
// 0.3–0.7 MB of input; where TMPDIR will not take it, the run says so and what to do, and sends nothing.

/** Some 2 MB of data objects: past what a bulk command holds in memory. */
function objectsFile(): string {
  const path = join(tempDir(), 'objects.jsonl');
  writeFileSync(path, Array.from({ length: 20_000 }, (_, n) => `{"id":"obj_${n}","title":"listing ${n}","body":"road bike number ${n}, barely used"}\n`).join(''));
  return path;
}

const HINT = 'hint: csafe keeps a copy of its input in TMPDIR while it works: set TMPDIR to a directory this user may write to, with room for the input, then run the command again';

describe('a temporary directory that will not take the spool', () => {
  it('missing: exit 1, naming it and the way on, nothing planned', async () => {
    const gone = join(tempDir(), 'gone');
    const result = await runCsafe(['data', 'add', 'listings', objectsFile(), '--dry-run'], { env: { TMPDIR: gone } });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, new RegExp(`^error: ${gone}: could not write a temporary file: no such directory \\(ENOENT\\)$`, 'm'));
    assert.ok(result.stderr.includes(HINT), result.stderr);
  });

  it('full (a file size limit): exit 1, naming the reason, and the part written removed', async () => {
    const tmp = tempDir();
    // 100 blocks of 512 bytes: the 2 MB spool stops part-way, as on a full disk (Node ignores SIGXFSZ, so the write fails with EFBIG).
    const limited = ['sh', '-c', 'ulimit -f 100 && exec "$0" "$@"'];
    const result = await runCsafe(['data', 'add', 'listings', objectsFile(), '--dry-run'], { env: { TMPDIR: tmp }, wrapper: limited });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, new RegExp(`^error: ${tmp}: could not write a temporary file: file too large \\(EFBIG\\)$`, 'm'));
    assert.ok(result.stderr.includes(HINT), result.stderr);
    assert.deepEqual(readdirSync(tmp), []);
  });
});
