import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// The faults a service (or what stands in front of it) answers with besides 429 and 503: a 408 and
// a gateway's 502 page (not processed), a connection closed with no answer (not processed), a 500
// and a 200 of HTML (processed). The bulk commands must deliver every record exactly once through
// them, retrying only what may be replayed; a single request must end in one line, not a crash.

const LATE_FAULTS = '408,502,drop,500,garbage';

describe('answers lost or spoilt: 408, 502, a dropped connection, 500, a 200 of HTML', () => {
  const emulator = useEmulatorProcess(['--fault-rate', '0.3', '--faults', LATE_FAULTS, '--seed', '11', '--processing-delay', '0']);
  const dir = tempDir();
  const run = (args: string[]) => runInProcess(['--max-retries', '10', ...args], { env: emulator.env, cwd: dir });
  const control = (path: string) => emulator.control(path);
  const linesOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

  /**
   * A run, then a resend of its failed file until it is empty: the failed file holds only what is
   * safe to send again (a batch that met a fault on each of its tries is kept there), so together
   * they deliver each record once.
   */
  async function deliver(args: (input: string, failed: string) => string[], input: string): Promise<number[]> {
    const codes: number[] = [];
    for (let round = 0, file = input; round < 5; round++) {
      const failed = join(dir, `failed-${round}-${args(input, '').slice(0, 2).join('-')}.jsonl`);
      const result = await run(args(file, failed));
      codes.push(result.code ?? -1);
      assert.ok([0, 5].includes(result.code!), result.stderr);
      if (linesOf(failed).length === 0) return codes;
      file = failed;
    }
    assert.fail(`records still failed after 5 runs: ${codes.join(', ')}`);
  }

  it('events send: every event stored once, whatever each answer was (idempotency keys)', async () => {
    const file = join(dir, 'events.jsonl');
    const count = 300;
    writeFileSync(file, Array.from({ length: count }, (_, i) => JSON.stringify({ type: 'create_account', event_name: 'signup', timestamp: '2026-11-27T10:00:00Z', user_id: `u${i}` })).join('\n') + '\n');
    await deliver((input, failed) => ['events', 'send', input, '--batch-size', '10', '--failed', failed], file);
    const stored = (await control('/_emulator/events')) as { total: number; events: Array<{ event: { user_id: string } }> };
    assert.equal(stored.total, count, 'each event once');
    assert.equal(new Set(stored.events.map((entry) => entry.event.user_id)).size, count);
  });

  it('data add: every object once (upserted by id)', async () => {
    const file = join(dir, 'objects.jsonl');
    const count = 300;
    writeFileSync(file, Array.from({ length: count }, (_, i) => JSON.stringify({ id: `o${i}`, title: `listing ${i}` })).join('\n') + '\n');
    await deliver((input, failed) => ['data', 'add', 'lost', input, '--batch-size', '10', '--failed', failed], file);
    const { objects } = (await control('/_emulator/data/lost')) as { objects: Array<{ id: string }> };
    assert.equal(new Set(objects.map((object) => object.id)).size, count);
    assert.equal(objects.length, count);
  });

  it('met every one of the five faults on the way', async () => {
    const faults = new Set(((await emulator.requests()) as Array<{ fault: string | null }>).map((entry) => entry.fault));
    for (const kind of LATE_FAULTS.split(',')) assert.ok(faults.has(kind), `${kind} was injected`);
  });
});

describe('a single request that only ever gets a spoilt answer', () => {
  // Each is retried (classify is safe to replay), then the one line names what came back.
  const requests = 2;
  for (const kind of ['502', 'drop', 'garbage']) {
    describe(kind, () => {
      const emulator = useEmulatorProcess(['--fault-rate', '1', '--faults', kind]);
      it(`classify: exit 1 with one line saying what came back, after ${requests} requests`, async () => {
        const result = await runInProcess(['--max-retries', '1', 'classify', '--user-id', 'u1', '--text', 'hello'], { env: emulator.env });
        assert.equal(result.code, 1, result.stderr);
        assert.equal(result.stdout, '');
        assert.equal(result.stderr.trim().split('\n').filter((line) => line.startsWith('error:')).length, 1, result.stderr);
        assert.doesNotMatch(result.stderr, /^\s+at |TypeError|SyntaxError/m);
        assert.equal((await emulator.requests()).length, requests);
      });
    });
  }
});
