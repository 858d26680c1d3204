import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { refuseSharedFiles } from '../../../src/core/files/distinct-files.js';
import { UsageError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';

const refused = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

describe('refuseSharedFiles', () => {
  const dir = tempDir();
  const input = join(dir, 'in.jsonl');
  writeFileSync(input, '{}\n');
  symlinkSync(input, join(dir, 'link.jsonl'));

  it('refuses a written file that is the input, however it is spelled', () => {
    assert.throws(() => refuseSharedFiles(input, { failed: input }), (error: unknown) => refused(/^--failed .*in\.jsonl: is the input file$/)(error) && (error as UsageError).hint === 'give --failed a file of its own');
    assert.throws(() => refuseSharedFiles(input, { skipInvalid: join(dir, '.', 'link.jsonl') }), refused(/^--skip-invalid .*: is the input file$/));
    assert.throws(() => refuseSharedFiles(join(dir, 'sub', '..', 'in.jsonl'), { checkpoint: input }), refused(/^--checkpoint .*: is the input file$/));
  });

  it('refuses a hard link to the input: another name, the same file', () => {
    linkSync(input, join(dir, 'hard.jsonl'));
    assert.throws(() => refuseSharedFiles(input, { failed: join(dir, 'hard.jsonl') }), refused(/^--failed .*hard\.jsonl: is the input file$/));
    writeFileSync(join(dir, 'out-a.jsonl'), '');
    linkSync(join(dir, 'out-a.jsonl'), join(dir, 'out-b.jsonl'));
    assert.throws(() => refuseSharedFiles('-', { failed: join(dir, 'out-a.jsonl'), skipInvalid: join(dir, 'out-b.jsonl') }), refused(/^--skip-invalid .*: is also the file of --failed$/));
  });

  it('refuses one file named by two flags, even one not made yet', () => {
    const out = join(dir, 'out.jsonl');
    assert.throws(() => refuseSharedFiles('-', { failed: out, unconfirmed: join(dir, '.', 'out.jsonl') }), refused(/^--unconfirmed .*: is also the file of --failed$/));
  });

  it('knows a file that cannot be made yet by its path: in a directory not made yet, or under a regular file', () => {
    assert.throws(() => refuseSharedFiles('-', { failed: join(dir, 'later', 'out.jsonl'), unconfirmed: join(dir, 'later', '.', 'out.jsonl') }), refused(/^--unconfirmed .*: is also the file of --failed$/));
    assert.throws(() => refuseSharedFiles('-', { failed: join(input, 'out.jsonl'), checkpoint: join(dir, 'link.jsonl', 'out.jsonl') }), refused(/^--checkpoint .*: is also the file of --failed$/));
    // Two distinct files there are not one file; no record could reach them, though, so they are refused for that.
    assert.throws(() => refuseSharedFiles('-', { failed: join(dir, 'later', 'failed.jsonl'), unconfirmed: join(dir, 'later', 'unconfirmed.jsonl') }), (error: unknown) => error instanceof UsageError && /no such directory \(ENOENT\)$/.test(error.message));
  });

  it('refuses a written file that is the lock file of the checkpoint, which the run removes when it ends', () => {
    const checkpoint = join(dir, 'state.json');
    assert.throws(() => refuseSharedFiles(input, { failed: `${checkpoint}.lock`, checkpoint }), refused(/^--failed .*state\.json\.lock: is the lock file of --checkpoint .*state\.json$/));
    // Through a symlink to the checkpoint, the lock is beside the file it names.
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'state.json'), '{}');
    symlinkSync(join('real', 'state.json'), join(dir, 'state-link.json'));
    writeFileSync(join(dir, 'real', 'state.json.lock'), '');
    assert.throws(() => refuseSharedFiles(input, { unconfirmed: join(dir, 'real', 'state.json.lock'), checkpoint: join(dir, 'state-link.json') }), refused(/^--unconfirmed .*: is the lock file of --checkpoint /));
  });

  it('refuses a named pipe that is the input (what is written to it would come back to be sent), and takes one named by two written flags', () => {
    const pipe = join(dir, 'parts.fifo');
    execFileSync('mkfifo', [pipe]);
    assert.throws(() => refuseSharedFiles(pipe, { unconfirmed: pipe }), refused(/^--unconfirmed .*parts\.fifo: is the input file$/));
    refuseSharedFiles('-', { failed: pipe, unconfirmed: pipe });
  });

  it('follows a symlink to a file not made yet to where the file would be made', () => {
    symlinkSync('later.jsonl', join(dir, 'dangling'));
    assert.throws(() => refuseSharedFiles('-', { failed: join(dir, 'dangling'), skipInvalid: join(dir, 'later.jsonl') }), refused(/^--skip-invalid .*later\.jsonl: is also the file of --failed$/));
    symlinkSync('cp.json', join(dir, 'to-checkpoint'));
    assert.throws(() => refuseSharedFiles('-', { failed: join(dir, 'to-checkpoint'), checkpoint: join(dir, 'cp.json') }), refused(/^--checkpoint .*cp\.json: is also the file of --failed$/));
    // A loop of links ends: shared with nothing, and refused as no file a record could reach.
    symlinkSync('loop-b', join(dir, 'loop-a'));
    symlinkSync('loop-a', join(dir, 'loop-b'));
    assert.throws(() => refuseSharedFiles('-', { failed: join(dir, 'loop-a'), unconfirmed: join(dir, 'unconfirmed.jsonl') }), (error: unknown) => error instanceof UsageError && /ELOOP/.test(error.message));
  });

  it('refuses a file named to append records to that none could reach: a directory, a missing directory, one a link to nothing points into', () => {
    const cant = (path: string, reason: string) => (error: unknown) => error instanceof UsageError && error.message === `${path}: could not write: ${reason}`;
    assert.throws(() => refuseSharedFiles('-', { failed: dir }), cant(dir, 'is a directory (EISDIR)'));
    const missing = join(dir, 'missing', 'failed.jsonl');
    assert.throws(() => refuseSharedFiles('-', { unconfirmed: missing }), cant(missing, 'no such directory (ENOENT)'));
    symlinkSync(join(dir, 'gone', 'f.jsonl'), join(dir, 'into-gone'));
    assert.throws(() => refuseSharedFiles('-', { skipInvalid: join(dir, 'into-gone') }), cant(join(dir, 'into-gone'), 'no such directory (ENOENT)'));
    // A path ending in a slash names a directory, there or not; a part of the path that is a file is said so.
    assert.throws(() => refuseSharedFiles('-', { failed: `${join(dir, 'nodir')}/` }), cant(`${join(dir, 'nodir')}/`, 'is a directory (EISDIR)'));
    assert.throws(() => refuseSharedFiles('-', { failed: join(input, 'x.jsonl') }), cant(join(input, 'x.jsonl'), 'a part of the path is a file, not a directory (ENOTDIR)'));
    // A file not made yet in a directory that is there, and the checkpoint (which has a check of its own), pass.
    refuseSharedFiles('-', { failed: join(dir, 'new-failed.jsonl'), checkpoint: join(dir, 'missing', 'state.json') });
  });

  it('takes a device named twice: /dev/null discards both kinds', () => {
    refuseSharedFiles(input, { failed: '/dev/null', skipInvalid: '/dev/null' });
  });

  it('takes distinct files, and stdin, which is no file', () => {
    refuseSharedFiles('-', { failed: input });
    refuseSharedFiles(undefined, { failed: input });
    refuseSharedFiles(input, { failed: join(dir, 'failed.jsonl'), unconfirmed: join(dir, 'unconfirmed.jsonl'), skipInvalid: undefined });
  });
});
