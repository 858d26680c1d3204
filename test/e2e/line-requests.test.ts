import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EXAMPLES, runCsafe, tempDir, useEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';

// agent-decision send and deletion-request send: a JSONL file, a request a line, on the pipeline
// classify --batch uses (core/bulk/line-requests.ts). What every bulk command shares (a refused key,
// 429/503, a lost answer, SIGTERM and --checkpoint, --max-rate) is tested over all of them in stops.test.ts.

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

  it('--json: one array, the same objects', async () => {
    const result = await runCsafe(['agent-decision', 'send', join(EXAMPLES, 'agent-decisions.jsonl'), '--json'], { env: emulator.env });
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
    const refused = await runCsafe(['agent-decision', 'send', 'verdicts.jsonl'], { env: emulator.env, cwd: dir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /^verdicts\.jsonl:2: policy_id: is required: .*; policyId: unknown field; did you mean "policy_id"\?$/m);
    assert.match(refused.stderr, /^verdicts\.jsonl:3: decision: expected a non-empty string/m);
    assert.deepEqual(await posts(emulator, '/v1/agent_decisions'), [], 'nothing sent');
    const skipping = await runCsafe(['agent-decision', 'send', 'verdicts.jsonl', '--skip-invalid', 'rejects.jsonl'], { env: emulator.env, cwd: dir });
    assert.equal(skipping.code, 5, skipping.stderr);
    assert.deepEqual(ndjson(skipping.stdout).map((verdict) => verdict.reference_id), ['l1']);
    assert.deepEqual(ndjson(readFileSync(join(dir, 'rejects.jsonl'), 'utf8')).map((reject) => reject.line), [2, 3]);
    assert.equal((await posts(emulator, '/v1/agent_decisions')).length, 1);
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
    const first = await runCsafe(args, { env: emulator.env, cwd: dir });
    assert.equal(first.code, 5, first.stderr);
    const unconfirmed = ndjson(readFileSync(join(dir, 'unconfirmed.jsonl'), 'utf8'));
    assert.ok(unconfirmed.length > 0 && unconfirmed.length < count, `${unconfirmed.length} unconfirmed`);
    assert.match(first.stderr, new RegExp(`; ${unconfirmed.length} unconfirmed, written to unconfirmed\\.jsonl: the service may have recorded them`));
    const second = await runCsafe(args, { env: emulator.env, cwd: dir });
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
    assert.match(first.stderr, /^filed 3 deletion requests$/m);
    const again = await runCsafe(['deletion-request', 'send', file], { env: emulator.env });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(ndjson(again.stdout), filed, 'the same requests, answered with the ids first filed');
    assert.equal((await heldErasures(emulator)).length, 3, 'filed once each');
  });

  it('the derived key depends on the content alone: the same requests, reordered and with their fields in another order, are the requests already filed', async () => {
    await emulator.control('/_emulator/reset', { method: 'POST' });
    const dir = tempDir();
    writeFileSync(join(dir, 'a.jsonl'), '{"subject_user_id":"u1","requested_at":"2026-11-27T10:00:00Z"}\n{"subject_user_id":"u2"}\n');
    writeFileSync(join(dir, 'b.jsonl'), '{"subject_user_id":"u2"}\n{"requested_at":"2026-11-27T10:00:00Z","subject_user_id":"u1"}\n{"subject_user_id":"u1","requested_at":"2026-11-28T10:00:00Z"}\n');
    const a = await runCsafe(['deletion-request', 'send', 'a.jsonl'], { env: emulator.env, cwd: dir });
    const b = await runCsafe(['deletion-request', 'send', 'b.jsonl'], { env: emulator.env, cwd: dir });
    assert.deepEqual([a.code, b.code], [0, 0], a.stderr + b.stderr);
    const idsOf = (stdout: string) => ndjson(stdout).map((filed) => filed.deletion_request_id);
    const [first, second] = [idsOf(a.stdout), idsOf(b.stdout)];
    assert.deepEqual([second[0], second[1]], [first[1], first[0]]);
    assert.ok(!first.includes(second[2]), 'another requested_at is another request');
    assert.equal((await heldErasures(emulator)).length, 3);
  });

  it('an invalid line: named, nothing sent, exit 2', async () => {
    await emulator.control('/_emulator/requests', { method: 'DELETE' });
    const dir = tempDir();
    writeFileSync(join(dir, 'erasures.jsonl'), '{"subject_user_id":"u1"}\n{"subject_user_id":"u2","requested_at":"yesterday"}\n');
    const result = await runCsafe(['deletion-request', 'send', 'erasures.jsonl'], { env: emulator.env, cwd: dir });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^erasures\.jsonl:2: requested_at: expected an ISO 8601 date-time/m);
    assert.deepEqual(await posts(emulator, '/v1/deletion_requests'), []);
  });
});
