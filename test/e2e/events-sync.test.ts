import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { EVENT_EXAMPLES } from '../../src/schemas/event-examples.js';
import { runCsafe, startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';

interface Listing {
  total: number;
  events: Array<{ event_id: string; event: { metadata?: { n?: number } } }>;
}

describe('csafe events send --sync', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();
  const run = (args: string[]) => runCsafe(args, { env: emulator.env, cwd: dir });
  const control = async (path: string, method = 'GET') => {
    const response = await fetch(emulator.baseUrl + path, { method, headers: { Authorization: `Bearer ${emulator.apiKey}` } });
    assert.equal(response.status, 200, path);
    return response.json();
  };

  before(async () => {
    emulator = await startEmulatorProcess();
  });
  after(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => control('/_emulator/reset', 'POST'));

  const eventsFile = (count: number) => {
    const path = join(dir, 'events.jsonl');
    const events = Array.from({ length: count }, (_, n) => ({ ...EVENT_EXAMPLES.create_account, user_id: `user_${n % 7}`, metadata: { n } }));
    writeFileSync(path, events.map((event) => JSON.stringify(event)).join('\n') + '\n');
    return path;
  };

  it('ingests through POST /v1/events and prints one NDJSON line per event: its input line and event_id', async () => {
    const result = await run(['events', 'send', eventsFile(250), '--sync', '--batch-size', '10']);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { line: number; event_id: string });
    assert.deepEqual(lines.map((l) => l.line).sort((a, b) => a - b), Array.from({ length: 250 }, (_, i) => i + 1));
    const listing = (await control('/_emulator/events')) as Listing;
    assert.equal(listing.total, 250);
    const idOfLine = new Map(listing.events.map((e) => [e.event.metadata!.n! + 1, e.event_id]));
    for (const { line, event_id: id } of lines) assert.equal(id, idOfLine.get(line), `line ${line}`);
    const requests = (await control('/_emulator/requests')) as { requests: Array<{ path: string }> };
    const paths = new Set(requests.requests.map((r) => r.path).filter((path) => path.includes('events')));
    assert.deepEqual([...paths], ['/v1/events']);
    assert.match(result.stderr, /sent 250, failed 0/);
  });

  it('a re-run prints the ids the service gave the first time (idempotency keys)', async () => {
    const file = eventsFile(3);
    const first = await run(['events', 'send', file, '--sync']);
    const again = await run(['events', 'send', file, '--sync']);
    assert.equal(again.code, 0, again.stderr);
    const ids = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line)).sort((a, b) => a.line - b.line);
    assert.deepEqual(ids(again.stdout), ids(first.stdout));
  });

  it('without --sync the events are queued and stdout holds only the summary (JSON in a pipe), no event ids', async () => {
    const result = await run(['events', 'send', eventsFile(3)]);
    assert.equal(result.code, 0, result.stderr);
    const summary = JSON.parse(result.stdout) as { sent: number };
    assert.equal(summary.sent, 3);
    assert.ok(!('event_id' in summary));
    const requests = (await control('/_emulator/requests')) as { requests: Array<{ path: string }> };
    assert.ok(requests.requests.every((r) => r.path !== '/v1/events'));
  });

  it('under connection resets, each event is ingested once and printed with the id it was ingested under', { timeout: 120_000 }, async () => {
    const flaky = await startEmulatorProcess(['--fault-rate', '0.3', '--faults', 'reset', '--seed', '4']);
    try {
      const result = await runCsafe(['--max-retries', '10', 'events', 'send', eventsFile(300), '--sync', '--batch-size', '10'], { env: flaky.env, cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      const printed = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { line: number; event_id: string });
      const response = await fetch(`${flaky.baseUrl}/_emulator/events`, { headers: { Authorization: `Bearer ${flaky.apiKey}` } });
      const listing = (await response.json()) as Listing & { duplicates: number };
      assert.equal(listing.total, 300);
      assert.ok(listing.duplicates > 0, 'some batches were ingested, cut off and sent again');
      const idOfLine = new Map(listing.events.map((e) => [e.event.metadata!.n! + 1, e.event_id]));
      assert.equal(printed.length, 300);
      for (const { line, event_id: id } of printed) assert.equal(id, idOfLine.get(line), `line ${line}`);
    } finally {
      await flaky.stop();
    }
  });

  it('is documented in --help', async () => {
    const help = await run(['events', 'send', '--help']);
    assert.match(help.stdout, /--sync/);
    // commander wraps option text to the width of the longest flag (--max-consecutive-failures): read it unwrapped.
    assert.match(help.stdout.replace(/\s+/g, ' '), /POST \/v1\/events\b/);
  });
});
