import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placementOf } from '../../src/commands/events/send/placement.js';
import { mulberry32 } from '../../src/emulator/http/faults.js';
import { ended, exitOf, runCsafe, spawnCsafe, tempDir, withEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { assertExactlyOnceInOrder, eventsText, ingestedEvents } from '../helpers/events.js';
import { waitFor } from '../helpers/wait.js';

// Every bulk command killed (SIGKILL) with --checkpoint at points drawn from a seed, then run again
// with the same command line to the end: no record is lost, and the records the service took twice
// are no more than the requests that were in flight when the kill came (none where the service
// de-duplicates). `stream parts --follow` reads a pipe once and has no checkpoint: what it sent
// before the kill is the pipe's first parts, in order, each once. CSAFE_CRASH_SEED replays or
// varies the points.

const SEED = Number(process.env.CSAFE_CRASH_SEED ?? 20_261_127);
const POINTS = 5;
const RECORDS = 36;
/** Requests in flight at once, where the command takes --concurrency. */
const CONCURRENCY = 2;

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const oneEach = ['--concurrency', String(CONCURRENCY)];
const part = (i: number) => JSON.stringify({ type: 'chat_message', sender_id: 'u7', sender_display_name: 'Ann', text: `hello ${i}`, timestamp: '2026-11-21T10:00:00Z' });

interface Bulk {
  command: string;
  line(i: number): string;
  /** Text that only record i's request body holds. */
  marker(i: number): string;
  args(file: string): string[];
  /** The most records a killed run may have had sent but not checkpointed. */
  inFlight: number;
  /**
   * The input comes once, through a pipe (`stream parts --follow`): nothing can be run again. What
   * the killed run had read and not sent goes with it; what it sent must be a run of the input
   * from its first line, in order, each part once.
   */
  stdin?: true;
  /** How many times the service holds each record, where it keeps each once however often sent. */
  held?(emulator: EmulatorProcess): Promise<number[]>;
}

const countsOf = (keys: readonly string[], key: (i: number) => string) => range(RECORDS).map((i) => keys.filter((held) => held === key(i)).length);

const BULK: readonly Bulk[] = [
  { command: 'classify --batch', line: (i) => JSON.stringify({ text: `message ${i}`, user_id: 'u1' }), marker: (i) => `"message ${i}"`, args: (file) => ['classify', '--batch', file, ...oneEach], inFlight: CONCURRENCY },
  {
    command: 'events send',
    line: (i) => JSON.stringify({ type: 'create_account', event_name: 'signup', timestamp: '2026-11-27T10:00:00Z', user_id: `user-${i}` }),
    marker: (i) => `"user-${i}"`,
    args: (file) => ['events', 'send', file, '--batch-size', '1', ...oneEach],
    inFlight: CONCURRENCY,
    held: async (emulator) => countsOf(((await emulator.control('/_emulator/events?limit=1000')) as { events: Array<{ event: { user_id: string } }> }).events.map((entry) => entry.event.user_id), (i) => `user-${i}`),
  },
  {
    command: 'data add',
    line: (i) => JSON.stringify({ id: `obj-${i}`, title: `listing ${i}` }),
    marker: (i) => `"obj-${i}"`,
    args: (file) => ['data', 'add', 'listings', file, '--batch-size', '1', ...oneEach],
    inFlight: CONCURRENCY,
    held: async (emulator) => countsOf(((await emulator.control('/_emulator/data/listings')) as { objects: Array<{ id: string }> }).objects.map((object) => object.id), (i) => `obj-${i}`),
  },
  { command: 'stream parts', line: part, marker: (i) => `"hello ${i}"`, args: (file) => ['stream', 'parts', 'live', '--id', 'show-1', file, '--batch-size', '1'], inFlight: 1 },
  { command: 'stream parts --follow', line: part, marker: (i) => `"hello ${i}"`, args: () => ['stream', 'parts', 'live', '--id', 'show-1', '--follow', '--batch-size', '1'], inFlight: 1, stdin: true },
  {
    command: 'agent-decision send',
    line: (i) => JSON.stringify({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: `ref-${i}` }),
    marker: (i) => `"ref-${i}"`,
    args: (file) => ['agent-decision', 'send', file, ...oneEach],
    inFlight: CONCURRENCY,
  },
  {
    command: 'deletion-request send',
    line: (i) => JSON.stringify({ subject_user_id: `subject-${i}`, requested_at: '2026-11-27T10:00:00Z' }),
    marker: (i) => `"subject-${i}"`,
    args: (file) => ['deletion-request', 'send', file, ...oneEach],
    inFlight: CONCURRENCY,
    held: async (emulator) =>
      countsOf(((await emulator.control('/_emulator/deletion_requests?limit=1000')) as { deletion_requests: Array<{ subject_user_id: string }> }).deletion_requests.map((request) => request.subject_user_id), (i) => `subject-${i}`),
  },
];

type LogEntry = { method: string; status: number; body: string | null };
const accepted = async (emulator: EmulatorProcess) => ((await emulator.requests()) as unknown as LogEntry[]).filter((entry) => entry.method === 'POST' && entry.status < 300);

/** One kill: the run stopped after `killAt` accepted requests, then the same command line to the end. */
async function killThenResume(emulator: EmulatorProcess, bulk: Bulk, killAt: number): Promise<void> {
  await emulator.control('/_emulator/reset', { method: 'POST' });
  const dir = tempDir('csafe-crash-');
  const input = range(RECORDS).map(bulk.line).join('\n') + '\n';
  writeFileSync(join(dir, 'input.jsonl'), input);
  const args = [...bulk.args('input.jsonl'), ...(bulk.stdin ? [] : ['--checkpoint', 'state.json']), '--failed', 'failed.jsonl'];
  const child = spawnCsafe(args, { env: emulator.env, cwd: dir });
  const exit = ended(child);
  child.stdin.end(bulk.stdin ? input : '');
  await waitFor(async () => (await accepted(emulator)).length >= killAt || child.exitCode !== null, { what: `${killAt} requests accepted from ${bulk.command}` });
  assert.equal(child.exitCode, null, `${bulk.command} was still running at the kill point (${killAt} of ${RECORDS} accepted)`);
  child.kill('SIGKILL');
  await exit;
  // What the killed run had in flight is served before anything is counted.
  await waitFor(async () => ((await emulator.control('/_emulator/in_flight')) as { in_flight: number }).in_flight === 0, { what: 'the emulator to finish serving the killed run' });

  if (bulk.stdin) {
    const bodies = (await accepted(emulator)).map((entry) => entry.body ?? '');
    const sent = range(RECORDS).filter((i) => bodies.some((body) => body.includes(bulk.marker(i))));
    assert.deepEqual(sent, range(sent.length), 'the parts sent are the first ones of the pipe, with none left out');
    assert.equal(bodies.length, sent.length, 'each part sent once');
    return;
  }
  const resumed = await runCsafe(args, { env: emulator.env, cwd: dir });
  assert.equal(resumed.code, 0, `the same command line after the kill: ${resumed.stderr}`);
  const bodies = (await accepted(emulator)).map((entry) => entry.body ?? '');
  const times = range(RECORDS).map((i) => bodies.filter((body) => body.includes(bulk.marker(i))).length);
  assert.deepEqual(range(RECORDS).filter((i) => times[i - 1] === 0), [], 'records lost: never accepted by the service');
  const repeats = times.reduce((sum, count) => sum + count - 1, 0);
  assert.ok(repeats <= bulk.inFlight, `${repeats} records accepted twice, more than the ${bulk.inFlight} that could be in flight`);
  if (bulk.held !== undefined) assert.deepEqual(await bulk.held(emulator), range(RECORDS).map(() => 1), 'the service holds each record once');
}

describe('bulk commands killed with --checkpoint, then run again: nothing lost, repeats bounded by what was in flight', { concurrency: 4 }, () => {
  const random = mulberry32(SEED);
  for (const bulk of BULK) {
    // In the first third: the run is then far from done when the kill comes, however late it is noticed.
    const killPoints = Array.from({ length: POINTS }, () => 1 + Math.floor(random() * (RECORDS / 3)));
    it(`${bulk.command}: SIGKILL after ${killPoints.join(', ')} of ${RECORDS} accepted (seed ${SEED})`, () =>
      // Answers slow enough that a kill point comes while the run is still sending.
      withEmulatorProcess(['--latency', '40'], async (emulator) => {
        for (const killAt of killPoints) await killThenResume(emulator, bulk, killAt);
      }));
  }
});

// Beyond the five points above: events send at 20,000 events, two lanes, killed once 3,000 are in,
// its checkpoint read slot by slot against what the service holds.
describe('events send killed with SIGKILL part-way, at 20,000 events', () => {
  const dir = tempDir();
  const summaryOf = (stdout: string) => JSON.parse(stdout) as Record<string, number | string | null>;

  it('a run killed with SIGKILL part-way resumes from its checkpoint: exactly once', { timeout: 120_000 }, async () => {
    await withEmulatorProcess(['--latency', '25'], async (emulator) => {
      const count = 20_000;
      const file = join(dir, 'killed.jsonl');
      writeFileSync(file, eventsText(count, 500));
      const checkpoint = join(dir, 'killed-state.json');
      const args = ['events', 'send', file, '--checkpoint', checkpoint, '--concurrency', '2', '--json'];
      // A killed run cannot remove its temporary file of checked events: it lands in this test's directory.
      const child = spawnCsafe(args, { env: { ...emulator.env, TMPDIR: dir }, cwd: dir });
      const exited = exitOf(child);
      await waitFor(
        async () => {
          assert.equal(child.exitCode, null, 'the first run ended before it could be killed part-way');
          return existsSync(checkpoint) && (await ingestedEvents(emulator)).total >= 3_000;
        },
        { what: 'a checkpoint and 3,000 ingested events', timeoutMs: 60_000 },
      );
      child.kill('SIGKILL');
      await exited;
      const settled = JSON.parse(readFileSync(checkpoint, 'utf8')).settled as Record<string, number>;
      const before = (await ingestedEvents(emulator)).total;
      assert.ok(before < count, 'killed part-way');

      const rerun = await runCsafe(args, { env: emulator.env, cwd: dir });
      assert.equal(rerun.code, 0, rerun.stderr);
      const summary = summaryOf(rerun.stdout);
      assert.ok((summary.skipped_checkpoint as number) > 0, 'the checkpoint was used');
      assert.equal((summary.skipped_checkpoint as number) + (summary.sent as number), count);
      const { events } = await ingestedEvents(emulator);
      assertExactlyOnceInOrder(events, count);
      let acknowledgedBeforeKill = 0;
      for (const { event, duplicates } of events) {
        const acknowledged = event.metadata.n + 1 <= (settled[placementOf(`user_id:${event.user_id}`).slot] ?? 0);
        if (acknowledged) assert.equal(duplicates, 0, `event ${event.metadata.n} was acknowledged before the kill and must not be resent`);
        if (acknowledged) acknowledgedBeforeKill++;
      }
      // Each of the 2 lanes waits for its acknowledgement to be on disk before its next batch (of 100).
      assert.ok(before - acknowledgedBeforeKill <= 2 * 100, `the checkpoint was ${before - acknowledgedBeforeKill} events behind the ${before} the service had: more than the 2 batches in flight`);
    });
  });
});
