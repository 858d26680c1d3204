import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeStaleTemporaries, writeFileAtomic, writeFileAtomicSync, writeStreamAtomic } from '../../../src/core/files/atomic-file.js';
import { exitedPid, tempDir } from '../../helpers/cli.js';
import { readPipe } from '../../helpers/pipe.js';
import { canListDescriptors, descriptorsOn } from '../../helpers/descriptors.js';

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

  it('keeps the permissions of the file it replaces', async () => {
    const path = join(tempDir(), 'shared.csv');
    writeFileSync(path, 'old');
    chmodSync(path, 0o640);
    await writeFileAtomic(path, 'new');
    assert.equal(readFileSync(path, 'utf8'), 'new');
    assert.equal(statSync(path).mode & 0o777, 0o640);
  });

  it('keeps the owner of the file it replaces: run as root, a user\'s file did not become root\'s', { skip: process.getuid?.() !== 0 && 'needs root to give a file away' }, async () => {
    const file = join(tempDir(), 'theirs.jsonl');
    writeFileSync(file, 'old\n', { mode: 0o640 });
    chownSync(file, 65534, 65534);
    await writeStreamAtomic(file, (async function* () { yield 'new\n'; })());
    assert.equal(readFileSync(file, 'utf8'), 'new\n');
    const replaced = statSync(file);
    assert.deepEqual([replaced.uid, replaced.gid, replaced.mode & 0o777], [65534, 65534, 0o640]);
    // And as a process about to leave replaces a checkpoint.
    assert.equal(writeFileAtomicSync(file, 'newer\n'), true);
    const again = statSync(file);
    assert.deepEqual([again.uid, again.gid, again.mode & 0o777], [65534, 65534, 0o640]);
  });

  it('syncDirectory: false replaces the file as whole, keeping its permissions and leaving no temporary file', async () => {
    const dir = tempDir();
    const path = join(dir, 'checkpoint.json');
    writeFileSync(path, 'old');
    chmodSync(path, 0o640);
    await writeFileAtomic(path, 'new', { syncDirectory: false });
    assert.equal(readFileSync(path, 'utf8'), 'new');
    assert.equal(statSync(path).mode & 0o777, 0o640);
    assert.deepEqual(readdirSync(dir), ['checkpoint.json']);
  });

  it('refuses a directory before making any temporary file', async () => {
    const dir = tempDir();
    const path = join(dir, 'taken');
    mkdirSync(join(path, 'inside'), { recursive: true });
    await assert.rejects(writeFileAtomic(path, 'x'), { code: 'EISDIR' });
    assert.deepEqual(readdirSync(dir), ['taken']);
  });
});

describe('what an atomic write leaves a target that is not a regular file', () => {
  it('writes through a symbolic link into the file it names, which is replaced; the link stays a link', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'results.csv'), 'old', { mode: 0o644 });
    symlinkSync(join('real', 'results.csv'), join(dir, 'link.csv'));
    await writeFileAtomic(join(dir, 'link.csv'), 'new');
    assert.ok(lstatSync(join(dir, 'link.csv')).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'real', 'results.csv'), 'utf8'), 'new');
    assert.equal(statSync(join(dir, 'real', 'results.csv')).mode & 0o777, 0o644);
    assert.deepEqual([readdirSync(dir).sort(), readdirSync(join(dir, 'real'))], [['link.csv', 'real'], ['results.csv']]);
  });

  it('refuses a symbolic link that names nothing, and leaves it as it is', async () => {
    const dir = tempDir();
    symlinkSync('missing.csv', join(dir, 'link.csv'));
    await assert.rejects(writeFileAtomic(join(dir, 'link.csv'), 'x'), /is a symbolic link to missing\.csv, which does not exist/);
    assert.ok(lstatSync(join(dir, 'link.csv')).isSymbolicLink());
    assert.deepEqual(readdirSync(dir), ['link.csv']);
  });

  it('writes through a symbolic link to something not a file into it, as it is, and closes it', async () => {
    const dir = tempDir();
    const link = join(dir, 'out.csv');
    symlinkSync('/dev/null', link);
    const before = canListDescriptors ? descriptorsOn('/dev/null') : 0;
    for (let n = 0; n < 5; n++) await writeFileAtomic(link, 'a,b\n');
    if (canListDescriptors) assert.equal(descriptorsOn('/dev/null'), before, 'no descriptor left open on it');
    assert.equal(readlinkSync(link), '/dev/null');
    assert.ok(statSync('/dev/null').isCharacterDevice());
    assert.deepEqual(readdirSync(dir), ['out.csv']);
  });

  it('reports a symbolic link that loops as the system does, not as a link to nothing', async () => {
    const dir = tempDir();
    symlinkSync('b', join(dir, 'a'));
    symlinkSync('a', join(dir, 'b'));
    await assert.rejects(writeFileAtomic(join(dir, 'a'), 'x'), { code: 'ELOOP' });
    assert.deepEqual(readdirSync(dir).sort(), ['a', 'b']);
  });

  it('streams into a FIFO, which a reader gets whole and which stays a FIFO', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'results.fifo');
    execFileSync('mkfifo', [fifo]);
    // A reader in another process: one left waiting on a FIFO that was renamed away is killed, not left to hang the test.
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const read = ended(reader);
      await writeStreamAtomic(fifo, chunks('a,b\n', '1,2\n'));
      assert.ok(lstatSync(fifo).isFIFO(), 'still a FIFO');
      assert.equal(await read, 'a,b\n1,2\n');
      assert.deepEqual(readdirSync(dir), ['results.fifo']);
    } finally {
      reader.kill();
    }
  });

  it('writes into a character device (a copy of /dev/null made here) and leaves it one', { skip: !madeDevice() && 'mknod is not allowed here' }, async () => {
    const device = join(tempDir(), 'null');
    execFileSync('mknod', [device, 'c', '1', '3']);
    await writeFileAtomic(device, 'x');
    assert.ok(lstatSync(device).isCharacterDevice());
  });
});

