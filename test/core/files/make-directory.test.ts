import assert from 'node:assert/strict';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeDirectory, makeDirectorySync } from '../../../src/core/files/make-directory.js';
import { tempDir } from '../../helpers/cli.js';

describe('makeDirectory and makeDirectorySync (mkdir -p)', () => {
  it('make every missing level with the mode given, and take one that is there', async () => {
    const root = tempDir('csafe-mkdir-');
    await makeDirectory(join(root, 'a', 'b'), 0o700);
    makeDirectorySync(join(root, 'c', 'd'), 0o700);
    for (const made of ['a', 'a/b', 'c', 'c/d']) assert.equal(statSync(join(root, made)).mode & 0o777, 0o700, made);
    await makeDirectory(join(root, 'a', 'b'), 0o700);
    makeDirectorySync(join(root, 'c', 'd'), 0o700);
  });

  it('fail, rather than retry for ever as node\'s recursive mkdir does, where no directory can be made (/proc)', { skip: !existsSync('/proc/self') }, async () => {
    const path = `/proc/csafe-test-${process.pid}/a`;
    await assert.rejects(makeDirectory(path, 0o700), { code: 'ENOENT' });
    assert.throws(() => makeDirectorySync(path, 0o700), { code: 'ENOENT' });
  });

  it('refuse a file where a directory is wanted', async () => {
    const file = join(tempDir('csafe-mkdir-'), 'file');
    writeFileSync(file, '');
    await assert.rejects(makeDirectory(file, 0o700), { code: 'EEXIST' });
    assert.throws(() => makeDirectorySync(join(file, 'below'), 0o700), { code: 'ENOTDIR' });
  });
});
