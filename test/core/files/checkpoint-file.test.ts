import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CheckpointFile, type CheckpointFormat, isDurableDue } from '../../../src/core/files/checkpoint-file.js';
import { InputError, UsageError } from '../../../src/core/errors.js';
import { FileWriteError } from '../../../src/core/files/write-errors.js';
import { exitedPid, tempDir } from '../../helpers/cli.js';

interface Progress {
  owner: string;
  done: number;
}

const checks: string[] = [];
const format: CheckpointFormat<Progress> = {
  what: 'a test checkpoint',
  schema: z.object({ owner: z.string(), done: z.number() }),
  fresh: () => ({ owner: 'me', done: 0 }),
  check: (existing, hint) => {
    checks.push(hint);
    if (existing.owner !== 'me') throw new UsageError(`written by ${existing.owner}`, { hint });
  },
};

function setup(input = 'abc\n') {
  const dir = tempDir();
  const inputPath = join(dir, 'input.jsonl');
  writeFileSync(inputPath, input);
  const clock = { now: 0 };
  const scope = { path: join(dir, 'state.json'), inputPath, inputName: 'input.jsonl', now: () => clock.now };
  return { dir, scope, clock, inputPath };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('isDurableDue: which saves of a checkpoint make its rename durable (the directory fsync\'d)', () => {
  it('the first, then one at least every second', () => {
    assert.equal(isDurableDue(5000, undefined), true);
    assert.equal(isDurableDue(5000, 5000), false);
    assert.equal(isDurableDue(5999, 5000), false);
    assert.equal(isDurableDue(6000, 5000), true);
  });

  it('a clock set back since the last durable save makes the next one durable, not one an hour of saves later', () => {
    assert.equal(isDurableDue(5000 - 3_600_000, 5000), true);
    assert.equal(isDurableDue(4999, 5000), true);
  });
});

describe('CheckpointFile', () => {
  it('refuses a path that names a descriptor (/dev/fd/N), which a save could only be written after the last through, never replace', async () => {
    const { dir, scope } = setup();
    const fd = openSync(join(dir, 'given.log'), 'a');
    try {
      await assert.rejects(CheckpointFile.open({ ...scope, path: `/dev/fd/${fd}` }, format), (error: unknown) =>
        error instanceof InputError && error.message === `/dev/fd/${fd}: a checkpoint is replaced as the run goes, which a descriptor cannot be`);
      assert.deepEqual(readdirSync(dir).sort(), ['given.log', 'input.jsonl'], 'no lock taken');
    } finally {
      closeSync(fd);
    }
  });

  it('starts fresh, writes nothing before the first save, and saves the envelope and progress on each save and on close', async () => {
    const { dir, scope, clock } = setup();
    const checkpoint = await CheckpointFile.open(scope, format);
    assert.deepEqual(checkpoint.progress, { owner: 'me', done: 0 });
    assert.deepEqual(readdirSync(dir).sort(), ['input.jsonl', 'state.json.lock']);
    checkpoint.progress.done = 5;
    clock.now = 250;
    await checkpoint.save();
    const saved = {
      version: 1,
      input: { name: 'input.jsonl', fingerprint: sha256('abc\n'), fingerprint_bytes: 4 },
      owner: 'me',
      done: 5,
      updated_at: '1970-01-01T00:00:00.250Z',
    };
    assert.equal(readFileSync(scope.path, 'utf8'), JSON.stringify(saved, null, 1) + '\n');
    checkpoint.progress.done = 6;
    clock.now = 251;
    await checkpoint.save();
    assert.equal(JSON.parse(readFileSync(scope.path, 'utf8')).done, 6, 'a save right after another is written too');
    checkpoint.progress.done = 7;
    clock.now = 500;
    await checkpoint.close();
    assert.deepEqual(JSON.parse(readFileSync(scope.path, 'utf8')), { ...saved, done: 7, updated_at: '1970-01-01T00:00:00.500Z' });
    assert.deepEqual(readdirSync(dir).sort(), ['input.jsonl', 'state.json']);
  });

  it('saves asked for while one is written wait for one more write, which holds what each of them recorded', async () => {
    const { scope } = setup();
    let stamps = 0;
    // Each write stamps updated_at once: the count of stamps is the count of writes.
    const checkpoint = await CheckpointFile.open({ ...scope, now: () => (stamps++, 0) }, format);
    stamps = 0;
    checkpoint.progress.done = 1;
    const first = checkpoint.save();
    checkpoint.progress.done = 2;
    const second = checkpoint.save();
    checkpoint.progress.done = 3;
    const third = checkpoint.save();
    assert.equal(second, third, 'one write queued for both');
    await first;
    assert.equal(JSON.parse(readFileSync(scope.path, 'utf8')).done, 1, 'the first write holds what was recorded when it began');
    await third;
    assert.equal(JSON.parse(readFileSync(scope.path, 'utf8')).done, 3);
    assert.equal(stamps, 2);
    await checkpoint.save();
    assert.equal(stamps, 3, 'nothing queued once the writes are done: the next save writes at once');
    await checkpoint.close();
  });

  it('resumes the progress of the same input, also when the input has grown since', async () => {
    const { scope, inputPath } = setup();
    const first = await CheckpointFile.open(scope, format);
    first.progress.done = 3;
    await first.close();
    appendFileSync(inputPath, 'more\n');
    checks.length = 0;
    const again = await CheckpointFile.open(scope, format);
    assert.deepEqual(again.progress, { owner: 'me', done: 3 });
    assert.deepEqual(checks, [`delete ${scope.path} to start over, or give another --checkpoint`]);
    await again.close();
    assert.equal(JSON.parse(readFileSync(scope.path, 'utf8')).input.fingerprint_bytes, 4, 'still the fingerprint of the first bytes');
  });

  it('keeps the records set aside beside the progress, written once there is one, and reads them back', async () => {
    const { scope } = setup();
    const first = await CheckpointFile.open(scope, format);
    await first.save();
    assert.equal('set_aside' in JSON.parse(readFileSync(scope.path, 'utf8')), false, 'a checkpoint with none is as it was');
    for (const position of [4, 2, 3, 9]) first.setAside.add(position);
    await first.close();
    assert.deepEqual(JSON.parse(readFileSync(scope.path, 'utf8')).set_aside, [[2, 4], [9, 9]]);
    const again = await CheckpointFile.open(scope, format);
    assert.deepEqual([1, 2, 3, 4, 5, 9].map((position) => again.setAside.holds(position)), [false, true, true, true, false, true]);
    assert.deepEqual(again.progress, { owner: 'me', done: 0 });
    await again.close();
  });

  it('saveNow writes the progress before it returns, and names the checkpoint when it cannot (a named pipe in its place)', async () => {
    const { dir, scope } = setup();
    const checkpoint = await CheckpointFile.open(scope, format);
    checkpoint.progress.done = 7;
    checkpoint.saveNow();
    assert.equal(JSON.parse(readFileSync(scope.path, 'utf8')).done, 7);
    await checkpoint.close();
    const piped = { ...scope, path: join(dir, 'piped.json') };
    const other = await CheckpointFile.open(piped, format);
    execFileSync('mkfifo', [piped.path]);
    assert.throws(() => other.saveNow(), (error: unknown) => error instanceof FileWriteError && error.message.startsWith(`${piped.path}: could not write the checkpoint: it is no regular file`));
    rmSync(piped.path);
    await other.close();
  });

  it('saves records set aside together, soon after the first of them, not one save each', async () => {
    const { scope } = setup();
    const checkpoint = await CheckpointFile.open(scope, format);
    await checkpoint.save();
    for (let position = 2; position <= 2000; position += 2) checkpoint.setAside.add(position);
    // Saved one by one, the first save would be on its way now, holding the first record.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal('set_aside' in JSON.parse(readFileSync(scope.path, 'utf8')), false, 'not saved at once');
    const deadline = Date.now() + 10_000;
    while (!('set_aside' in JSON.parse(readFileSync(scope.path, 'utf8')))) {
      assert.ok(Date.now() < deadline, 'the records set aside were not saved within 10 s, without a close');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(JSON.parse(readFileSync(scope.path, 'utf8')).set_aside.length, 1000, 'all of them, in one save');
    await checkpoint.close();
  });

  it('refuses a checkpoint of another input, another run, or that is not one, and frees the lock', async () => {
    const { scope, inputPath } = setup();
    await (await CheckpointFile.open(scope, format)).close();
    writeFileSync(inputPath, 'xyz\n');
    await assert.rejects(
      CheckpointFile.open({ ...scope, inputName: 'other.jsonl' }, format),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message === `${scope.path} belongs to another input (input.jsonl); other.jsonl does not start with the same bytes` &&
        error.hint === `delete ${scope.path} to start over, or give another --checkpoint`,
    );
    writeFileSync(inputPath, 'ab');
    await assert.rejects(CheckpointFile.open(scope, format), /belongs to another input/, 'a shorter input is another input');
    writeFileSync(scope.path, JSON.stringify({ ...JSON.parse(readFileSync(scope.path, 'utf8')), owner: 'you' }));
    await assert.rejects(CheckpointFile.open(scope, format), /^UsageError: written by you$/);
    for (const text of ['{}', 'not json', JSON.stringify({ version: 0, input: { name: 'a', fingerprint: 'f', fingerprint_bytes: 1 }, updated_at: 'x', owner: 'me', done: 1 })]) {
      writeFileSync(scope.path, text);
      await assert.rejects(
        CheckpointFile.open(scope, format),
        (error: unknown) => error instanceof InputError && error.message === `${scope.path}: not a test checkpoint` && error.hint === 'give another --checkpoint path, or delete this file to start over',
        text,
      );
    }
    assert.equal(existsSync(`${scope.path}.lock`), false);
  });

  it('upgrades a checkpoint of an older version as the format says, writes it at its own version, and refuses one of a newer version', async () => {
    const { scope } = setup();
    const first = await CheckpointFile.open(scope, format);
    first.progress.done = 3;
    await first.close();
    const upgrades: Array<[Progress, number]> = [];
    const second: CheckpointFormat<Progress> = {
      ...format,
      version: 2,
      upgrade: async (existing, version) => {
        upgrades.push([{ ...existing }, version]);
        return { ...existing, done: existing.done * 10 };
      },
    };
    const upgraded = await CheckpointFile.open(scope, second);
    assert.deepEqual(upgrades, [[{ owner: 'me', done: 3 }, 1]], 'the upgrade sees the progress alone, not the envelope');
    assert.equal(upgraded.progress.done, 30);
    await upgraded.close();
    const written = JSON.parse(readFileSync(scope.path, 'utf8')) as Record<string, unknown>;
    assert.deepEqual([written.version, written.done], [2, 30]);
    await (await CheckpointFile.open(scope, second)).close();
    assert.equal(upgrades.length, 1, 'a checkpoint of its own version is not upgraded again');

    await assert.rejects(
      CheckpointFile.open(scope, format),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message === `${scope.path} was written by a newer csafe (checkpoint version 2), which this csafe (version 1) cannot resume` &&
        error.hint === `run it with the csafe that wrote it, or delete ${scope.path} to start over, or give another --checkpoint`,
    );
    await assert.rejects(CheckpointFile.open(scope, { ...format, version: 3 }), /^UsageError: .* was written by an older csafe \(checkpoint version 2\), which this csafe \(version 3\) cannot resume$/, 'an older version no upgrade reads is refused');
    assert.equal(existsSync(`${scope.path}.lock`), false);
  });

  it('names a checkpoint path it cannot read', async () => {
    const { scope } = setup();
    mkdirSync(scope.path);
    await assert.rejects(CheckpointFile.open(scope, format), (error: unknown) => error instanceof InputError && error.message === `${scope.path}: not a regular file`);
  });

  it('names a checkpoint path that cannot be read for another reason, with the reason', async () => {
    const { scope, inputPath } = setup();
    const under = join(inputPath, 'state.json');
    await assert.rejects(CheckpointFile.open({ ...scope, path: under, readOnly: true }, format), (error: unknown) =>
      error instanceof InputError && error.message.startsWith(`${under}: ENOTDIR: not a directory`));
  });

  it('names the checkpoint and what went wrong when a save cannot be written, and how to go on: not with another checkpoint, which would start over', async () => {
    const { dir, scope } = setup();
    const checkpoint = await CheckpointFile.open(scope, format);
    checkpoint.progress.done = 1;
    rmSync(dir, { recursive: true });
    await assert.rejects(checkpoint.save(), (error: unknown) =>
      error instanceof FileWriteError &&
      error.message.startsWith(`${scope.path}: could not write the checkpoint: `) &&
      error.hint === 'create its directory, then run the same command again, this --checkpoint kept: it sends again only what was acknowledged since its last save');
  });

  it('reads a checkpoint for a dry run and writes nothing: no lock, no save, no file at close, no temporary file removed', async () => {
    const { dir, scope } = setup();
    const checkpoint = await CheckpointFile.open(scope, format);
    checkpoint.progress.done = 3;
    await checkpoint.close();
    const before = readFileSync(scope.path, 'utf8');
    const leftover = `state.json.${exitedPid()}.tmp`;
    writeFileSync(join(dir, leftover), 'from a killed run');
    const dry = await CheckpointFile.open({ ...scope, readOnly: true }, format);
    assert.equal(dry.progress.done, 3, 'the progress so far, to plan from');
    assert.equal(existsSync(`${scope.path}.lock`), false);
    dry.progress.done = 9;
    await dry.save();
    await dry.close();
    assert.equal(readFileSync(scope.path, 'utf8'), before);
    assert.deepEqual(readdirSync(dir).sort(), ['input.jsonl', 'state.json', leftover]);
  });

  it('refuses at open a checkpoint that is a symbolic link to nothing: its first write would fail only after records were sent', async () => {
    const { scope } = setup();
    symlinkSync('nothing-here.json', scope.path);
    await assert.rejects(
      CheckpointFile.open(scope, format),
      (error: unknown) =>
        error instanceof InputError &&
        error.message === `${scope.path}: is a symbolic link to nothing-here.json, which does not exist` &&
        error.hint === 'create the file it names, or give --checkpoint another path',
    );
    assert.equal(existsSync(`${scope.path}.lock`), false, 'the lock is let go');
  });

  it('refuses a checkpoint that is a FIFO or a device at once: it is not read (a FIFO with no writer would be waited on for ever)', async () => {
    const { dir, scope } = setup();
    execFileSync('mkfifo', [scope.path]);
    // Should csafe wait on the FIFO, this writer ends the wait after a while, so the test fails rather than hangs.
    const writer = spawn('sh', ['-c', 'sleep 1; echo "{}" > "$0"', scope.path], { stdio: 'ignore' });
    try {
      await assert.rejects(CheckpointFile.open(scope, format), (error: unknown) =>
        error instanceof InputError && error.message === `${scope.path}: not a regular file` && error.hint === 'give --checkpoint the path of a file, or of one not made yet');
    } finally {
      writer.kill('SIGKILL');
    }
    const device = join(dir, 'device.json');
    symlinkSync('/dev/null', device);
    await assert.rejects(CheckpointFile.open({ ...scope, path: device }, format), (error: unknown) => error instanceof InputError && error.message === `${device}: not a regular file`);
    assert.equal(existsSync(`${scope.path}.lock`), false);
  });

  it('removes the temporary files of killed runs when it opens and when it closes', async () => {
    const { dir, scope } = setup();
    const [first, second] = [`${scope.path}.${exitedPid()}-0123abcd.tmp`, `${scope.path}.${exitedPid()}-4567cdef.tmp`];
    writeFileSync(first, '');
    const checkpoint = await CheckpointFile.open(scope, format);
    assert.equal(existsSync(first), false);
    writeFileSync(second, '');
    await checkpoint.close();
    assert.deepEqual(readdirSync(dir).sort(), ['input.jsonl', 'state.json']);
  });
});
