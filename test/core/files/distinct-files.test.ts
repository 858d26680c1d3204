import assert from 'node:assert/strict';
import { linkSync, symlinkSync, writeFileSync } from 'node:fs';
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
    refuseSharedFiles('-', { failed: join(dir, 'later', 'failed.jsonl'), unconfirmed: join(dir, 'later', 'unconfirmed.jsonl') });
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
