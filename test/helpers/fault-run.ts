// Whether events send delivers every event exactly once, each user's in order, through a service
// that fails a fifth of its requests (429, 503, resets, timeouts): the run the suite makes small
// and the soak set makes big.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertExactlyOnceInOrder, eventsText, ingestedEvents } from './events.js';
import { runCsafe, withEmulatorProcess } from './cli.js';

/** Far above the 100,000 events' run on a loaded machine (about 90 s). */
const RUN_TIMEOUT_MS = 300_000;

export async function sendThroughFaults(dir: string, count: number): Promise<void> {
  await withEmulatorProcess(['--fault-rate', '0.2', '--faults', '429,503,reset,timeout', '--seed', '20260811', '--fault-delay', '1500'], async (emulator) => {
    const file = join(dir, `faulted-${count}.jsonl`);
    writeFileSync(file, eventsText(count, Math.max(2, count / 20)));
    const started = Date.now();
    const result = await runCsafe(
      ['events', 'send', file, '--concurrency', '8', '--batch-size', '100', '--max-retries', '10', '--request-timeout', '1s', '--json'],
      { env: emulator.env, cwd: dir, timeoutMs: RUN_TIMEOUT_MS },
    );
    const seconds = (Date.now() - started) / 1000;
    assert.equal(result.code, 0, result.stderr.slice(-2000));
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    const { events, duplicates } = await ingestedEvents(emulator);
    assertExactlyOnceInOrder(events, count);
    const faults = (await emulator.requests()).filter((r) => r.fault !== null).length;
    // A fifth of about count / 100 batches, and of their retries.
    assert.ok(faults >= count / 1_000, `faults were injected: ${faults}`);
    process.stderr.write(`# fault test, ${count} events: ${seconds.toFixed(1)} s, ${faults} faults, ${summary.retries} retries, ${duplicates} duplicates de-duplicated\n`);
  });
}
