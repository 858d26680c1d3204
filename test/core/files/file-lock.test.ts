import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { exitCodeOfError } from '../../../src/main.js';
import { ExitCode, LockedError, UsageError } from '../../../src/core/errors.js';
import { acquireFileLock, takeOver } from '../../../src/core/files/file-lock.js';
import { isRunning, processStartTime } from '../../../src/core/files/processes.js';
import { FileWriteError } from '../../../src/core/files/write-errors.js';
import { exitedPid, tempDir } from '../../helpers/cli.js';
import { waitFor } from '../../helpers/wait.js';

describe('processes', () => {
  it("reads a running process's start time (field 22 of /proc/PID/stat, in clock ticks since boot), and none for a process gone", async () => {
    const started = await processStartTime(process.pid);
    assert.match(started ?? '', /^\d+$/);
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    assert.equal(started, fields[22 - 3]);
    assert.equal(await processStartTime(exitedPid()), undefined);
    assert.equal(isRunning(process.pid), true);
    assert.equal(isRunning(exitedPid()), false);
  });

  it('takes a process that has ended and that its parent has not yet waited for (a zombie) for gone, and its lock for stale', { skip: process.platform !== 'linux' && 'needs /proc' }, async (t) => {
    // The child ends once the shell has become sleep, which never waits for it (a shell would).
    const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    t.after(() => parent.kill('SIGKILL'));
    const [line] = await once(parent.stdout, 'data');
    const zombie = Number(String(line).trim());
    await waitFor(() => readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]!.startsWith('Z'), { what: 'the child to end' });
    assert.equal(isRunning(zombie), false);
    const path = join(tempDir(), 'state.json');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: zombie, host: hostname(), since: 'killed with -9', started: await processStartTime(zombie) }));
    const lock = await acquireFileLock(path, 0);
    assert.equal(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid, process.pid);
    await lock.release();
  });
});

