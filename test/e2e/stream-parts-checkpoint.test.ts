import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { beforeEach, describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BIN, CHILD_TIMEOUT_MS, outcome, runCsafe, spawnCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

// stream parts --checkpoint on inputs whose parts share lines (a JSON array on one line, an array
// of two parts a line): a run that fails some batches or is cut short, then the same command line
// again, leaves every part on the stream exactly once; and a checkpoint of a csafe that numbered
// parts by line is resumed where that is exact, refused where it is not.

const PARTS = 200;
const part = (i: number) => ({ type: 'transcript', text: `part ${i}`, timestamp: '2026-11-21T10:00:01Z' });
const parts = Array.from({ length: PARTS }, (_, i) => part(i));
const oneLine = JSON.stringify(parts) + '\n';
const twoALine = '[\n' + Array.from({ length: PARTS / 2 }, (_, i) => `${JSON.stringify(parts[2 * i])}, ${JSON.stringify(parts[2 * i + 1])}`).join(',\n') + '\n]\n';
const jsonLines = parts.map((value) => JSON.stringify(value)).join('\n') + '\n';
const PARTS_PATH = '/v1/streams/:namespace/parts';

describe('stream parts --checkpoint: every part of the input once, whatever lines it shares', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);
  const dir = tempDir();
  beforeEach(() => emulator.control('/_emulator/reset', { method: 'POST' }));

  const script = (...faults: object[]) => emulator.control('/_emulator/faults', { method: 'POST', body: { faults } });
  /** How many times the stream holds each part's text. */
  const stored = async (id: string) => {
    const stream = (await emulator.control(`/_emulator/streams/live/${id}`)) as { parts: Array<{ text: string }> };
    const counts = new Map<string, number>();
    for (const { text } of stream.parts) counts.set(text, (counts.get(text) ?? 0) + 1);
    return counts;
  };
  const assertEachOnce = async (id: string) => {
    const counts = await stored(id);
    const missing = parts.filter((value) => !counts.has(value.text)).length;
    const twice = [...counts.values()].filter((count) => count > 1).length;
    assert.deepEqual({ missing, twice }, { missing: 0, twice: 0 }, `the stream holds each of the ${PARTS} parts once`);
  };
  const setUp = (name: string, text: string) => {
    const input = join(dir, `${name}.json`);
    writeFileSync(input, text);
    const args = ['--max-retries', '0', 'stream', 'parts', 'live', '--id', name, input, '--batch-size', '25', '--checkpoint', join(dir, `${name}-state.json`), '--failed', join(dir, `${name}-failed.jsonl`), '--json'];
    return { input, args, state: join(dir, `${name}-state.json`) };
  };

  for (const [shape, text] of [['a JSON array on one line', oneLine], ['an array of two parts a line, batches of 25 cutting lines in two', twoALine]] as const) {
    const name = shape.startsWith('a JSON') ? 'one-line' : 'two-a-line';
    it(`${shape}: batches that failed are sent by the same command line again, and nothing twice`, async () => {
      const { args } = setUp(name, text);
      await script({ kind: '503', method: 'POST', path: PARTS_PATH, skip: 1, times: 2 });
      const first = await runCsafe(args, { env: emulator.env });
      assert.equal(first.code, 5, first.stderr);
      assert.equal((JSON.parse(first.stdout) as { failed: number }).failed, 50);
      const again = await runCsafe(args, { env: emulator.env });
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(pick(JSON.parse(again.stdout)), { sent: 50, failed: 0, skipped_checkpoint: 150 });
      await assertEachOnce(name);
    });
  }

  it('a JSON array on one line cut short by SIGTERM: the same command line again sends the parts not sent, and nothing twice', async (t) => {
    const { args } = setUp('cut-short', oneLine);
    // The third batch's answer is held: SIGTERM arrives while it is in flight.
    await script({ kind: 'timeout', method: 'POST', path: PARTS_PATH, skip: 2, times: 1, delay_ms: 1500 });
    const child = spawnCsafe(['--request-timeout', '1m', ...args], { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const ended = outcome(child);
    await waitFor(async () => (await emulator.requests()).filter((request) => request.method === 'POST').length === 3, { what: 'the third batch to reach the emulator' });
    child.kill('SIGTERM');
    const cut = await ended;
    assert.equal(cut.code, 143, cut.stderr);
    assert.equal((JSON.parse(cut.stdout) as { sent: number }).sent, 75, 'the batch in flight was answered');
    const again = await runCsafe(args, { env: emulator.env });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(pick(JSON.parse(again.stdout)), { sent: 125, failed: 0, skipped_checkpoint: 75 });
    await assertEachOnce('cut-short');
  });

  /** Runs `command`, the third batch stored and its answer held, and sends SIGTERM twice once it is in flight: csafe leaves at once. */
  async function leftAtOnceAtTheThirdBatch(t: TestContext, command: string[]) {
    await script({ kind: 'timeout', method: 'POST', path: PARTS_PATH, skip: 2, times: 1, delay_ms: 3000 });
    const child = spawnCsafe(command, { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const ended = outcome(child);
    await waitFor(async () => (await emulator.requests()).filter((request) => request.method === 'POST').length === 3, { what: 'the third batch to reach the emulator' });
    child.kill('SIGTERM');
    // A second signal counts once 0.25 s have passed since the first.
    await sleep(500);
    child.kill('SIGTERM');
    return ended;
  }

  it('a second SIGTERM while a batch is in flight: csafe leaves at once, the batch in the unconfirmed file and the checkpoint, and the same command line again sends the rest, nothing twice', async (t) => {
    const { args } = setUp('left-at-once', jsonLines);
    const unconfirmed = join(dir, 'left-at-once-unconfirmed.jsonl');
    const command = ['--request-timeout', '1m', ...args, '--unconfirmed', unconfirmed];
    const cut = await leftAtOnceAtTheThirdBatch(t, command);
    assert.equal(cut.code, 143, cut.stderr);
    assert.match(cut.stderr, new RegExp(`left at once: 25 parts in flight written to ${unconfirmed} \\(their answer was not waited for: the service may hold them\\)`));
    assert.equal(readFileSync(unconfirmed, 'utf8').split('\n').filter(Boolean).length, 25);
    const again = await runCsafe(command, { env: emulator.env });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(pick(JSON.parse(again.stdout)), { sent: 125, failed: 0, skipped_checkpoint: 75 });
    await assertEachOnce('left-at-once');
  });

  it('without --checkpoint, a second SIGTERM while a batch is in flight: csafe prints the command that continues the run, which sends the rest, nothing twice, and none of the failed file of earlier runs', async (t) => {
    const name = 'left-no-checkpoint';
    const input = join(dir, `${name}.json`);
    writeFileSync(input, jsonLines);
    const [failed, unconfirmed] = [join(dir, `${name}-failed.jsonl`), join(dir, `${name}-unconfirmed.jsonl`)];
    // A failed file that is a log of runs: what earlier runs left in it is not this run's to resend.
    writeFileSync(failed, `${JSON.stringify({ ...part(0), text: 'an earlier run' })}\n`);
    const command = ['--max-retries', '0', '--request-timeout', '1m', 'stream', 'parts', 'live', '--id', name, input, '--batch-size', '25', '--failed', failed, '--unconfirmed', unconfirmed, '--json'];
    const cut = await leftAtOnceAtTheThirdBatch(t, command);
    assert.equal(cut.code, 143, cut.stderr);
    const resume = /^continue with: (.+)$/m.exec(cut.stderr)?.[1];
    assert.ok(resume !== undefined, `a command that continues the run:\n${cut.stderr}`);
    // Run as a user would paste it: through a shell, csafe on the PATH.
    const again = spawnSync('sh', ['-c', resume], { env: { ...emulator.env, PATH: `${dirname(BIN)}:${process.env.PATH}` }, encoding: 'utf8', timeout: CHILD_TIMEOUT_MS });
    assert.equal(again.status, 0, again.stderr);
    await assertEachOnce(name);
    assert.equal((await stored(name)).get('an earlier run'), undefined, 'the failed file of earlier runs was not resent');
  });

  /** A checkpoint as a csafe that numbered parts by line wrote it, for `input`, holding `lines`. */
  const byLine = (input: string, lines: Array<[number, number]>, id: string) => {
    const bytes = readFileSync(input);
    return JSON.stringify({
      version: 1,
      input: { name: input, fingerprint: createHash('sha256').update(bytes).digest('hex'), fingerprint_bytes: bytes.length },
      namespace: 'live',
      stream: id,
      shard: null,
      acknowledged: lines,
      updated_at: '2026-11-29T10:00:00.000Z',
    });
  };

  it('a checkpoint that kept JSON Lines by line is resumed: the lines it holds are not sent again, the rest are, and it is written by position', async () => {
    const { input, args, state } = setUp('older-lines', jsonLines);
    // An earlier run sent parts 0 to 59 and 90 to 119 (lines 1-60, 91-120), and nothing more.
    await runCsafe(['stream', 'parts', 'live', '--id', 'older-lines', '-'], { env: emulator.env, input: [...parts.slice(0, 60), ...parts.slice(90, 120)].map((value) => JSON.stringify(value)).join('\n') });
    writeFileSync(state, byLine(input, [[1, 60], [91, 120]], 'older-lines'));
    const again = await runCsafe(args, { env: emulator.env });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(pick(JSON.parse(again.stdout)), { sent: 110, failed: 0, skipped_checkpoint: 90 });
    await assertEachOnce('older-lines');
    const written = JSON.parse(readFileSync(state, 'utf8')) as { version: number; acknowledged: unknown };
    assert.deepEqual({ version: written.version, acknowledged: written.acknowledged }, { version: 2, acknowledged: [[1, PARTS]] });
  });

  it('a checkpoint that kept a one-line array by line is refused, not resumed wrongly: which parts of the line were sent is not known', async () => {
    const { input, args, state } = setUp('older-array', oneLine);
    writeFileSync(state, byLine(input, [[1, 1]], 'older-array'));
    const again = await runCsafe(args, { env: emulator.env });
    assert.equal(again.code, 2, again.stderr);
    assert.match(again.stderr, new RegExp(`was written by an older csafe, which kept parts by line, and line 1 of .*older-array.json starts more than one part`));
    assert.equal((await emulator.requests()).filter((request) => request.method === 'POST').length, 0, 'nothing sent');
  });

  it('cut short by SIGTERM while it reads the input again to resume an older checkpoint, it says so as any run cut short before sending does, and leaves the checkpoint as it was', async (t) => {
    // Long enough that reading it again outlasts the wait for the lock to appear (the step right before).
    const many = Array.from({ length: 300_000 }, (_, i) => JSON.stringify(part(i))).join('\n') + '\n';
    const { input, args, state } = setUp('older-cut', many);
    const head = readFileSync(input).subarray(0, 64 * 1024);
    const older = JSON.parse(byLine(input, [[1, 10]], 'older-cut')) as { input: Record<string, unknown> };
    older.input = { name: input, fingerprint: createHash('sha256').update(head).digest('hex'), fingerprint_bytes: head.length };
    writeFileSync(state, JSON.stringify(older));
    const child = spawnCsafe(args, { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const ended = outcome(child);
    await waitFor(() => existsSync(`${state}.lock`), { what: 'the checkpoint to be locked', intervalMs: 5 });
    child.kill('SIGTERM');
    const cut = await ended;
    assert.equal(cut.code, 143, cut.stderr);
    assert.match(cut.stderr, /^interrupted: 0 parts sent in 0 requests, 0 failed; it was still reading the input$/m);
    assert.match(cut.stderr, /^continue with: csafe .*stream parts live --id older-cut/m);
    assert.equal((JSON.parse(cut.stdout) as { sent: number }).sent, 0, 'the run\'s record on stdout');
    assert.equal((JSON.parse(readFileSync(state, 'utf8')) as { version: number }).version, 1, 'the checkpoint as it was');
    assert.equal((await emulator.requests()).filter((request) => request.method === 'POST').length, 0, 'nothing sent');
  });
});

const pick = (summary: Record<string, unknown>) => ({ sent: summary.sent, failed: summary.failed, skipped_checkpoint: summary.skipped_checkpoint });
