import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { eventsText } from '../helpers/events.js';
import { ended, exitOf, spawnCsafe, startEmulatorProcess, tempDir, useEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// `… --json | head`: the reader of stdout going away stops a bulk run as Ctrl-C does, with the code of
// a run that left records to send (5, or 1 when it delivered none), and what the run must keep is
// kept all the same: the checkpoint records what the service acknowledged.

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
    assert.equal(await exitOf(child), 5);
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

describe('each bulk command that prints as it goes, its reader gone after the first line (`| head -1`)', () => {
  const emulator = useEmulatorProcess(['--latency', '100']);
  const lines = (count: number, line: (i: number) => object) => Array.from({ length: count }, (_, i) => `${JSON.stringify(line(i + 1))}\n`).join('');
  const PRINTING = [
    { command: 'events send --sync', input: () => eventsText(20, 5), args: ['events', 'send', 'input.jsonl', '--sync', '--batch-size', '1', '--concurrency', '1'] },
    { command: 'data add', input: () => lines(20, (i) => ({ id: `obj-${i}`, title: `listing ${i}` })), args: ['data', 'add', 'listings', 'input.jsonl', '--batch-size', '1', '--concurrency', '1'] },
    { command: 'classify --batch', input: () => lines(20, (i) => ({ text: `message ${i}`, user_id: 'u1' })), args: ['classify', '--batch', 'input.jsonl', '--concurrency', '1'] },
  ];

  /** Runs the command with a reader of stdout that goes after the first chunk (as `head -1` does), or before anything comes. */
  async function readerGoes(t: TestContext, args: string[], cwd: string, when: 'after the first chunk' | 'at once', stdin = '') {
    const child = spawnCsafe(args, { env: emulator.env, cwd });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const result = ended(child);
    child.stdin.end(stdin);
    if (when === 'at once') child.stdout.destroy();
    else child.stdout.once('data', () => child.stdout.destroy());
    return result;
  }

  for (const bulk of PRINTING) {
    it(`${bulk.command}: stops as Ctrl-C stops it, says what it sent and how to continue, exit 5 (some delivered, some not)`, async (t) => {
      const cwd = tempDir();
      writeFileSync(join(cwd, 'input.jsonl'), bulk.input());
      const { code, stderr } = await readerGoes(t, bulk.args, cwd, 'after the first chunk');
      assert.equal(code, 5, stderr);
      // With a request in flight it says so, and why it waits.
      assert.doesNotMatch(stderr, /^interrupted: waiting/m);
      const sent = Number(/^interrupted: (\d+) \w+ sent in/m.exec(stderr)?.[1]);
      assert.ok(sent > 0 && sent < 20, stderr);
      assert.match(stderr, /^continue with: csafe /m);
      // What was printed after the reader went reached nobody.
      assert.doesNotMatch(stderr, /are printed/);
    });
  }

  it('classify --batch: the reader gone as the last answers were printed cut nothing short: exit 0, no line "not done"', async (t) => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'input.jsonl'), lines(3, (i) => ({ text: `message ${i}`, user_id: 'u1' })));
    // All three lines are read and sent at once (--concurrency 4); the reader goes after the first answer.
    const { code, stderr } = await readerGoes(t, ['classify', '--batch', 'input.jsonl'], cwd, 'after the first chunk');
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^classified 3 lines$/m);
    assert.doesNotMatch(stderr, /not done|continue with/);
  });

  it('stream parts --follow: its summary finding the reader gone, the run ends as its counts say (5: a part set aside)', async (t) => {
    const cwd = tempDir();
    const part = (i: number) => ({ type: 'chat_message', sender_id: 'u1', sender_display_name: 'Ann', text: `part ${i}`, timestamp: '2026-11-21T10:00:00Z' });
    const input = `${lines(2, part)}{"type":"nonsense"}\n`;
    const { code, stderr } = await readerGoes(t, ['stream', 'parts', 'live', '--id', 'gone', '--follow', '--skip-invalid', 'invalid.jsonl'], cwd, 'at once', input);
    assert.equal(code, 5, stderr);
  });

  it('events send: a run that had sent everything when its summary found the reader gone ends as its counts say (5: a record set aside)', async (t) => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'input.jsonl'), `${eventsText(2, 2)}{"type":"nonsense"}\n`);
    const { code, stderr } = await readerGoes(t, ['events', 'send', 'input.jsonl', '--batch-size', '1', '--skip-invalid', 'invalid.jsonl'], cwd, 'at once');
    assert.equal(code, 5, stderr);
    assert.match(stderr, /sent 2, failed 0/);
    assert.doesNotMatch(stderr, /interrupted/);
  });
});
