import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test, type TestContext } from 'node:test';
import { followBatch } from '../../src/commands/batch/shared/wait.js';
import { dataStatusRun } from '../../src/commands/data/status.js';
import { decisionGetRun } from '../../src/commands/decision/get.js';
import { importGetRun } from '../../src/commands/import/get.js';
import type { Outcome } from '../../src/commands/app.js';
import { ExitCode } from '../../src/core/errors.js';
import { commandTest, exitCodeOf, type CommandTest } from '../helpers/context.js';
import { closeServer, listenOnLoopback } from '../helpers/server.js';

/**
 * Every --wait, at a status the spec does not list (the emulator has no switch for one): a service
 * of the test's own answers it after one status the spec says is under way. The wait stops there
 * (it may never change, and --wait has no limit by default) with exit 1, the status said on
 * stderr once and kept in the JSON printed.
 */

const RECORDS: Record<string, [running: Record<string, unknown>, unlisted: Record<string, unknown>]> = {
  '/v1/batches/bat_1': [
    { batch_id: 'bat_1', type: 'text', batch_status: 'PENDING' },
    { batch_id: 'bat_1', type: 'text', batch_status: 'ARCHIVED', archived_at: '2026-11-30T00:00:00Z' },
  ],
  '/v1/import/imp_1': [
    { import_id: 'imp_1', import_status: 'IN_PROGRESS', created_at: '2026-11-30T00:00:00Z' },
    { import_id: 'imp_1', import_status: 'CANCELLED', created_at: '2026-11-30T00:00:00Z' },
  ],
  '/v1/data/listings/requests/req_1': [
    { request_id: 'req_1', status: 'ingesting' },
    { request_id: 'req_1', status: 'cancelled' },
  ],
  '/v1/decisions/dec_1': [
    { decision_id: 'dec_1', decision_status: 'PENDING' },
    { decision_id: 'dec_1', decision_status: 'REJECTED' },
  ],
};

/** A command run against a service answering each record's two statuses in turn, the second for ever; with how many lookups it made. */
async function againstService(t: TestContext) {
  let lookups = 0;
  const server = createServer((req, res) => {
    const pair = RECORDS[req.url ?? ''];
    if (pair === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(pair[Math.min(lookups++, 1)]));
  });
  const baseUrl = await listenOnLoopback(server);
  t.after(() => closeServer(server));
  const run = await commandTest(t, { flags: { json: true }, env: { CSAFE_BASE_URL: baseUrl } });
  return { run, lookups: () => lookups };
}

const waitAnHour = { wait: true, timeoutMs: 3_600_000 };

const cases: [what: string, status: string, field: string, waitOn: string, start: (run: CommandTest) => Promise<Outcome | void>][] = [
  ['batch get --wait', 'ARCHIVED', 'batch_status', 'csafe batch get bat_1 --wait', (run) => followBatch(run.ctx, 'bat_1', waitAnHour)],
  ['import get --wait', 'CANCELLED', 'import_status', 'csafe import get imp_1 --wait', (run) => importGetRun(run.ctx, 'imp_1', waitAnHour)],
  ['data status --wait', 'cancelled', 'status', 'csafe data status listings req_1 --wait', (run) => dataStatusRun(run.ctx, 'listings', 'req_1', waitAnHour)],
  ['decision get --wait', 'REJECTED', 'decision_status', 'csafe decision get dec_1 --wait', (run) => decisionGetRun(run.ctx, 'dec_1', waitAnHour)],
];

for (const [what, status, field, waitOn, start] of cases) {
  test(`${what} stops at status ${status}, which the spec does not list: exit 1, said once on stderr with the command that waits on, kept in the JSON`, async (t) => {
    const { run, lookups } = await againstService(t);
    assert.equal(await exitCodeOf(start(run)), ExitCode.failure);
    assert.equal(lookups(), 2, 'no lookup after the unknown status');
    const printed = JSON.parse(run.stdout()) as Record<string, unknown>;
    assert.equal(printed[field], status);
    const notes = run.stderr().split('\n').filter((line) => line.includes('csafe does not know'));
    assert.equal(notes.length, 1, run.stderr());
    assert.match(notes[0]!, new RegExp(`has status "${status}", which csafe does not know \\(it knows .+\\): stopped waiting`));
    assert.ok(run.stderr().includes(`wait on with:\n  ${waitOn}\n`), run.stderr());
  });
}
