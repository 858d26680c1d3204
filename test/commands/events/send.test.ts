import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { eventsSend } from '../../../src/commands/events/send/send-command.js';
import { sendRun } from '../../../src/commands/events/send/send.js';
import { ExitCode } from '../../../src/core/errors.js';
import { parseFlags } from '../../../src/core/cli/options.js';
import { commandTest, exitCodeOf, type CommandTest } from '../../helpers/context.js';
import { eventsText } from '../../helpers/events.js';

const sendOptions = (flags: Record<string, unknown> = {}) => parseFlags(eventsSend.flags, flags);

function eventsFile(run: CommandTest, text: string): string {
  const path = join(run.dir, 'events.jsonl');
  writeFileSync(path, text);
  return path;
}

const lines = (text: string) => text.trim().split('\n');
type SentEvent = { user_id: string; idempotency_key: string; metadata: { n: number } };
const sentBatch = (text: string | null) => JSON.parse(text ?? 'null') as SentEvent[];

test('events send queues each user\'s events in file order, in batches of --batch-size, each with an idempotency key', async (t) => {
  const run = await commandTest(t);
  const path = eventsFile(run, eventsText(3, 1));
  const batchOf = (numbers: number[]) => (text: string | null) => {
    const batch = sentBatch(text);
    return batch.every((event) => /^\S+$/.test(event.idempotency_key)) && JSON.stringify(batch.map((event) => event.metadata.n)) === JSON.stringify(numbers);
  };
  run.expect({ method: 'POST', path: '/v1/async/events', body: batchOf([0, 1]) }, { method: 'POST', path: '/v1/async/events', body: batchOf([2]) });

  assert.equal(await exitCodeOf(sendRun(run.ctx, path, sendOptions({ batchSize: '2' }))), ExitCode.ok);

  // In a pipe the summary is also one JSON record on stdout.
  assert.deepEqual([JSON.parse(run.stdout()).sent, JSON.parse(run.stdout()).requests], [3, 2]);
  // The fixed clock did not move: the duration is exactly 0.
  assert.equal(run.stderr(), 'read 3, valid 3, invalid 0, sent 3, failed 0, skipped by checkpoint 0, other shards 0 in 0.0 s (0 events/s)\n');
});

test('events send sends nothing when an event is invalid, and names its line', async (t) => {
  const run = await commandTest(t);
  const path = eventsFile(run, `${eventsText(1, 1)}{"type":"content_uploaded"}\n`);

  assert.equal(await exitCodeOf(sendRun(run.ctx, path, sendOptions())), ExitCode.usage);

  assert.match(run.stderr(), new RegExp(`${path}:2: `));
  assert.match(run.stderr(), /nothing was sent: fix the 1 invalid record, or pass --skip-invalid FILE to send the rest\n$/);
});

test('events send --sync ingests each batch and prints every event\'s line and event_id', async (t) => {
  const run = await commandTest(t);
  const path = eventsFile(run, eventsText(2, 1));
  run.expect({ method: 'POST', path: '/v1/events', body: (text) => sentBatch(text).length === 2 });

  assert.equal(await exitCodeOf(sendRun(run.ctx, path, sendOptions({ sync: true }))), ExitCode.ok);

  const printed = lines(run.stdout()).map((line) => JSON.parse(line) as { line: number; event_id: string });
  assert.deepEqual(printed.map((entry) => entry.line), [1, 2]);
  assert.ok(printed.every((entry) => typeof entry.event_id === 'string' && entry.event_id !== ''));
});

test('events send stops at a refused key and writes the unsent events to --failed', async (t) => {
  const run = await commandTest(t, { flags: { apiKey: 'sk_test_refused' } });
  const text = eventsText(2, 1);
  const path = eventsFile(run, text);
  const failed = join(run.dir, 'failed.jsonl');
  run.expect({ method: 'POST', path: '/v1/async/events' });

  assert.equal(await exitCodeOf(sendRun(run.ctx, path, sendOptions({ failed }))), ExitCode.auth);

  assert.deepEqual(lines(readFileSync(failed, 'utf8')).map((line) => (JSON.parse(line) as SentEvent).metadata.n), [0, 1]);
  assert.match(run.stderr(), new RegExp(`stopped: the service refused the credentials \\(401\\); what was not sent is in ${failed}\n$`));
});

test('events send --checkpoint records what was acknowledged, so the same command run again sends nothing', async (t) => {
  const run = await commandTest(t);
  const path = eventsFile(run, eventsText(3, 1));
  const checkpoint = join(run.dir, 'state.json');
  run.expect({ method: 'POST', path: '/v1/async/events', body: (text) => sentBatch(text).length === 3 });

  assert.equal(await exitCodeOf(sendRun(run.ctx, path, sendOptions({ checkpoint }))), ExitCode.ok);
  const saved = JSON.parse(readFileSync(checkpoint, 'utf8')) as { version: number; updated_at: string };
  assert.equal(saved.version, 1);
  assert.equal(saved.updated_at, new Date(run.clock.now()).toISOString());

  assert.equal(await exitCodeOf(sendRun(run.ctx, path, sendOptions({ checkpoint }))), ExitCode.ok);
  assert.match(run.stderr(), /\nread 3, valid 3, invalid 0, sent 0, failed 0, skipped by checkpoint 3, other shards 0 in 0\.0 s \(0 events\/s\)\n$/);
});
