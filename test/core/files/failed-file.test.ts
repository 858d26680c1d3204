import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Checkpoint } from '../../../src/commands/events/send/checkpoint.js';
import { RangeCheckpoint } from '../../../src/core/bulk/range-checkpoint.js';
import { FailedFile } from '../../../src/core/files/failed-file.js';
import { defaultFailedPath } from '../../../src/core/files/failed-path.js';
import { FileWriteError } from '../../../src/core/files/write-errors.js';
import { tempDir, withDeadline } from '../../helpers/cli.js';
import { waitFor } from '../../helpers/wait.js';
import { readPipe } from '../../helpers/pipe.js';
import { canListDescriptors, descriptorsOn } from '../../helpers/descriptors.js';

describe('FailedFile', () => {
  it('appends whole lines, creating the file on the first record only', async () => {
    const path = join(tempDir(), 'failed.jsonl');
    const file = new FailedFile(path);
    await Promise.all([file.appendLines([{ text: '{"a":1}', line: 1 }, { text: '{"a":2}', line: 2 }]), file.append({ a: 3 }, 5)]);
    await file.close();
    assert.equal(readFileSync(path, 'utf8'), '{"a":1}\n{"a":2}\n{"a":3}\n');
    assert.equal(file.count, 3);
  });

  it('knows what earlier runs left in the file and what this run appended', async () => {
    const path = join(tempDir(), 'failed.jsonl');
    writeFileSync(path, '{"earlier":1}\n');
    const file = new FailedFile(path);
    assert.deepEqual([file.priorBytes, file.appendedBytes], [0, 0]);
    await file.appendLines([{ text: '{"a":1}', line: 1 }, { text: '{"a":22}', line: 2 }]);
    await file.close();
    assert.deepEqual([file.priorBytes, file.appendedBytes], [14, 17]);
    assert.equal(readFileSync(path, 'utf8').slice(file.priorBytes), '{"a":1}\n{"a":22}\n');
  });

  it('ends the half line a run killed as it appended left, so the first record of this one stays whole: appended, and at once', async () => {
    for (const appendAtOnce of [false, true]) {
      const path = join(tempDir(), 'failed.jsonl');
      writeFileSync(path, '{"earlier":1}\n{"cut":');
      const file = new FailedFile(path);
      if (appendAtOnce) file.appendNow([{ text: '{"a":1}', line: 1 }]);
      else await file.appendLines([{ text: '{"a":1}', line: 1 }]);
      await file.close();
      assert.equal(readFileSync(path, 'utf8'), '{"earlier":1}\n{"cut":\n{"a":1}\n');
      assert.equal(readFileSync(path, 'utf8').slice(file.priorBytes), '{"a":1}\n', 'what this run appended starts after the ended line');
    }
  });

  it('appendNow, for a process about to leave, writes at once and never waits: a named pipe no one reads is an error in words', () => {
    const dir = tempDir();
    const path = join(dir, 'failed.jsonl');
    writeFileSync(path, '{"earlier":1}\n');
    const file = new FailedFile(path);
    file.appendNow([{ text: '{"a":1}', line: 1 }, { text: '{"a":2}', line: 2 }]);
    assert.equal(readFileSync(path, 'utf8'), '{"earlier":1}\n{"a":1}\n{"a":2}\n');
    assert.equal(file.count, 2);
    const pipe = join(dir, 'failed.fifo');
    execFileSync('mkfifo', [pipe]);
    assert.throws(() => new FailedFile(pipe).appendNow([{ text: '{"b":1}', line: 3 }]), (error: unknown) => error instanceof FileWriteError && error.message === `${pipe}: could not write: nothing reads the named pipe (ENXIO); 1 record not written (input line 3)`);
  });

  it('appendNow into a pipe that fills up writes whole records up to the one that does not fit, and counts the rest', async () => {
    const pipe = join(tempDir(), 'slow.fifo');
    execFileSync('mkfifo', [pipe]);
    // A reader that opens the pipe at once and reads nothing for a while: the pipe fills up.
    const reader = spawn('sh', ['-c', 'exec 3<"$0"; sleep 3; cat <&3', pipe]);
    let read = '';
    reader.stdout.on('data', (chunk) => (read += chunk));
    const records = Array.from({ length: 2000 }, (_, i) => ({ text: JSON.stringify({ n: i, pad: 'x'.repeat(90) }), line: i + 1 }));
    const file = new FailedFile(pipe);
    let refusal: unknown;
    // The reader is there once its shell has opened the pipe: until then the pipe has none (ENXIO).
    for (let tries = 0; ; tries++) {
      refusal = undefined;
      try {
        file.appendNow(records);
      } catch (error) {
        refusal = error;
      }
      if (!(refusal instanceof FileWriteError && refusal.message.includes('ENXIO'))) break;
      assert.ok(tries < 100, 'the reader opened the pipe within 2 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(refusal instanceof FileWriteError && refusal.message.includes('the named pipe is full (EAGAIN)'), String(refusal));
    const written = file.count;
    assert.ok(written > 0 && written < records.length, `${written} written`);
    assert.match((refusal as Error).message, new RegExp(`; ${records.length - written} records not written \\(input lines ${written + 1}–${records.length}\\)$`));
    await new Promise((resolve) => reader.once('close', resolve));
    assert.deepEqual(read.split('\n').slice(0, -1).map((line) => JSON.parse(line).n), records.slice(0, written).map((_, i) => i), 'whole lines, in order');
  });

  it('a named pipe waits for its reader, asking again rather than in a thread of the pool: the lines arrive once one opens it', async () => {
    const pipe = join(tempDir(), 'failed.fifo');
    execFileSync('mkfifo', [pipe]);
    const file = new FailedFile(pipe);
    const appended = file.append({ b: 2 }, 4);
    // No reader yet: the append waits, and the event loop is free meanwhile (a timer fires).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reader = readPipe(pipe);
    await appended;
    await file.append({ c: 3 }, 5);
    await file.close();
    await reader.done;
    assert.equal(reader.text(), '{"b":2}\n{"c":3}\n');
  });

  it('holds one descriptor on the file however many writes, and none once closed', { skip: !canListDescriptors && 'needs /proc/self/fd' }, async () => {
    const path = join(tempDir(), 'failed.jsonl');
    const file = new FailedFile(path);
    for (let line = 1; line <= 3; line++) await file.append({ line }, line);
    assert.equal(descriptorsOn(path), 1);
    await file.close();
    assert.equal(descriptorsOn(path), 0);
  });

  it('a write that fails throws one error naming the file, the reason and every record not written', async () => {
    const file = new FailedFile('/dev/full');
    const first = await file.appendLines([{ text: 'x', line: 7 }, { text: 'y', line: 9 }]).catch((error: unknown) => error);
    assert.ok(first instanceof FileWriteError);
    assert.equal(first.message, '/dev/full: could not write: no space left on device (ENOSPC); 2 records not written (input lines 7–9)');
    const later = await file.append({ z: 1 }, 12).catch((error: unknown) => error);
    assert.equal(later, first, 'the same error, counting the later record too');
    assert.match(first.message, /3 records not written \(input lines 7–12\)$/);
    assert.equal(file.count, 0);
    await file.close();
  });
});

describe('two runs appending to one failed file (no checkpoint, so no lock)', () => {
  // The writer whose write fails is a process of its own under `ulimit -f` (a size limit is per
  // process): it appends a line, which opens the file, waits for this process to append the other
  // run's lines, then appends a record larger than its limit. 1 MiB: over the limit in 512- or 1024-byte blocks alike.
  const writer = `
    const { FailedFile } = await import(process.argv[1]);
    const file = new FailedFile(process.argv[2]);
    await file.append({ run: 'a', n: 1 }, 1);
    process.stdout.write('opened\\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    const failure = await file.append({ run: 'a', n: 2, pad: 'x'.repeat(1 << 20) }, 2).catch((error) => error);
    await file.close();
    process.stdout.write(String(failure?.message));
  `;
  const FAILED_FILE = new URL('../../../src/core/files/failed-file.js', import.meta.url).href;
  // 16 blocks: 8 or 16 KiB, as the shell counts them. The other run's lines end below the limit (the failed write ends part-way) or past it (it writes nothing).
  for (const [other, bytes] of [['end below the limit', 2_000], ['go past the limit', 20_000]] as const) {
    it(`a write that fails cuts none of the other run's lines, which ${other}`, { skip: process.platform === 'win32' && 'ulimit' }, async () => {
      const path = join(tempDir(), 'failed.jsonl');
      const child = spawn('sh', ['-c', 'ulimit -f 16 && exec "$0" --input-type=module -e "$1" "$2" "$3"', process.execPath, writer, FAILED_FILE, path]);
      let said = '';
      child.stdout.on('data', (chunk) => (said += chunk));
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise((resolve) => child.once('close', resolve));
      await waitFor(() => said.includes('opened\n') || child.exitCode !== null, { what: 'the writer to open the failed file' });
      assert.equal(child.exitCode, null, stderr);
      const lines = Array.from({ length: Math.ceil(bytes / 100) }, (_, n) => JSON.stringify({ run: 'b', n, pad: 'y'.repeat(80) }));
      appendFileSync(path, lines.map((line) => `${line}\n`).join(''));
      child.stdin.end('go\n');
      await withDeadline(exited, 20_000, 'the writer to exit');
      assert.match(said, /could not write: .*\(EFBIG\); 1 record not written \(input line 2\)/, stderr);
      // The file as the two runs left it: the first run's line and every line of the other run, whole; nothing of the write that failed.
      assert.equal(readFileSync(path, 'utf8'), [JSON.stringify({ run: 'a', n: 1 }), ...lines].map((line) => `${line}\n`).join(''));
    });
  }
});

describe('FailedFile files', () => {
  it('creates nothing for no records, and a private file for the first', async () => {
    const path = join(tempDir(), 'failed.jsonl');
    const file = new FailedFile(path);
    await file.appendLines([]);
    await file.close();
    assert.equal(existsSync(path), false);
    await file.append('x', 1);
    await file.close();
    await file.close();
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(readFileSync(path, 'utf8'), '"x"\n');
  });

  it('appends after what an earlier run left', async () => {
    const path = join(tempDir(), 'failed.jsonl');
    writeFileSync(path, 'old\n');
    const file = new FailedFile(path);
    await file.appendLines([{ text: 'new', line: 1 }]);
    await file.close();
    assert.equal(readFileSync(path, 'utf8'), 'old\nnew\n');
    assert.equal(file.count, 1);
  });

  it('is named after the command and the time, to the second', () => {
    assert.equal(defaultFailedPath('data-add', Date.UTC(2026, 0, 2, 3, 4, 5, 678)), 'csafe-data-add-failed-20260102T030405Z.jsonl');
  });
});

describe('checkpoints record only what was acknowledged', () => {
  const scope = (dir: string) => {
    const inputPath = join(dir, 'input.jsonl');
    writeFileSync(inputPath, '{}\n');
    return { path: join(dir, 'state.json'), inputPath, inputName: 'input.jsonl', now: () => Date.now() };
  };

  it('events: a slot stops at its first event not acknowledged, for the rest of the run', async () => {
    const dir = tempDir();
    const checkpoint = await Checkpoint.open({ ...scope(dir), shard: undefined });
    checkpoint.acknowledge(3, 1);
    checkpoint.hold(3);
    checkpoint.acknowledge(3, 5);
    checkpoint.acknowledge(4, 2);
    await checkpoint.close();
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).settled, { 3: 1, 4: 2 });
  });

  it('data add: accepted requests as merged ranges of record positions, kept across runs', async () => {
    const dir = tempDir();
    const first = await RangeCheckpoint.open({ ...scope(dir), what: 'a csafe data add checkpoint', identity: { namespace: 'ns' } });
    first.acknowledge(6, 10);
    first.acknowledge(1, 5);
    first.acknowledge(21, 25);
    await first.close();
    const again = await RangeCheckpoint.open({ ...scope(dir), what: 'a csafe data add checkpoint', identity: { namespace: 'ns' } });
    assert.deepEqual([1, 10, 11, 20, 21, 25, 26].map((position) => again.isAcknowledged(position)), [true, true, false, false, true, true, false]);
    await again.close();
    await assert.rejects(RangeCheckpoint.open({ ...scope(dir), what: 'a csafe data add checkpoint', identity: { namespace: 'other' } }), /was written for namespace ns, not other/);
  });

  it('data add: a checkpoint belongs to one --shard; one written before --shard existed is a checkpoint without one', async () => {
    const dir = tempDir();
    const sharded = await RangeCheckpoint.open({ ...scope(dir), what: 'a csafe data add checkpoint', identity: { namespace: 'ns' }, shard: { index: 1, count: 4 } });
    sharded.acknowledge(1, 3);
    await sharded.close();
    assert.equal(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).shard, '1/4');
    await assert.rejects(RangeCheckpoint.open({ ...scope(dir), what: 'a csafe data add checkpoint', identity: { namespace: 'ns' }, shard: { index: 2, count: 4 } }), /state\.json was written for --shard 1\/4, not 2\/4$/);
    await assert.rejects(RangeCheckpoint.open({ ...scope(dir), what: 'a csafe data add checkpoint', identity: { namespace: 'ns' } }), /was written for --shard 1\/4, not \(none\)$/);
    const older = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
    delete older.shard;
    writeFileSync(join(dir, 'state.json'), JSON.stringify(older));
    const unsharded = await RangeCheckpoint.open({ ...scope(dir), what: 'a csafe data add checkpoint', identity: { namespace: 'ns' } });
    assert.equal(unsharded.isAcknowledged(2), true);
    await unsharded.close();
    await assert.rejects(RangeCheckpoint.open({ ...scope(dir), what: 'a csafe data add checkpoint', identity: { namespace: 'ns' }, shard: { index: 0, count: 2 } }), /was written for --shard \(none\), not 0\/2$/);
  });
});
