import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { outcome, spawnCsafe, tempDir, useEmulatorProcess, type EmulatorProcess, type RunResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

// The create calls run main() in this process, against emulator processes that cut or hold their
// answers; the runs interrupted with Ctrl-C are the real bin/csafe.

const dir = tempDir();
const CSV = join(dir, 'reviews.csv');
writeFileSync(CSV, 'Content,source\nnice bike,app\n');
const JSONL = join(dir, 'records.jsonl');
writeFileSync(JSONL, '{"type":"text","data":{"text":"hi"}}\n');

/** The three commands that create something, each with the path of its create call. */
const CREATES = [
  { what: 'decision', plural: 'decisions', args: ['decision', 'create', '--type', 'text', '--content', '{"text":"hi"}'], path: '/v1/decisions' },
  { what: 'batch', plural: 'batches', args: ['batch', 'create', CSV, '--type', 'text'], path: '/v1/batches' },
  { what: 'import', plural: 'imports', args: ['import', 'create', JSONL], path: '/v1/import' },
  { what: 'deletion request', plural: 'deletion requests', args: ['deletion-request', 'create', '--subject-user-id', 'u42'], path: '/v1/deletion_requests' },
  { what: 'agent decision', plural: 'agent decisions', args: ['agent-decision', 'create', '--content-type', 'listings', '--decision', 'match', '--policy-id', 'violence', '--reference-id', 'l1'], path: '/v1/agent_decisions' },
] as const;

/** The create calls the emulator received, with the status each was answered (or about to be, when a fault cut it). */
const createCalls = async (emulator: EmulatorProcess, path: string) =>
  (await emulator.requests()).filter((entry) => entry.method === 'POST' && entry.path === path).map((entry) => `${String(entry.status)} ${String(entry.fault)}`);

const uploads = async (emulator: EmulatorProcess) => (await emulator.requests()).filter((entry) => entry.method === 'PUT');

/** The lines of stderr a person reads, hints aside. */
const errorLines = (result: RunResult) => result.stderr.trim().split('\n').filter((line) => line !== '' && !line.startsWith('hint:'));

describe('create calls whose answer is lost after the service processed them', () => {
  const resetting = useEmulatorProcess(['--fault-rate', '1', '--faults', 'reset']);

  for (const { what, plural, args, path } of CREATES) {
    it(`${what} create, cut off after processing: sent once, never again; one line saying the ${what} may have been created, exit 1`, async () => {
      await resetting.control('/_emulator/requests', { method: 'DELETE' });
      const result = await runInProcess(args, { env: resetting.env, cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      assert.deepEqual(await createCalls(resetting, path), ['200 reset'], 'exactly one was made');
      assert.deepEqual(await uploads(resetting), []);
      const lines = errorLines(result);
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, new RegExp(`^error: the ${what} may have been created: POST ${path}: .*; it was not sent again, as that could create a second ${what}$`));
      assert.doesNotMatch(result.stderr, /retr(y|ies)/);
      assert.match(result.stderr, new RegExp(`\nhint: ${plural} cannot be listed through the API: look for it in the service's review interface`));
      assert.equal(result.stdout, '');
    });
  }
});

describe('a deletion request with an external id', () => {
  const resetting = useEmulatorProcess(['--fault-rate', '1', '--faults', 'reset', '--seed', '7']);

  it('is safe to send again: its answer lost, it is retried, and the service holds it once', async () => {
    await resetting.control('/_emulator/requests', { method: 'DELETE' });
    const result = await runInProcess(['deletion-request', 'create', '--subject-user-id', 'u42', '--external-request-id', 'dsr-1', '--max-retries', '3'], { env: resetting.env, cwd: dir });
    // Every answer is cut off: each attempt is one more repeat of the same request, never a second one.
    assert.equal(result.code, 1, result.stderr);
    assert.ok((await createCalls(resetting, '/v1/deletion_requests')).length > 1, 'retried');
    assert.doesNotMatch(result.stderr, /may have been created/);
    const { deletion_requests: held } = (await resetting.control('/_emulator/deletion_requests')) as { deletion_requests: unknown[] };
    assert.equal(held.length, 1);
  });
});

describe('create calls the service did not process', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);

  for (const { what, args, path } of CREATES) {
    it(`${what} create after a 503 ("not processed"): retried, one ${what} made, exit 0`, async () => {
      await emulator.control('/_emulator/requests', { method: 'DELETE' });
      await emulator.control('/_emulator/quirks', { method: 'POST', body: { failing_requests: 1 } });
      const result = await runInProcess(args, { env: emulator.env, cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(await createCalls(emulator, path), ['503 503', '200 null']);
    });
  }

  it('decision create with no answer in time after processing: not sent again, exit 1 saying the decision may have been created', async () => {
    await emulator.control('/_emulator/requests', { method: 'DELETE' });
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { held_requests: 1 } });
    try {
      const result = await runInProcess(['--request-timeout', '500ms', ...CREATES[0].args], { env: emulator.env, cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      assert.deepEqual(errorLines(result), [
        'error: the decision may have been created: POST /v1/decisions: no answer within 0.5 s; it was not sent again, as that could create a second decision',
      ]);
    } finally {
      await emulator.control('/_emulator/release', { method: 'POST' });
    }
    assert.deepEqual(await createCalls(emulator, '/v1/decisions'), ['200 null']);
  });

  for (const { what, args, path } of CREATES) {
    it(`${what} create in flight at Ctrl-C: its answer still comes, and the id of the ${what} made is printed`, async () => {
      await emulator.control('/_emulator/requests', { method: 'DELETE' });
      await emulator.control('/_emulator/quirks', { method: 'POST', body: { held_requests: 1 } });
      const child = spawnCsafe([...args, '--json'], { env: emulator.env, cwd: dir });
      let said = '';
      child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
      const result = outcome(child);
      try {
        await waitFor(async () => ((await emulator.control('/_emulator/in_flight')) as { held: number }).held === 1, { what: `the ${what} create held` });
        child.kill('SIGINT');
        // Said once csafe has taken the Ctrl-C: the interrupted run still waits for the answer when it is released.
        const awaiting = `interrupted: waiting for the answer to POST ${path}, which says whether the ${what} was created (Ctrl-C again to leave without it)\n`;
        await waitFor(() => said.includes(awaiting), { what: 'csafe to say it waits for the answer' });
        assert.equal(child.exitCode, null, 'csafe left before the answer came');
      } finally {
        await emulator.control('/_emulator/release', { method: 'POST' });
      }
      const { code, stdout, stderr } = await result;
      assert.deepEqual(await createCalls(emulator, path), ['200 null']);
      // A verdict has no id: its answer is whether the service was right.
      if (what === 'agent decision') {
        assert.equal(code, 0, stderr);
        assert.equal(typeof JSON.parse(stdout).safetykitCorrect, 'boolean');
        return;
      }
      const id = /\b(dec|bat|imp|del)_[0-9a-f]+/.exec(stdout + stderr)?.[0];
      assert.ok(id !== undefined, `no id in: ${stdout}${stderr}`);
      if (what === 'decision' || what === 'deletion request') {
        assert.equal(code, 0, stderr);
        const printed = JSON.parse(stdout) as Record<string, unknown>;
        assert.equal(what === 'decision' ? printed.decision_id : printed.deletion_request_id, id);
      } else {
        // Its upload does not start after Ctrl-C: the run says which one was made without its file.
        assert.equal(code, 130, stderr);
        assert.match(stderr, new RegExp(`^interrupted: ${id} was created, but its file was not uploaded$`, 'm'));
        assert.deepEqual(await uploads(emulator), []);
      }
    });
  }
});
