import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bundleCallsByNameOnly, callCounts, type CallCounts } from '../helpers/call-sites.js';
import { runCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { eventsText, ingestedEvents } from '../helpers/events.js';

// The start-up guard for `events send`, counted rather than timed: each input line is parsed once
// (one pass, even when nothing may be sent before the whole input is checked), a user's
// placement is hashed once, and each event's idempotency key once.
const EVENTS = 2_000;
const USERS = 20;
const BATCH = 100;
/** JSON.parse calls that are not input lines (what the libraries parse as they load, one answer per batch sent): far fewer than a second pass's EVENTS. */
const OTHER_PARSES = 200;

describe('csafe events send parses each line once', () => {
  const emulator = useEmulatorProcess();
  const dir = tempDir();
  const file = join(dir, 'events.jsonl');
  writeFileSync(file, eventsText(EVENTS, USERS));

  async function counted(args: string[]): Promise<CallCounts> {
    const coverage = mkdtempSync(join(dir, 'coverage-'));
    const result = await runCsafe(['events', 'send', file, '--batch-size', String(BATCH), ...args], { env: { ...emulator.env, NODE_V8_COVERAGE: coverage } });
    assert.equal(result.code, 0, result.stderr);
    return callCounts(coverage);
  }

  it('the counts see every parse: the bundle names JSON.parse only to call it', () => {
    assert.ok(bundleCallsByNameOnly(join(import.meta.dirname, '../../bundle')));
  });

  it('--dry-run: one parse a line, and the hashes of a real run (its plan shows each event as it would go, idempotency key and all)', async () => {
    const counts = await counted(['--dry-run']);
    assert.ok(counts.parse >= EVENTS && counts.parse <= EVENTS + OTHER_PARSES, `${counts.parse} parses for ${EVENTS} lines`);
    assert.equal(counts.hash, USERS + EVENTS);
  });

  for (const mode of [[], ['--skip-invalid', 'invalid.jsonl']]) {
    it(`sending${mode.length > 0 ? ' with --skip-invalid' : ', checked first'}: one parse a line, one hash a user and one an event`, async () => {
      await emulator.control('/_emulator/reset', { method: 'POST' });
      const counts = await counted(mode.map((arg) => (arg.endsWith('.jsonl') ? join(dir, arg) : arg)));
      assert.equal((await ingestedEvents(emulator)).total, EVENTS);
      assert.ok(counts.parse >= EVENTS && counts.parse <= EVENTS + OTHER_PARSES, `${counts.parse} parses for ${EVENTS} lines`);
      assert.equal(counts.hash, USERS + EVENTS, `${counts.hash} hashes: a placement per user (${USERS}) and a key per event (${EVENTS})`);
    });
  }
});
