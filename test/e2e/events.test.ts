import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { EVENT_EXAMPLES } from '../../src/schemas/event-examples.js';
import { assertExactlyOnceInOrder, eventsText, ingestedEvents, type Ingested } from '../helpers/events.js';
import { runCsafe, startEmulatorProcess, tempDir, useEmulatorProcess, withEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { sendThroughFaults } from '../helpers/fault-run.js';

const summaryOf = (stdout: string) => JSON.parse(stdout) as Record<string, number | string | null>;

// One healthy emulator for the whole file, emptied before each test; the faulty and slow ones are started where a test needs them.
const emulator = useEmulatorProcess();
beforeEach(() => emulator.control('/_emulator/reset', { method: 'POST' }));

// Most runs go through main() in this process: what they check needs no process of its own. The
// runs that do spawn bin/csafe: a checkpoint locked by another live process, shards run side by
// side as two processes, and the long run through injected faults. A run killed with SIGKILL and
// resumed is a crash test (test/reliability/client-crash.test.ts).
describe('csafe events', () => {
  const dir = tempDir();
  const run = (args: string[], input?: string) => runInProcess(args, { env: emulator.env, input });
  const runAlone = (args: string[]) => runCsafe(args, { env: emulator.env, cwd: dir });

  it('--dry-run validates every variant and names file:line and field for each missing required field', async () => {
    const valid = join(dir, 'valid.jsonl');
    writeFileSync(valid, Object.values(EVENT_EXAMPLES).map((e) => JSON.stringify(e)).join('\n') + '\n');
    const ok = await run(['events', 'send', valid, '--dry-run', '--json']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).record_count, 7);

    const missing: Array<[string, string]> = [
      ['user_contact', 'target_user_id'], ['content_uploaded', 'content'], ['product_changed', 'product'],
      ['create_account', 'user_id'], ['update_account', 'timestamp'], ['user_report', 'labels'],
      ['moderation_decision', 'source_type'], ['moderation_decision', 'source_id'], ['user_report', 'event_name'],
    ];
    const broken = missing.map(([type, field]) => {
      const { [field]: _removed, ...rest } = EVENT_EXAMPLES[type as keyof typeof EVENT_EXAMPLES] as Record<string, unknown>;
      return JSON.stringify(rest);
    });
    const invalid = join(dir, 'invalid.jsonl');
    writeFileSync(invalid, broken.join('\n') + '\n');
    const bad = await run(['events', 'send', invalid, '--dry-run']);
    assert.equal(bad.code, 2);
    missing.forEach(([, field], index) => assert.ok(bad.stderr.includes(`${invalid}:${index + 1}: ${field}: is required`), `${field}\n${bad.stderr}`));
    const send = await run(['events', 'send', invalid]);
    assert.equal(send.code, 2);
    assert.match(send.stderr, /nothing was sent/);
    assert.equal((await ingestedEvents(emulator)).total, 0);
  });

  it('rejects an unknown type with the known ones, and passes it with --allow-unknown-types', async () => {
    const file = join(dir, 'unknown.json');
    writeFileSync(file, JSON.stringify({ type: 'eighth_variant', user_id: 'u1', anything: true }));
    const refused = await run(['events', 'send', file]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /unknown event type "eighth_variant": expected one of user_contact, .*moderation_decision/);
    assert.match(refused.stderr, /--allow-unknown-types/);
    const passed = await run(['events', 'send', file, '--allow-unknown-types']);
    assert.equal(passed.code, 0, passed.stderr);
    const [queued] = (await ingestedEvents(emulator)).events;
    assert.equal(queued!.event.anything, true);
  });

  it('sends a JSON array from stdin, adds idempotency keys, and a re-run ingests nothing twice', async () => {
    const events = Object.values(EVENT_EXAMPLES).map((e, i) => ({ ...e, timestamp: `2026-08-11T09:30:0${i}Z` }));
    const first = await run(['events', 'send', '-', '--json'], JSON.stringify(events, null, 2));
    assert.equal(first.code, 0, first.stderr);
    assert.equal(summaryOf(first.stdout).sent, 7);
    const again = await run(['events', 'send', '-', '-o', 'table'], JSON.stringify(events));
    assert.equal(again.code, 0);
    assert.match(again.stdout, /^sent: +7$/m, '-o table is a record view of the summary, not nothing');
    const { total, duplicates, events: ingested } = await ingestedEvents(emulator);
    assert.equal(total, 7);
    assert.equal(duplicates, 7);
    assert.ok(ingested.every((e) => /^csafe-[0-9a-f]{32}$/.test(e.idempotency_key ?? '')));
  });

  it('keeps a given idempotency_key, and adds none with --no-auto-idempotency', async () => {
    const file = join(dir, 'keys.jsonl');
    writeFileSync(file, [{ ...EVENT_EXAMPLES.create_account, idempotency_key: 'mine' }, EVENT_EXAMPLES.update_account].map((e) => JSON.stringify(e)).join('\n'));
    assert.equal((await run(['events', 'send', file, '--no-auto-idempotency'])).code, 0);
    assert.deepEqual((await ingestedEvents(emulator)).events.map((e) => e.idempotency_key), ['mine', null]);
  });

  it('--skip-invalid sends the valid events and keeps the invalid records in a file (exit 5: partial)', async () => {
    const file = join(dir, 'mixed.jsonl');
    writeFileSync(file, [JSON.stringify(EVENT_EXAMPLES.create_account), 'not json', JSON.stringify({ type: 'create_account' })].join('\n'));
    const skipped = join(dir, 'skipped.jsonl');
    const result = await run(['events', 'send', file, '--skip-invalid', skipped, '--json']);
    assert.equal(result.code, 5, result.stderr);
    assert.deepEqual([summaryOf(result.stdout).sent, summaryOf(result.stdout).invalid], [1, 2]);
    // The same {line, error, record} lines as classify --batch, data add and stream parts write.
    const rejects = readFileSync(skipped, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { line: number; error: string; record: string });
    assert.deepEqual(rejects.map(({ line, record }) => ({ line, record })), [{ line: 2, record: 'not json' }, { line: 3, record: '{"type":"create_account"}' }]);
    assert.match(rejects[0]!.error, /invalid JSON/);
    assert.match(rejects[1]!.error, /user_id: is required/);
    assert.match(result.stderr, /2 invalid records written to /);
    assert.match(result.stderr, /mixed\.jsonl:2: invalid JSON/);
  });

  it('--checkpoint without idempotency keys, a batch failed: the same command again stores every event once', async () => {
    const file = join(dir, 'unkeyed.jsonl');
    writeFileSync(file, eventsText(2_000, 1_000));
    const checkpoint = join(dir, 'unkeyed-state.json');
    const args = ['--max-retries', '0', 'events', 'send', file, '--no-auto-idempotency', '--concurrency', '1', '--checkpoint', checkpoint, '--failed', join(dir, 'unkeyed-failed.jsonl')];
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { failing_requests: 1 } });
    const first = await run(args);
    assert.equal(first.code, 5, first.stderr);
    const again = await run(args);
    assert.equal(again.code, 0, again.stderr);
    const { total, duplicates } = await ingestedEvents(emulator);
    assert.equal(duplicates, 0, 'no event stored twice');
    assert.equal(total, 2_000);
  });

  it('refuses a checkpoint another live run holds, and sends nothing', async () => {
    const file = join(dir, 'locked.jsonl');
    writeFileSync(file, eventsText(10, 2));
    const checkpoint = join(dir, 'locked-state.json');
    const { hostname } = await import('node:os');
    writeFileSync(`${checkpoint}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), since: 'now' }));
    const result = await runAlone(['events', 'send', file, '--checkpoint', checkpoint]);
    assert.equal(result.code, 75, 'another run holds it: not invalid input (2), try again later (75)');
    assert.match(result.stderr, /in use by another run/);
    const sent = (await emulator.requests()).filter((r) => r.method === 'POST' && String(r.path).endsWith('/events'));
    assert.deepEqual(sent, [], 'the refused run sent no events');
    assert.equal((await ingestedEvents(emulator)).total, 0);
  });

  it('--shard 0/2 plus --shard 1/2 send disjoint halves that together are the whole file, in order', async () => {
    const file = join(dir, 'shards.jsonl');
    writeFileSync(file, eventsText(5_000, 300));
    const halves = await Promise.all(['0/2', '1/2'].map((shard) => runAlone(['events', 'send', file, '--shard', shard, '--concurrency', '4', '--json'])));
    for (const half of halves) assert.equal(half.code, 0, half.stderr);
    const sent = halves.map((half) => summaryOf(half.stdout).sent as number);
    assert.ok(sent.every((n) => n > 1_500), `both shards get work: ${sent}`);
    assert.equal(sent[0]! + sent[1]!, 5_000);
    const { events, duplicates } = await ingestedEvents(emulator);
    assert.equal(duplicates, 0, 'disjoint');
    assertExactlyOnceInOrder(events, 5_000);
  });
});

describe('csafe events send under failure', () => {
  const dir = tempDir();

  // The same run at 100,000 events is a soak test (test/soak/events-faults.test.ts).
  it('2,000 events through 20 % injected faults: every event exactly once, each user in order', () => sendThroughFaults(dir, 2_000));

  it('--no-auto-idempotency: a batch whose answer was lost is not sent again but written to --unconfirmed, so no event is stored twice', async () => {
    // A reset: the emulator stores the batch, then cuts the connection in the middle of its answer.
    await withEmulatorProcess(['--fault-rate', '0.3', '--faults', 'reset', '--seed', '7'], async (faulty) => {
      const file = join(dir, 'keyless.jsonl');
      writeFileSync(file, eventsText(60, 60));
      const unconfirmed = join(dir, 'keyless-unconfirmed.jsonl');
      const failed = join(dir, 'keyless-failed.jsonl');
      const result = await runInProcess(['events', 'send', file, '--no-auto-idempotency', '--batch-size', '5', '--concurrency', '2', '--unconfirmed', unconfirmed, '--failed', failed, '--json'], {
        env: faulty.env,
      });
      assert.equal(result.code, 5, result.stderr);
      const summary = summaryOf(result.stdout);
      const setAside = readFileSync(unconfirmed, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { metadata: { n: number } }).metadata.n);
      assert.ok(setAside.length > 0, 'some answers were lost');
      assert.deepEqual([summary.unconfirmed, summary.unconfirmed_file, summary.failed], [setAside.length, unconfirmed, 0]);
      assert.match(result.stderr, /without idempotency keys resending them may store them twice/);
      const stored = (await ingestedEvents(faulty)).events.map(({ event }) => event.metadata.n);
      assert.equal(stored.length, 60, 'every event stored once: none sent twice, none lost');
      assert.equal(new Set(stored).size, 60);
      for (const n of setAside) assert.ok(stored.includes(n), `event ${n} is unconfirmed and was in fact stored`);
    });
  });

  it('batches that fail go to the failed file as sent, their users stop, and the file resends cleanly', async () => {
    const flaky = await startEmulatorProcess(['--fault-rate', '0.3', '--faults', '503', '--seed', '5']);
    const file = join(dir, 'partial.jsonl');
    const failed = join(dir, 'partial-failed.jsonl');
    writeFileSync(file, eventsText(3_000, 60));
    let firstRun: Ingested[];
    try {
      const result = await runInProcess(['events', 'send', file, '--failed', failed, '--max-retries', '0', '--batch-size', '50', '--json'], { env: flaky.env });
      assert.equal(result.code, 5, result.stderr);
      const summary = summaryOf(result.stdout);
      assert.equal((summary.sent as number) + (summary.failed as number), 3_000);
      assert.match(result.stderr, /partial\.jsonl:\d+-\d+: a batch of \d+ events failed.*503/);
      firstRun = (await ingestedEvents(flaky)).events;
    } finally {
      await flaky.stop();
    }
    const failedEvents = readFileSync(failed, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    assert.ok(failedEvents.every((e) => typeof e.idempotency_key === 'string'), 'written exactly as sent, keys included');
    const failedUsers = new Set(failedEvents.map((e) => e.user_id));
    for (const { event } of firstRun) {
      const laterFailed = failedEvents.some((f) => f.user_id === event.user_id && f.metadata.n < event.metadata.n);
      assert.ok(!laterFailed, `${event.user_id}: nothing sent after its first failed batch`);
    }
    assert.ok(failedUsers.size > 0);

    const resend = await runInProcess(['events', 'send', failed], { env: emulator.env });
    assert.equal(resend.code, 0, resend.stderr);
    const { events, duplicates } = await ingestedEvents(emulator);
    assert.equal(duplicates, 0);
    assertExactlyOnceInOrder([...firstRun, ...events], 3_000);
  });

  it('exits 1 when nothing could be sent', async () => {
    await withEmulatorProcess(['--fault-rate', '1', '--faults', '503'], async (down) => {
      const file = join(dir, 'down.jsonl');
      writeFileSync(file, eventsText(10, 3));
      const failed = join(dir, 'down-failed.jsonl');
      const result = await runInProcess(['events', 'send', file, '--failed', failed, '--max-retries', '0'], { env: down.env });
      assert.equal(result.code, 1);
      assert.equal(readFileSync(failed, 'utf8').trim().split('\n').length, 10);
    });
  });

  it('stops at a refused key: exit 3, every event handed back in the failed file, the key never printed', async () => {
    const file = join(dir, 'badkey.jsonl');
    writeFileSync(file, eventsText(250, 7));
    const failed = join(dir, 'badkey-failed.jsonl');
    const result = await runInProcess(['events', 'send', file, '--failed', failed, '--concurrency', '4'], {
      env: { ...emulator.env, CSAFE_API_KEY: 'sk_not_the_right_key_42' },
    });
    assert.equal(result.code, 3, result.stderr);
    assert.equal(readFileSync(failed, 'utf8').trim().split('\n').length, 250);
    assert.match(result.stderr, /refused the credentials \(401\)/);
    assert.ok(!result.stderr.includes('sk_not_the_right_key_42'));
    const attempts = (await emulator.requests()).filter((r) => r.path === '/v1/async/events').length;
    assert.ok(attempts <= 4, `${attempts} requests: sending should stop after the first refusal per lane`);
  });
});
