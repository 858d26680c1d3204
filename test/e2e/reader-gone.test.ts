import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventsText } from '../helpers/events.js';
import { exitOf, spawnCsafe, startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// `… --json | head`: the reader of stdout going away ends the run (exit 0), and what the run must
// keep is kept all the same: the checkpoint records what the service acknowledged.

describe('a reader of stdout that goes away part-way', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();

  before(async () => {
    emulator = await startEmulatorProcess(['--processing-delay', '0']);
    writeFileSync(join(dir, 'events.jsonl'), eventsText(3000, 300));
  });
  after(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('events send --sync --json | head: the checkpoint is saved and its lock removed; the same command later sends only the rest', async () => {
    const checkpoint = join(dir, 'events.checkpoint');
    const args = ['events', 'send', 'events.jsonl', '--sync', '--json', '--batch-size', '10', '--concurrency', '1', '--checkpoint', checkpoint];
    const child = spawnCsafe(args, { env: emulator.env, cwd: dir });
    // The first bytes, then the reader is gone: every write after that fails (EPIPE).
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    assert.equal(await exitOf(child), 0);
    assert.ok(existsSync(checkpoint), 'the checkpoint is saved');
    assert.ok(!existsSync(`${checkpoint}.lock`), 'its lock is removed');

    const rest = await runInProcess(args.filter((arg) => arg !== '--json'), { env: emulator.env, cwd: dir });
    assert.equal(rest.code, 0, rest.stderr);
    const skipped = Number(/skipped by checkpoint (\d+)/.exec(rest.stderr)?.[1]);
    assert.ok(skipped > 0, `the second run skips what the first delivered: ${rest.stderr}`);
  });

  it('data add --wait --json prints an array however the run ends: [] when a checkpoint leaves nothing to send', async () => {
    writeFileSync(join(dir, 'objects.jsonl'), '{"id":"a"}\n{"id":"b"}\n');
    const args = ['data', 'add', 'shop', 'objects.jsonl', '--checkpoint', join(dir, 'objects.checkpoint'), '--wait', '--json'];
    const first = await runInProcess(args, { env: emulator.env, cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(JSON.parse(first.stdout).length, 1);
    const again = await runInProcess(args, { env: emulator.env, cwd: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), []);
  });
});
