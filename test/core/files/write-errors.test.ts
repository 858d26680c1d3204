import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { exitCodeOfError } from '../../../src/main.js';
import { ExitCode } from '../../../src/core/errors.js';
import { FileWriteError, remedyInPlace, writeErrorReason } from '../../../src/core/files/write-errors.js';

const errno = (code: string) => Object.assign(new Error(`${code}: raw`), { code });

describe('writeErrorReason', () => {
  it('puts each known system error in words, with its code', () => {
    assert.deepEqual(
      ['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'EISDIR', 'ENOENT', 'EIO', 'EFBIG'].map((code) => writeErrorReason(errno(code))),
      [
        'no space left on device (ENOSPC)',
        'disk quota exceeded (EDQUOT)',
        'permission denied (EACCES)',
        'operation not permitted (EPERM)',
        'read-only file system (EROFS)',
        'is a directory (EISDIR)',
        'no such directory (ENOENT)',
        'input/output error (EIO)',
        'file too large (EFBIG)',
      ],
    );
  });

  it("falls back to the error's message, or the value itself", () => {
    assert.equal(writeErrorReason(errno('EXDEV')), 'EXDEV: raw');
    assert.equal(writeErrorReason(new Error('plain')), 'plain');
    assert.equal(writeErrorReason('text'), 'text');
    assert.equal(writeErrorReason(undefined), 'undefined');
  });
});

describe('FileWriteError', () => {
  it('names the file, what it is and the reason, with a hint, exit 1', () => {
    const error = new FileWriteError('out.jsonl', 'disk full', ' the checkpoint');
    assert.equal(error.message, 'out.jsonl: could not write the checkpoint: disk full');
    assert.equal(error.hint, 'make room or give another path, then run the command again');
    assert.equal(exitCodeOfError(error), ExitCode.failure);
    assert.equal(new FileWriteError('f', 'r').message, 'f: could not write: r');
  });

  it('says what to do by the reason: room, a path this user may write to, or the directory', () => {
    assert.equal(new FileWriteError('f', writeErrorReason({ code: 'ENOSPC' })).hint, 'make room or give another path, then run the command again');
    for (const code of ['EACCES', 'EPERM', 'EROFS']) assert.equal(new FileWriteError('f', writeErrorReason({ code })).hint, 'give a path this user may write to, then run the command again', code);
    assert.equal(new FileWriteError('f', writeErrorReason({ code: 'ENOENT' })).hint, 'create its directory or give another path, then run the command again');
  });

  it('says what to do where another path is no way out (a checkpoint): never another path', () => {
    assert.equal(remedyInPlace(writeErrorReason({ code: 'ENOSPC' })), 'make room');
    for (const code of ['EACCES', 'EPERM', 'EROFS']) assert.equal(remedyInPlace(writeErrorReason({ code })), 'make its directory writable to this user', code);
    assert.equal(remedyInPlace(writeErrorReason({ code: 'ENOTDIR' })), 'create its directory');
    assert.equal(remedyInPlace(writeErrorReason({ code: 'EISDIR' })), 'move away the directory in its place');
  });

  it('counts the records not written and the range of their lines, as they are added', () => {
    const error = new FileWriteError('failed.jsonl', 'disk full');
    error.addUnwritten([]);
    assert.equal(error.message, 'failed.jsonl: could not write: disk full');
    error.addUnwritten([7]);
    assert.equal(error.message, 'failed.jsonl: could not write: disk full; 1 record not written (input line 7)');
    error.addUnwritten([9, 3]);
    assert.equal(error.message, 'failed.jsonl: could not write: disk full; 3 records not written (input lines 3–9)');
    error.addUnwritten([5]);
    assert.equal(error.message, 'failed.jsonl: could not write: disk full; 4 records not written (input lines 3–9)');
  });
});