async function* chunks(...texts: string[]) {
  for (const text of texts) yield text;
}

/** What a child printed on stdout once it has exited, within a deadline. */
function ended(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const deadline = setTimeout(() => reject(new Error('the reader of the FIFO got no end of file within 10 s')), 10_000);
    child.stdout!.on('data', (chunk) => (text += chunk));
    child.once('close', () => {
      clearTimeout(deadline);
      resolve(text);
    });
  });
}

/** Whether this test may make device nodes (root, where the container allows it). */
function madeDevice(): boolean {
  const device = join(tempDir(), 'probe');
  try {
    execFileSync('mknod', [device, 'c', '1', '3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

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

describe('writeStreamAtomic on a disk that takes part of a write', () => {
  it('fails the download, leaving neither a cut-off file nor its temporary, when a write is taken only in part', () => {
    const dir = tempDir();
    const path = join(dir, 'results.jsonl');
    // A file-size limit (`ulimit -f`) makes the kernel take what fits, then refuse the rest (EFBIG), as a full disk does (ENOSPC).
    const script = `import { writeStreamAtomic } from ${JSON.stringify(new URL('../../../src/core/files/atomic-file.js', import.meta.url).href)};
      await writeStreamAtomic(${JSON.stringify(path)}, (async function* () { yield Buffer.alloc(1 << 20, 120); })()).then(() => console.log('written'), (error) => console.log(error.code));`;
    const said = execFileSync('/bin/sh', ['-c', 'ulimit -f 64 && exec "$0" --input-type=module -e "$1"', process.execPath, script], { encoding: 'utf8' }).trim();
    assert.equal(said, 'EFBIG');
    assert.deepEqual(readdirSync(dir), []);
  });
});

describe('writeStreamAtomic into a named pipe', () => {
  it('waits for its reader without holding a thread of the pool, then streams to it; the pipe stays a pipe', async () => {
    const pipe = join(tempDir(), 'results.fifo');
    execFileSync('mkfifo', [pipe]);
    const written = writeStreamAtomic(pipe, (async function* () { yield 'a,b\n'; yield '1,2\n'; })());
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reader = readPipe(pipe);
    await written;
    await reader.done;
    assert.equal(reader.text(), 'a,b\n1,2\n');
    assert.ok(lstatSync(pipe).isFIFO(), 'the pipe is left a pipe');
  });
});

describe('writeFileAtomicSync, for a process about to leave at once', () => {
  it('creates a file private to the user, replaces one keeping its permissions, and leaves no temporary', () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    assert.equal(writeFileAtomicSync(path, 'one\n'), true);
    assert.equal(readFileSync(path, 'utf8'), 'one\n');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    chmodSync(path, 0o640);
    assert.equal(writeFileAtomicSync(path, 'two\n'), true);
    assert.equal(readFileSync(path, 'utf8'), 'two\n');
    assert.equal(statSync(path).mode & 0o777, 0o640);
    assert.deepEqual(readdirSync(dir), ['state.json']);
  });

  it('replaces the file a link names, the link left a link; leaves a named pipe or a link to nothing as it is, and says so (false)', () => {
    const dir = tempDir();
    const target = join(dir, 'elsewhere.json');
    writeFileSync(target, 'old\n');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    assert.equal(writeFileAtomicSync(link, 'new\n'), true);
    assert.equal(readlinkSync(link), target);
    assert.equal(readFileSync(target, 'utf8'), 'new\n');
    const dangling = join(dir, 'dangling.json');
    symlinkSync(join(dir, 'nothing.json'), dangling);
    assert.equal(writeFileAtomicSync(dangling, 'new\n'), false);
    const pipe = join(dir, 'pipe.json');
    execFileSync('mkfifo', [pipe]);
    assert.equal(writeFileAtomicSync(pipe, 'new\n'), false);
    assert.ok(lstatSync(pipe).isFIFO());
    assert.deepEqual(readdirSync(dir).sort(), ['dangling.json', 'elsewhere.json', 'link.json', 'pipe.json']);
  });
});

describe('a replace that fails at its rename', () => {
  /** A file not even root may rename over, where chattr can make one (ext4, xfs): undefined where it cannot. */
  function immutableFile(dir: string): string | undefined {
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old\n');
    try {
      execFileSync('chattr', ['+i', path], { stdio: 'ignore' });
      return path;
    } catch {
      return undefined;
    }
  }

  for (const [name, write] of [
    ['writeFileAtomic', (path: string) => writeFileAtomic(path, 'new\n')],
    ['writeFileAtomicSync', async (path: string) => writeFileAtomicSync(path, 'new\n')],
  ] as const) {
    it(`${name} throws the rename's error and leaves no temporary file beside it`, async (t) => {
      const dir = tempDir();
      const path = immutableFile(dir);
      if (path === undefined) return t.skip('chattr +i is not possible here');
      try {
        await assert.rejects(write(path), /EPERM|EACCES/);
        assert.deepEqual(readdirSync(dir), ['state.json']);
        assert.equal(readFileSync(path, 'utf8'), 'old\n');
      } finally {
        execFileSync('chattr', ['-i', path]);
      }
    });
  }
});

describe('removeStaleTemporaries', () => {
  const tmp = (name: string, pid: number, random = '0123abcd') => `${name}.${pid}-${random}.tmp`;

  it("removes the temporaries of that file that ended processes left, keeping a live process's and anything not named as csafe names them", async () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    const [dead, gone] = [exitedPid(), exitedPid()];
    const stale = [tmp('state.json', dead), tmp('state.json', gone, 'ffffffff')];
    const names = [
      'state.json', ...stale, tmp('state.json', process.pid), tmp('state.json', process.ppid),
      // A user's files that only look like temporaries: the shape of csafe's before (no random part), or not quite its own.
      `state.json.${dead}.tmp`, `state.json.${dead}-0123abc.tmp`, `state.json.${dead}-0123ABCD.tmp`, 'state.json.abc.tmp', 'state.json.1', 'state.json.1.tmp.bak',
      tmp('other.json', dead), tmp('xstate.json', dead), 'state.json..tmp',
    ];
    for (const name of names) writeFileSync(join(dir, name), '');
    await removeStaleTemporaries(path);
    assert.deepEqual(readdirSync(dir).sort(), names.filter((name) => !stale.includes(name)).sort());
  });

  it('never removes a link or a FIFO named as a temporary of a process that is gone: only a regular file csafe could have made', async () => {
    const dir = tempDir();
    const path = join(dir, 'report.csv');
    const dead = exitedPid();
    writeFileSync(join(dir, 'p'), 'precious');
    symlinkSync('p', join(dir, tmp('report.csv', dead, '00000001')));
    execFileSync('mkfifo', [join(dir, tmp('report.csv', dead, '00000002'))]);
    await removeStaleTemporaries(path);
    assert.deepEqual(readdirSync(dir).sort(), ['p', tmp('report.csv', dead, '00000001'), tmp('report.csv', dead, '00000002')].sort());
    assert.equal(readFileSync(join(dir, 'p'), 'utf8'), 'precious');
  });

  it('is done before a download is written: what a killed earlier download left goes, another live one\'s stays', async () => {
    const dir = tempDir();
    const path = join(dir, 'results.csv');
    const [left, live] = [tmp('results.csv', exitedPid()), tmp('results.csv', process.ppid)];
    for (const name of [left, live]) writeFileSync(join(dir, name), 'a,b\n');
    await writeStreamAtomic(path, (async function* () { yield 'a,b\n'; })());
    assert.deepEqual(readdirSync(dir).sort(), ['results.csv', live].sort());
  });

  it('looks beside the file a symbolic link names, where the writes through it are prepared', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'state.json'), '{}');
    writeFileSync(join(dir, 'real', tmp('state.json', exitedPid())), '');
    symlinkSync(join('real', 'state.json'), join(dir, 'link.json'));
    await removeStaleTemporaries(join(dir, 'link.json'));
    assert.deepEqual(readdirSync(join(dir, 'real')), ['state.json']);
  });

  it('prepares a write under a name of the shape it removes: this process and a random part, new each time', async () => {
    const dir = tempDir();
    const path = join(dir, 'results.csv');
    const seen: string[] = [];
    for (let i = 0; i < 2; i++) {
      await writeStreamAtomic(path, (async function* () {
        seen.push(...readdirSync(dir).filter((name) => name.endsWith('.tmp')));
        yield 'a,b\n';
      })());
    }
    assert.equal(seen.length, 2, seen.join(' '));
    for (const name of seen) assert.match(name, new RegExp(`^results\\.csv\\.${process.pid}-[0-9a-f]{8}\\.tmp$`));
    assert.notEqual(seen[0], seen[1]);
  });

  it('does nothing where the directory is missing', async () => {
    await removeStaleTemporaries(join(tempDir(), 'missing', 'state.json'));
  });
});
