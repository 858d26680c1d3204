import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { BIN, CHILD_TIMEOUT_MS, EXAMPLES, exitOf, outcome, runCsafe, spawnCsafe, tempDir, useEmulatorProcess, withEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

// agent-decision send and deletion-request send: a JSONL file, a request a line, on the pipeline
// classify --batch uses (core/bulk/line-requests.ts). What every bulk command shares (a refused key,
// 429/503, a lost answer, SIGTERM and --checkpoint, --max-rate) is tested over all of them in test/reliability/stops.test.ts.
// Each command's first run here is the real bin/csafe, as are the runs cut short by a closed pipe;
// the others run main() in this process, against the same emulator process.

const lines = (text: string) => text.split('\n').filter((line) => line !== '');
const ndjson = (text: string) => lines(text).map((line) => JSON.parse(line) as Record<string, unknown>);
const posts = async (emulator: EmulatorProcess, path: string) => (await emulator.requests()).filter((request) => request.method === 'POST' && request.path === path);

const heldVerdicts = async (emulator: EmulatorProcess) =>
  ((await emulator.control('/_emulator/agent_decisions?limit=1000')) as { agent_decisions: Array<Record<string, unknown>> }).agent_decisions;
const heldErasures = async (emulator: EmulatorProcess) =>
  ((await emulator.control('/_emulator/deletion_requests?limit=1000')) as { deletion_requests: Array<Record<string, unknown>> }).deletion_requests;

describe('csafe agent-decision send', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);

  it("prints each line's safetykitCorrect in input order, says how many the service agreed with, and the service holds each verdict once", async () => {
    await emulator.control('/_emulator/reset', { method: 'POST' });
    const added = await runCsafe(['data', 'add', 'listings', join(EXAMPLES, 'listings.jsonl'), '--wait'], { env: emulator.env });
    assert.equal(added.code, 0, added.stderr);
    const result = await runCsafe(['agent-decision', 'send', join(EXAMPLES, 'agent-decisions.jsonl')], { env: emulator.env });
    assert.equal(result.code, 0, result.stderr);
    // The emulator's labels: listing-2 matches spam, listing-1 matches nothing, listing-3 matches pii.
    assert.deepEqual(ndjson(result.stdout), [
      { line: 1, reference_id: 'listing-2', policy_id: 'spam', decision: 'match', safetykitCorrect: true },
      { line: 2, reference_id: 'listing-1', policy_id: 'spam', decision: 'no_match', safetykitCorrect: true },
      { line: 3, reference_id: 'listing-3', policy_id: 'pii', decision: 'no_match', safetykitCorrect: false },
    ]);
    assert.match(result.stderr, /^sent 3 verdicts: the service's own verdict agreed with 2, not with 1$/m);
    const sent = lines(readFileSync(join(EXAMPLES, 'agent-decisions.jsonl'), 'utf8')).map((line) => JSON.parse(line) as Record<string, unknown>);
    const held = await heldVerdicts(emulator);
    assert.equal(held.length, sent.length, 'once each');
    for (const verdict of sent) {
      const kept = held.find((candidate) => candidate.reference_id === verdict.reference_id)!;
      assert.deepEqual(Object.fromEntries(Object.keys(verdict).map((key) => [key, kept[key]])), verdict, 'every field as the file gave it');
    }
  });

  it('-o tsv: the columns are headed by the JSON keys, as in every table', async () => {
    const result = await runInProcess(['agent-decision', 'send', join(EXAMPLES, 'agent-decisions.jsonl'), '-o', 'tsv'], { env: emulator.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(lines(result.stdout)[0], 'LINE\tREFERENCE_ID\tPOLICY_ID\tDECISION\tSAFETYKITCORRECT');
  });

  it('--json: one array, the same objects', async () => {
    const result = await runInProcess(['agent-decision', 'send', join(EXAMPLES, 'agent-decisions.jsonl'), '--json'], { env: emulator.env });
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as Array<{ line: number; safetykitCorrect: boolean }>;
    assert.deepEqual(printed.map((verdict) => [verdict.line, typeof verdict.safetykitCorrect]), [[1, 'boolean'], [2, 'boolean'], [3, 'boolean']]);
  });

  it('an invalid line: each named as file:line: field, nothing sent, exit 2; --skip-invalid sends the rest and keeps the rejects', async () => {
    await emulator.control('/_emulator/requests', { method: 'DELETE' });
    const dir = tempDir();
    writeFileSync(
      join(dir, 'verdicts.jsonl'),
      [
        '{"content_type":"listings","decision":"match","policy_id":"spam","reference_id":"l1"}',
        '{"content_type":"listings","decision":"match","policyId":"spam","reference_id":"l2"}',
        '{"content_type":"listings","decision":"","policy_id":"spam","reference_id":"l3"}',
      ].join('\n') + '\n',
    );
    const refused = await runInProcess(['agent-decision', 'send', 'verdicts.jsonl'], { env: emulator.env, cwd: dir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /^verdicts\.jsonl:2: policy_id: is required: .*; policyId: unknown field; did you mean "policy_id"\?$/m);
    assert.match(refused.stderr, /^verdicts\.jsonl:3: decision: expected a non-empty string/m);
    assert.deepEqual(await posts(emulator, '/v1/agent_decisions'), [], 'nothing sent');
    const skipping = await runInProcess(['agent-decision', 'send', 'verdicts.jsonl', '--skip-invalid', 'rejects.jsonl'], { env: emulator.env, cwd: dir });
    assert.equal(skipping.code, 5, skipping.stderr);
    assert.deepEqual(ndjson(skipping.stdout).map((verdict) => verdict.reference_id), ['l1']);
    assert.deepEqual(ndjson(readFileSync(join(dir, 'rejects.jsonl'), 'utf8')).map((reject) => reject.line), [2, 3]);
    assert.equal((await posts(emulator, '/v1/agent_decisions')).length, 1);
  });
});

describe('csafe agent-decision send, a record file it cannot write', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);

  it('without --checkpoint, the hint does not say to run the same command again, which would store the delivered verdicts twice; with one, it does', async () => {
    const dir = tempDir();
    const verdicts = Array.from({ length: 4 }, (_, i) => JSON.stringify({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: `l${i}` })).join('\n') + '\n';
    writeFileSync(join(dir, 'verdicts.jsonl'), verdicts);
    const failThird = { faults: [{ kind: '503', path: '/v1/agent_decisions', skip: 2, times: 1 }] };
    await emulator.control('/_emulator/reset', { method: 'POST' });
    await emulator.control('/_emulator/faults', { method: 'POST', body: failThird });
    const args = ['agent-decision', 'send', 'verdicts.jsonl', '--failed', '/dev/full', '--max-retries', '0', '--concurrency', '1'];
    const result = await runCsafe(args, { env: emulator.env, cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    // Line 4 went out as line 3 failed: it is waited for and counted as delivered.
    const held = (await heldVerdicts(emulator)).length;
    assert.equal(held, lines(result.stdout).length, 'what was printed is what the service holds');
    assert.match(result.stderr, new RegExp(`^hint: make room or give another path, but do not run the same command again: it would send the ${held} lines this run delivered a second time; send only those it did not, or give --checkpoint FILE, which skips what a run delivered$`, 'm'));
    assert.doesNotMatch(result.stderr, /run the command again/);
    await emulator.control('/_emulator/faults', { method: 'POST', body: failThird });
    const checkpointed = await runCsafe([...args, '--checkpoint', 'verdicts.checkpoint'], { env: emulator.env, cwd: dir });
    assert.equal(checkpointed.code, 1, checkpointed.stderr);
    assert.match(checkpointed.stderr, /^hint: make room or give another path, then run the command again$/m);
  });

  it('the verdicts in flight when the write failed are waited for and settled: printed and checkpointed, so the same command again stores every line once', async () => {
    const dir = tempDir();
    const references = Array.from({ length: 12 }, (_, i) => `l${i}`);
    writeFileSync(join(dir, 'verdicts.jsonl'), references.map((reference_id) => JSON.stringify({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id })).join('\n') + '\n');
    await emulator.control('/_emulator/reset', { method: 'POST' });
    await emulator.control('/_emulator/faults', { method: 'POST', body: { faults: [{ kind: '503', path: '/v1/agent_decisions', skip: 2, times: 1 }] } });
    const args = ['agent-decision', 'send', 'verdicts.jsonl', '--max-retries', '0', '--concurrency', '4', '--checkpoint', 'verdicts.checkpoint'];
    const stopped = await runCsafe([...args, '--failed', '/dev/full'], { env: emulator.env, cwd: dir });
    assert.equal(stopped.code, 1, stopped.stderr);
    assert.match(stopped.stderr, /^error: \/dev\/full: could not write: no space left on device \(ENOSPC\); 1 record not written \(input line 3\)$/m);
    const printed = ndjson(stopped.stdout).map((verdict) => verdict.reference_id);
    assert.ok(printed.length > 2, `the verdicts in flight behind line 3 are printed too: ${printed.join(', ')}`);
    assert.deepEqual((await heldVerdicts(emulator)).map((verdict) => verdict.reference_id).sort(), [...printed].sort(), 'the service holds what was printed, no more');
    const again = await runCsafe([...args, '--failed', 'failed.jsonl'], { env: emulator.env, cwd: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual((await heldVerdicts(emulator)).map((verdict) => verdict.reference_id).sort(), [...references].sort(), 'every line stored once, over both runs');
  });

  it('its --skip-invalid file cannot be written as an invalid line is read: the verdicts in flight are waited for and printed', async () => {
    const dir = tempDir();
    const verdict = (reference_id: string) => JSON.stringify({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id });
    writeFileSync(join(dir, 'verdicts.jsonl'), [...['l1', 'l2', 'l3', 'l4', 'l5', 'l6'].map(verdict), '{"bad":1}', ...['l8', 'l9'].map(verdict)].join('\n') + '\n');
    await withEmulatorProcess(['--processing-delay', '0', '--latency', '200'], async (slow) => {
      const stopped = await runCsafe(['agent-decision', 'send', 'verdicts.jsonl', '--skip-invalid', '/dev/full', '--concurrency', '4'], { env: slow.env, cwd: dir });
      assert.equal(stopped.code, 1, stopped.stderr);
      assert.match(stopped.stderr, /^error: \/dev\/full: could not write: no space left on device \(ENOSPC\); 1 record not written \(input line 7\)$/m);
      const printed = ndjson(stopped.stdout).map((line) => line.reference_id);
      assert.deepEqual((await heldVerdicts(slow)).map((held) => held.reference_id).sort(), [...printed].sort(), 'the service holds what was printed, no more');
    });
  });
});

describe('csafe agent-decision send, a line failed', () => {
  const emulator = useEmulatorProcess();

  it('says how to send it again: the failed file without --checkpoint, the same command with one (never both: that sends it twice)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'verdicts.jsonl'), '{"content_type":"listings","decision":"match","policy_id":"spam","reference_id":"ref-1"}\n');
    for (const [extra, hint] of [
      // The global flags go with it: they say where and how it was sent.
      [['--failed', 'failed.jsonl'], 'hint: resend them with `csafe --max-retries 0 agent-decision send failed.jsonl`'],
      [['--failed', 'failed-2.jsonl', '--checkpoint', 'state.json'], 'hint: run the same command again to send them (the file is the record of what failed)'],
    ] as const) {
      await emulator.control('/_emulator/quirks', { method: 'POST', body: { failing_requests: 1 } });
      const result = await runInProcess(['--max-retries', '0', 'agent-decision', 'send', 'verdicts.jsonl', ...extra], { env: emulator.env, cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      assert.equal(lines(result.stderr).at(-1), hint);
    }
    const again = await runInProcess(['agent-decision', 'send', 'verdicts.jsonl', '--checkpoint', 'state.json'], { env: emulator.env, cwd: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual((await heldVerdicts(emulator)).map((verdict) => verdict.reference_id), ['ref-1'], 'sent once, by the same command again');
  });
});

describe('csafe agent-decision send, cut short', () => {
  const emulator = useEmulatorProcess(['--latency', '20']);

  it('| head -1: the run stops as Ctrl-C stops it, says what it did and the command that continues, exit 5 (some sent, some not)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'verdicts.jsonl'), Array.from({ length: 200 }, (_, i) => JSON.stringify({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: `ref-${i + 1}` })).join('\n') + '\n');
    const child = spawnCsafe(['agent-decision', 'send', 'verdicts.jsonl'], { env: emulator.env, cwd: dir });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    assert.equal(await exitOf(child), 5);
    assert.match(stderr, /^interrupted: \d+ lines? sent in \d+ requests?, 0 failed; line (\d+) on not done$/m, stderr);
    assert.match(stderr, /^continue with: csafe agent-decision send verdicts\.jsonl --from-line \d+ --failed \S+ --unconfirmed \S+$/m);
  });
});

describe('csafe agent-decision send, left at once by a second SIGTERM', () => {
  const emulator = useEmulatorProcess();

  it('without --checkpoint: the lines in flight and those answered behind them go to --unconfirmed, and the command printed continues past them: every verdict held once', async (t) => {
    const dir = tempDir();
    const count = 200;
    writeFileSync(join(dir, 'verdicts.jsonl'), Array.from({ length: count }, (_, i) => JSON.stringify({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: `ref-${i + 1}` })).join('\n') + '\n');
    // The third line is recorded and its answer held past both signals; the lines after it are answered and wait behind it.
    await emulator.control('/_emulator/faults', { method: 'POST', body: { faults: [{ kind: 'timeout', method: 'POST', path: '/v1/agent_decisions', skip: 2, times: 1, delay_ms: 3000 }] } });
    const child = spawnCsafe(['--max-retries', '0', '--request-timeout', '1m', 'agent-decision', 'send', 'verdicts.jsonl', '--concurrency', '4', '--failed', 'failed.jsonl', '--unconfirmed', 'unconfirmed.jsonl'], { env: emulator.env, cwd: dir });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const ended = outcome(child);
    await waitFor(async () => (await posts(emulator, '/v1/agent_decisions')).length >= 6, { what: 'the lines after the held one to be answered' });
    child.kill('SIGTERM');
    // A second signal counts once 0.25 s have passed since the first.
    await sleep(500);
    child.kill('SIGTERM');
    const cut = await ended;
    assert.equal(cut.code, 143, cut.stderr);
    const resume = /^continue with: (csafe .*agent-decision send verdicts\.jsonl .*--from-line \d+ --failed failed\.jsonl --unconfirmed unconfirmed\.jsonl)$/m.exec(cut.stderr)?.[1];
    assert.ok(resume !== undefined, `a command that continues the run:\n${cut.stderr}`);
    assert.ok(lines(readFileSync(join(dir, 'unconfirmed.jsonl'), 'utf8')).length >= 4, 'the line in flight and those answered behind it');
    const again = spawnSync('sh', ['-c', resume], { cwd: dir, env: { ...emulator.env, PATH: `${dirname(BIN)}:${process.env.PATH}` }, encoding: 'utf8', timeout: CHILD_TIMEOUT_MS });
    assert.equal(again.status, 0, again.stderr);
    const held = (await heldVerdicts(emulator)).map((verdict) => verdict.reference_id).sort();
    assert.deepEqual(held, Array.from({ length: count }, (_, i) => `ref-${i + 1}`).sort(), 'each verdict recorded once: none sent twice, none left out');
  });
});

describe('csafe agent-decision send, its answers lost after the service recorded them', () => {
  // A third of the answers are cut after the verdict was recorded.
  const emulator = useEmulatorProcess(['--fault-rate', '0.3', '--faults', 'reset', '--seed', '7']);

  it('each such line goes to --unconfirmed, never sent again; --checkpoint records it, so the same command run again sends none of it', async () => {
    const dir = tempDir();
    const count = 12;
    writeFileSync(join(dir, 'verdicts.jsonl'), Array.from({ length: count }, (_, i) => JSON.stringify({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: `ref-${i + 1}` })).join('\n') + '\n');
    const args = ['agent-decision', 'send', 'verdicts.jsonl', '--checkpoint', 'state.json', '--unconfirmed', 'unconfirmed.jsonl', '--max-consecutive-failures', '0'];
    const first = await runInProcess(args, { env: emulator.env, cwd: dir });
    assert.equal(first.code, 5, first.stderr);
    const unconfirmed = ndjson(readFileSync(join(dir, 'unconfirmed.jsonl'), 'utf8'));
    assert.ok(unconfirmed.length > 0 && unconfirmed.length < count, `${unconfirmed.length} unconfirmed`);
    assert.match(first.stderr, new RegExp(`; ${unconfirmed.length} unconfirmed, written to unconfirmed\\.jsonl: the service may have recorded them`));
    const second = await runInProcess(args, { env: emulator.env, cwd: dir });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`^sent 0 verdicts: .*; ${count} lines skipped by checkpoint$`, 'm'));
    const held = (await heldVerdicts(emulator)).map((verdict) => verdict.reference_id).sort();
    assert.deepEqual(held, Array.from({ length: count }, (_, i) => `ref-${i + 1}`).sort(), 'each verdict recorded once: the acknowledged and the unconfirmed, none twice');
  });
});

describe('csafe deletion-request send', () => {
  const emulator = useEmulatorProcess();

  it("prints each line's deletion request; a line without external_request_id gets one derived from its content, so running the file again files nothing new", async () => {
    await emulator.control('/_emulator/reset', { method: 'POST' });
    const file = join(EXAMPLES, 'deletion-requests.jsonl');
    const first = await runCsafe(['deletion-request', 'send', file], { env: emulator.env });
    assert.equal(first.code, 0, first.stderr);
    const filed = ndjson(first.stdout);
    assert.deepEqual(filed.map(({ line, subject_user_id, status }) => [line, subject_user_id, status]), [[1, 'u42', 'accepted'], [2, 'u43', 'accepted'], [3, 'u44', 'accepted']]);
    assert.equal(filed[0]!.external_request_id, 'dsr-2026-0042', 'a key the line gives is kept');
    assert.match(String(filed[1]!.external_request_id), /^csafe-[0-9a-f]{32}$/);
    assert.notEqual(filed[1]!.external_request_id, filed[2]!.external_request_id);
    assert.match(first.stderr, /^3 deletion requests accepted$/m);
    const again = await runInProcess(['deletion-request', 'send', file], { env: emulator.env });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(ndjson(again.stdout), filed, 'the same requests, answered with the ids first filed');
    assert.equal((await heldErasures(emulator)).length, 3, 'filed once each');
  });

  it('-o tsv: the columns are headed by the JSON keys, as in every table', async () => {
    const result = await runInProcess(['deletion-request', 'send', join(EXAMPLES, 'deletion-requests.jsonl'), '-o', 'tsv'], { env: emulator.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(lines(result.stdout)[0], 'LINE\tSUBJECT_USER_ID\tDELETION_REQUEST_ID\tSTATUS\tEXTERNAL_REQUEST_ID');
  });

  it('the derived key depends on the content alone: the same requests, reordered, with their fields in another order and their instant written otherwise, are the requests already filed', async () => {
    await emulator.control('/_emulator/reset', { method: 'POST' });
    const dir = tempDir();
    writeFileSync(join(dir, 'a.jsonl'), '{"subject_user_id":"u1","requested_at":"2026-11-27T10:00:00Z"}\n{"subject_user_id":"u2","requested_at":"2026-11-27T12:00:00.000Z"}\n');
    writeFileSync(join(dir, 'b.jsonl'), '{"subject_user_id":"u2","requested_at":"2026-11-27T13:00:00+01:00"}\n{"requested_at":"2026-11-27T10:00:00+00:00","subject_user_id":"u1"}\n{"subject_user_id":"u1","requested_at":"2026-11-28T10:00:00Z"}\n');
    const a = await runInProcess(['deletion-request', 'send', 'a.jsonl'], { env: emulator.env, cwd: dir });
    const b = await runInProcess(['deletion-request', 'send', 'b.jsonl'], { env: emulator.env, cwd: dir });
    assert.deepEqual([a.code, b.code], [0, 0], a.stderr + b.stderr);
    const idsOf = (stdout: string) => ndjson(stdout).map((filed) => filed.deletion_request_id);
    const [first, second] = [idsOf(a.stdout), idsOf(b.stdout)];
    assert.deepEqual([second[0], second[1]], [first[1], first[0]]);
    assert.ok(!first.includes(second[2]), 'another requested_at is another request');
    assert.equal((await heldErasures(emulator)).length, 3);
  });

  it('an invalid line: named, nothing sent, exit 2 — a bad date, neither requested_at nor an external id, a null id, one id on two different requests', async () => {
    await emulator.control('/_emulator/requests', { method: 'DELETE' });
    const dir = tempDir();
    writeFileSync(
      join(dir, 'erasures.jsonl'),
      [
        '{"subject_user_id":"u1","requested_at":"2026-11-27T10:00:00Z"}',
        '{"subject_user_id":"u2","requested_at":"yesterday"}',
        '{"subject_user_id":"u3"}',
        '{"subject_user_id":"u4","external_request_id":null}',
        '{"subject_user_id":"alice","external_request_id":"dsr-1"}',
        '{"subject_user_id":"bob","external_request_id":"dsr-1"}',
        '{"subject_user_id":"alice","external_request_id":"dsr-1"}',
      ].join('\n') + '\n',
    );
    const result = await runInProcess(['deletion-request', 'send', 'erasures.jsonl'], { env: emulator.env, cwd: dir });
    assert.equal(result.code, 2, result.stderr);
    const problems = lines(result.stderr).filter((line) => line.startsWith('erasures.jsonl:'));
    assert.equal(problems.length, 4, result.stderr);
    assert.match(problems[0]!, /^erasures\.jsonl:2: requested_at: expected an ISO 8601 date-time/);
    assert.match(problems[1]!, /^erasures\.jsonl:3: requested_at: is required when the line has no external_request_id/);
    assert.match(problems[2]!, /^erasures\.jsonl:4: external_request_id: expected a string, got null; leave the field out/);
    assert.match(problems[3]!, /^erasures\.jsonl:6: external_request_id: "dsr-1" is on line 5 too, for another request/, 'a repeat of the same request (line 7) is no problem');
    assert.deepEqual(await posts(emulator, '/v1/deletion_requests'), []);
  });

  it('Ctrl-C with more than ten requests in flight: one line says how many answers it awaits, none for each request, and no warning of Node', async () => {
    await emulator.control('/_emulator/reset', { method: 'POST' });
    const dir = tempDir();
    writeFileSync(join(dir, 'erasures.jsonl'), Array.from({ length: 30 }, (_, i) => `{"subject_user_id":"u${i + 1}","requested_at":"2026-11-27T10:00:00Z"}\n`).join(''));
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { held_requests: 12 } });
    const child = spawnCsafe(['deletion-request', 'send', 'erasures.jsonl', '--concurrency', '12'], { env: emulator.env, cwd: dir });
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const result = outcome(child);
    try {
      await waitFor(async () => ((await emulator.control('/_emulator/in_flight')) as { held: number }).held === 12, { what: 'twelve requests held' });
      child.kill('SIGINT');
      await waitFor(() => said.includes('interrupted: waiting'), { what: 'csafe to take the Ctrl-C' });
    } finally {
      await emulator.control('/_emulator/release', { method: 'POST' });
    }
    const { code, stderr } = await result;
    assert.equal(code, 130, stderr);
    assert.deepEqual(lines(stderr).filter((line) => line.startsWith('interrupted:') || line.includes('Warning')), [
      'interrupted: waiting for the answers to 12 requests in flight (Ctrl-C again to leave without them)',
      'interrupted: 12 lines sent in 12 requests, 0 failed; line 13 on not done',
    ]);
  });

  it('one id on two different requests is refused under --shard and --from-line too, where the earlier line is another worker\'s or an earlier run\'s', async () => {
    await emulator.control('/_emulator/reset', { method: 'POST' });
    const dir = tempDir();
    // Lines 3 and 15 share an id; under --shard i/4 they fall to workers 3 and 1.
    const erasures = Array.from({ length: 20 }, (_, i) => JSON.stringify({ subject_user_id: `s${i + 1}`, external_request_id: i + 1 === 3 || i + 1 === 15 ? 'dsr-1' : `dsr-x${i + 1}` }));
    writeFileSync(join(dir, 'erasures.jsonl'), erasures.join('\n') + '\n');
    const codes: number[] = [];
    for (const shard of ['0/4', '1/4', '2/4', '3/4']) {
      const worker = await runInProcess(['deletion-request', 'send', 'erasures.jsonl', '--shard', shard], { env: emulator.env, cwd: dir });
      codes.push(worker.code ?? -1);
      if (shard === '1/4') assert.match(worker.stderr, /^erasures\.jsonl:15: external_request_id: "dsr-1" is on line 3 too, for another request/m);
    }
    assert.deepEqual(codes, [0, 2, 0, 0], 'the worker of line 15 refuses it, as a run without --shard does');
    const resumed = await runInProcess(['deletion-request', 'send', 'erasures.jsonl', '--from-line', '10'], { env: emulator.env, cwd: dir });
    assert.equal(resumed.code, 2, resumed.stderr);
    assert.match(resumed.stderr, /^erasures\.jsonl:15: external_request_id: "dsr-1" is on line 3 too/m);
    assert.ok(!(await heldErasures(emulator)).some((held) => held.subject_user_id === 's15') && !(await posts(emulator, '/v1/deletion_requests')).some((request) => String(request.body).includes('"s15"')), 'line 15 never sent');
  });
});