describe('acquireFileLock', () => {
  /** Backdates a file's times, as a lock cut short long ago has them. */
  function madeSecondsAgo(file: string, seconds: number): void {
    const then = new Date(Date.now() - seconds * 1000);
    utimesSync(file, then, then);
  }

  it('writes its owner (pid, host, since, start time) to a private path.lock', async () => {
    const path = join(tempDir(), 'state.json');
    const lock = await acquireFileLock(path, Date.UTC(2026, 0, 2, 3, 4, 5));
    const started = await processStartTime(process.pid);
    assert.equal(readFileSync(`${path}.lock`, 'utf8'), `${JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-01-02T03:04:05.000Z', started })}\n`);
    assert.equal(statSync(`${path}.lock`).mode & 0o777, 0o600);
    await lock.release();
    await lock.release();
    assert.equal(existsSync(`${path}.lock`), false);
  });

  it('takes an owner on another host for alive, and names it', async () => {
    const path = join(tempDir(), 'state.json');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345, host: `not-${hostname()}`, since: 'noon' }));
    await assert.rejects(acquireFileLock(path, 0), (error: unknown) =>
      error instanceof LockedError &&
      exitCodeOfError(error) === ExitCode.busy &&
      error.message === `${path} is in use by another run (pid ${2 ** 22 + 12345} on not-${hostname()} since noon)` &&
      error.hint === `wait for it to finish; if it is gone, delete ${path}.lock`,
    );
  });

  it('takes an owner on this host that runs for alive, also one it may not signal', async () => {
    const path = join(tempDir(), 'state.json');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 1, host: hostname(), since: 'boot' }));
    await assert.rejects(acquireFileLock(path, 0), /in use by another run \(pid 1 on /);
  });

  it("takes over a lock naming this process's own pid and host that it does not hold: a restarted container's earlier run", async () => {
    const path = join(tempDir(), 'state.json');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), since: 'before the restart', started: '1' }));
    const lock = await acquireFileLock(path, 0);
    assert.notEqual(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).since, 'before the restart');
    await lock.release();
    // The same pid and even the same start time (a restarted container's clock ticks can match): not held here, so not live.
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), since: 'before the restart', started: await processStartTime(process.pid) }));
    const again = await acquireFileLock(path, 0);
    await assert.rejects(acquireFileLock(path, 0), LockedError, 'held here: live');
    await again.release();
  });

  it('releases only its own lock: a second release leaves the lock another run took since alone', async () => {
    const path = join(tempDir(), 'state.json');
    const lock = await acquireFileLock(path, 0);
    await lock.release();
    const other = JSON.stringify({ pid: 2 ** 22 + 12345, host: `not-${hostname()}`, since: 'later' });
    writeFileSync(`${path}.lock`, other);
    await lock.release();
    assert.equal(readFileSync(`${path}.lock`, 'utf8'), other);
  });

  it('tells a live owner from a later process given its pid by the start time recorded', { skip: process.platform !== 'linux' && 'needs /proc' }, async () => {
    const path = join(tempDir(), 'state.json');
    const pid = process.ppid;
    const started = await processStartTime(pid);
    assert.match(started ?? '', /^\d+$/);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid, host: hostname(), since: 'noon', started }));
    await assert.rejects(acquireFileLock(path, 0), new RegExp(`in use by another run \\(pid ${pid} on `));
    writeFileSync(`${path}.lock`, JSON.stringify({ pid, host: hostname(), since: 'noon', started: `${started}0` }));
    const lock = await acquireFileLock(path, 0);
    assert.equal(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid, process.pid);
    await lock.release();
  });

  it('takes over a lock file that cannot be read as an owner', async () => {
    const path = join(tempDir(), 'state.json');
    writeFileSync(`${path}.lock`, '{"pid": 1');
    madeSecondsAgo(`${path}.lock`, 6);
    const lock = await acquireFileLock(path, 0);
    assert.equal(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid, process.pid);
    await lock.release();
  });

  it('locks a file by what it is, not by the name given: a symlink to it takes the same lock', async () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    writeFileSync(path, '{}');
    symlinkSync(path, join(dir, 'alias.json'));
    const lock = await acquireFileLock(path, 0);
    await assert.rejects(acquireFileLock(join(dir, 'alias.json'), 0), LockedError);
    await lock.release();
    assert.deepEqual(readdirSync(dir).sort(), ['alias.json', 'state.json'], 'no lock, no draft left');
  });

  it('leaves at release a lock file that is not the one it made (another run\'s, put in its place)', async () => {
    const path = join(tempDir(), 'state.json');
    const lock = await acquireFileLock(path, 0);
    const other = JSON.stringify({ pid: 2 ** 22 + 12345, host: `not-${hostname()}`, since: 'later' });
    writeFileSync(`${path}.new`, other);
    renameSync(`${path}.new`, `${path}.lock`);
    await lock.release();
    assert.equal(readFileSync(`${path}.lock`, 'utf8'), other);
  });

  /** A lock whose owner is gone without letting it go (killed with -9), and its inode. */
  function staleLock(lockPath: string): bigint {
    writeFileSync(lockPath, JSON.stringify({ pid: exitedPid(), host: hostname(), since: 'a run killed with -9' }));
    return statSync(lockPath, { bigint: true }).ino;
  }
  const liveElsewhere = JSON.stringify({ pid: 2 ** 22 + 12345, host: `not-${hostname()}`, since: 'a moment ago' });
  const me = JSON.stringify({ pid: process.pid, host: hostname(), since: 'now' }) + '\n';

  it('takes over only a lock still stale: another run\'s put in its place meanwhile is left to that run, its name never free', async () => {
    const path = join(tempDir(), 'state.json');
    staleLock(`${path}.lock`);
    // Another run took the stale lock over first: its own lock is in the place.
    writeFileSync(`${path}.new`, liveElsewhere);
    renameSync(`${path}.new`, `${path}.lock`);
    const before = statSync(`${path}.lock`, { bigint: true });
    // A rename or link of the file would change its ctime: past the clock's tick first.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await takeOver(path, `${path}.lock`, me);
    const after = statSync(`${path}.lock`, { bigint: true });
    assert.deepEqual([after.ino, after.ctimeNs], [before.ino, before.ctimeNs], 'neither moved nor linked');
    assert.equal(readFileSync(`${path}.lock`, 'utf8'), liveElsewhere);
    assert.deepEqual(readdirSync(join(path, '..')).sort(), ['state.json.lock'], 'nothing left aside');
  });

  it('leaves a live lock made at the inode of the stale one it judged (file systems reuse them): the run taking it waits', async () => {
    const path = join(tempDir(), 'state.json');
    const stale = staleLock(`${path}.lock`);
    // Let go, and another run's lock made at the same inode: written in place here.
    writeFileSync(`${path}.lock`, liveElsewhere);
    assert.equal(statSync(`${path}.lock`, { bigint: true }).ino, stale);
    await takeOver(path, `${path}.lock`, me);
    assert.equal(readFileSync(`${path}.lock`, 'utf8'), liveElsewhere);
    await assert.rejects(acquireFileLock(path, 0), /in use by another run \(pid 4206649 on not-/);
  });

  it('takes a stale lock over, and a takeover left by a run killed as it took over; one a live run holds is left to it', async () => {
    const path = join(tempDir(), 'state.json');
    staleLock(`${path}.lock`);
    writeFileSync(`${path}.lock.takeover`, liveElsewhere);
    await assert.rejects(acquireFileLock(path, 0), (error: unknown) => error instanceof LockedError && error.message === `${path} is in use by another run that started at the same moment`);
    assert.equal(readFileSync(`${path}.lock.takeover`, 'utf8'), liveElsewhere, 'a live run\'s takeover is its own');
    staleLock(`${path}.lock.takeover`);
    const lock = await acquireFileLock(path, 0);
    assert.equal(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid, process.pid);
    await lock.release();
    assert.deepEqual(readdirSync(join(path, '..')), [], 'no lock, no takeover, nothing aside');
  });

  it('takes a stale lock over and sweeps what runs killed as they made a lock left beside it, keeping a live run\'s', async () => {
    const path = join(tempDir(), 'state.json');
    staleLock(`${path}.lock`);
    const gone = [`${path}.lock.${exitedPid()}-0123abcd.tmp`, `${path}.lock.takeover.${exitedPid()}-89abcdef.tmp`];
    const live = `${path}.lock.${process.ppid}-00000000.tmp`;
    // Just written under a pid not running here: a run on another host sharing the volume, making its lock now.
    const elsewhere = `${path}.lock.${exitedPid()}-fedcba98.tmp`;
    for (const draft of [...gone, live, elsewhere]) writeFileSync(draft, me);
    const minuteAgo = new Date(Date.now() - 60_000);
    for (const draft of gone) utimesSync(draft, minuteAgo, minuteAgo);
    const lock = await acquireFileLock(path, 0);
    await lock.release();
    assert.deepEqual(readdirSync(join(path, '..')).sort(), [basename(live), basename(elsewhere)].sort());
  });

  it('leaves alone what is in the place of the lock and was never one: a user\'s file, a directory, a FIFO; usage error (2), nothing taken', async () => {
    const dir = tempDir();
    const path = join(dir, 'notes');
    for (const [what, make] of [
      ['notes', () => writeFileSync(`${path}.lock`, 'my notes\n')],
      ['JSON that names no owner', () => writeFileSync(`${path}.lock`, '{"precious":1}\n')],
      ['whole JSON that begins as a lock does and is none', () => writeFileSync(`${path}.lock`, '{"pid":999999,"note":"another tool"}\n')],
      ['a link to nothing', () => symlinkSync(join(dir, 'nothing-here'), `${path}.lock`)],
      ['a directory', () => mkdirSync(join(`${path}.lock`, 'inside'), { recursive: true })],
      // Opened without blocking: with no writer, a FIFO would keep the open waiting for ever.
      ['a FIFO', () => execFileSync('mkfifo', [`${path}.lock`])],
    ] as const) {
      rmSync(`${path}.lock`, { recursive: true, force: true });
      make();
      const before = lstatSync(`${path}.lock`);
      await assert.rejects(acquireFileLock(path, 0), (error: unknown) => {
        assert.ok(error instanceof UsageError, `${what}: ${String(error)}`);
        assert.equal(error.message, `${path}.lock: is in the place of the lock of ${path}, and is not a lock csafe made, so it is left alone`);
        assert.equal(exitCodeOfError(error), ExitCode.usage);
        return true;
      });
      const after = lstatSync(`${path}.lock`);
      assert.deepEqual([after.ino, after.mtimeMs], [before.ino, before.mtimeMs], `${what} is left as it was`);
    }
    assert.deepEqual(readdirSync(dir), ['notes.lock']);
  });

  it('takes over an empty lock some seconds old, or dated some seconds ahead (a file server\'s clock): one made in place, where the file system takes no hard links, and never written', async () => {
    const path = join(tempDir(), 'state.json');
    for (const seconds of [6, -6]) {
      writeFileSync(`${path}.lock`, '');
      madeSecondsAgo(`${path}.lock`, seconds);
      const lock = await acquireFileLock(path, 0);
      assert.equal(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid, process.pid);
      await lock.release();
    }
  });

  it('leaves an empty or cut-short lock just made to the run writing it (made in place, no hard links): busy (75), not taken over', async () => {
    const path = join(tempDir(), 'state.json');
    for (const text of ['', '{"pid":12']) {
      writeFileSync(`${path}.lock`, text);
      const before = statSync(`${path}.lock`, { bigint: true }).ino;
      await assert.rejects(acquireFileLock(path, 0), (error: unknown) => error instanceof LockedError && error.message === `${path} is in use by another run that started at the same moment`);
      await takeOver(path, `${path}.lock`, me);
      assert.equal(statSync(`${path}.lock`, { bigint: true }).ino, before, `${JSON.stringify(text)}: left in place`);
      writeFileSync(`${path}.lock.takeover`, text);
      await assert.rejects(acquireFileLock(path, 0), LockedError, `${JSON.stringify(text)}: a takeover being written is left to its run too`);
      assert.equal(readFileSync(`${path}.lock.takeover`, 'utf8'), text);
      rmSync(`${path}.lock.takeover`);
    }
  });

  it('lets go of its lock as the process leaves at once (process.exit, as on a second Ctrl-C), and of none another run made', () => {
    const dir = tempDir();
    const lockModule = new URL('../../../src/core/files/file-lock.js', import.meta.url).href;
    /** A process that takes the lock of `path`, does `meanwhile`, and leaves at once: its exit code. */
    const leaveAtOnce = (path: string, meanwhile = '') =>
      spawnSync(process.execPath, ['--input-type=module', '-e', `const { acquireFileLock } = await import(${JSON.stringify(lockModule)}); await acquireFileLock(${JSON.stringify(path)}, 0); ${meanwhile}; process.exit(130);`], { stdio: 'inherit' }).status;
    assert.equal(leaveAtOnce(join(dir, 'state.json')), 130);
    assert.deepEqual(readdirSync(dir), [], 'no lock left behind');
    // Another run's lock, put in its place meanwhile, is that run's.
    const other = join(dir, 'other.json');
    writeFileSync(`${other}.new`, liveElsewhere);
    assert.equal(leaveAtOnce(other, `(await import('node:fs')).renameSync(${JSON.stringify(`${other}.new`)}, ${JSON.stringify(`${other}.lock`)})`), 130);
    assert.equal(readFileSync(`${other}.lock`, 'utf8'), liveElsewhere);
  });

  it('names the lock file when it cannot be created', async () => {
    const path = join(tempDir(), 'missing', 'state.json');
    await assert.rejects(acquireFileLock(path, 0), (error: unknown) => error instanceof FileWriteError && error.message === `${path}.lock: could not write the lock: no such directory (ENOENT)`);
  });
});
