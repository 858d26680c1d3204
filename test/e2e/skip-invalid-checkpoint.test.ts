import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { runCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { eventsText } from '../helpers/events.js';

// --skip-invalid with --checkpoint on every bulk command: a record set aside is dealt with, as an
// acknowledged one is, so the same command line run again (a cron job's) neither reports nor
// appends it again, and ends by what that run did.

const jsonl = (...values: unknown[]) => values.map((value) => JSON.stringify(value)).join('\n') + '\n';
const PART = { type: 'transcript', text: 'welcome back', timestamp: '2026-11-21T10:00:01Z' };
const VERDICT = { content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: 'listing-2' };
const ERASURE = { subject_user_id: 'u42', requested_at: '2026-11-27T10:00:00Z' };

interface Row {
  command: string;
  /** The input, one of whose records is invalid. */
  input: string;
  /** Everything after `csafe` but the input file and the two flags under test. */
  args: (input: string) => string[];
  /** The first run's code: 5 with a valid record sent, 2 when every record is invalid. */
  first: number;
  /**
   * An invalid record to append to a JSON Lines input: the run again sets it aside alone, and ends
   * 5 when the earlier run delivered records, 2 when the input never held a valid one.
   */
  newInvalid?: unknown;
}

const rows: Row[] = [
  { command: 'data add', input: jsonl({ id: 'a', text: 'x' }, { nope: 1 }, { id: 'b', text: 'y' }), args: (input) => ['data', 'add', 'listings', input], first: 5, newInvalid: { nope: 2 } },
  { command: 'events send', input: eventsText(1, 1) + jsonl({ type: 'content_uploaded', user_id: 'u2' }), args: (input) => ['events', 'send', input], first: 5, newInvalid: { type: 'content_uploaded', user_id: 'u3' } },
  { command: 'events send, every record invalid', input: jsonl({ type: 'content_uploaded', user_id: 'u' }, { type: 'content_uploaded', user_id: 'u2' }), args: (input) => ['events', 'send', input], first: 2, newInvalid: { type: 'content_uploaded', user_id: 'u3' } },
  { command: 'data add, every record invalid', input: jsonl({ nope: 1 }), args: (input) => ['data', 'add', 'listings', input], first: 2, newInvalid: { nope: 2 } },
  { command: 'classify --batch, every line invalid', input: jsonl({ content_id: 'nothing to classify' }), args: (input) => ['classify', '--batch', input, '--user-id', 'u1'], first: 2, newInvalid: { content_id: 'still nothing' } },
  { command: 'stream parts FILE, every part invalid', input: jsonl({ type: 'transcript' }), args: (input) => ['stream', 'parts', 'live', '--id', 's3', input], first: 2, newInvalid: { type: 'chat' } },
  { command: 'classify --batch', input: jsonl({ text: 'hello' }, { content_id: 'nothing to classify' }), args: (input) => ['classify', '--batch', input, '--user-id', 'u1'], first: 5, newInvalid: { content_id: 'still nothing' } },
  { command: 'stream parts FILE', input: jsonl(PART, { type: 'transcript' }), args: (input) => ['stream', 'parts', 'live', '--id', 's1', input], first: 5, newInvalid: { type: 'chat' } },
  {
    command: 'stream parts --captions',
    input: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello\n\n00:01:00:00.000 --> 00:00:05.000\na bad timing\n',
    args: (input) => ['stream', 'parts', 'live', '--id', 's2', '--captions', input, '--start', '2026-11-21T10:00:00Z'],
    first: 5,
  },
  { command: 'agent-decision send', input: jsonl(VERDICT, { ...VERDICT, decision: '' }), args: (input) => ['agent-decision', 'send', input], first: 5, newInvalid: { ...VERDICT, policy_id: '' } },
  { command: 'deletion-request send', input: jsonl(ERASURE, { requested_at: '2026-11-27T10:00:00Z' }), args: (input) => ['deletion-request', 'send', input], first: 5, newInvalid: { requested_at: '2026-11-28T10:00:00Z' } },
];

const lines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);

describe('--skip-invalid with --checkpoint: a record set aside is dealt with', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);
  const dir = tempDir();
  const run = (args: string[]) => runCsafe(args, { env: emulator.env, cwd: dir });
  const posts = async () => (await emulator.requests()).filter((request) => request.method === 'POST').length;
  beforeEach(() => emulator.control('/_emulator/reset', { method: 'POST' }));

  for (const [index, row] of rows.entries()) {
    it(`${row.command}: the same command line again sends nothing, reports and appends no invalid record, and ends 0`, async () => {
      const input = join(dir, `input-${index}.${row.command.includes('captions') ? 'vtt' : 'jsonl'}`);
      writeFileSync(input, row.input);
      const skipped = join(dir, `skipped-${index}.jsonl`);
      const args = [...row.args(input), '--skip-invalid', skipped, '--checkpoint', join(dir, `state-${index}.json`), '--json'];
      const first = await run(args);
      assert.equal(first.code, row.first, first.stderr);
      const setAside = lines(skipped);
      assert.ok(setAside.length > 0, 'the first run set the invalid records aside');
      assert.match(first.stderr, new RegExp(`^${input}:\\d+: `, 'm'), 'the first run reports them');
      const sent = await posts();

      const again = await run(args);
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(lines(skipped), setAside, 'nothing appended');
      assert.doesNotMatch(again.stderr, new RegExp(`${input}:\\d+`), 'nothing reported');
      assert.doesNotMatch(again.stderr, /invalid (record|line)s? written/);
      assert.equal(await posts(), sent, 'nothing sent');
    });
  }

  for (const [index, row] of rows.entries()) {
    if (row.newInvalid === undefined) continue;
    const code = row.first === 2 ? 2 : 5;
    it(`${row.command}: run again with one invalid record appended and the rest done, it sets aside that one alone and ends ${code} (records an earlier run delivered count, those it set aside do not)`, async () => {
      const input = join(dir, `grown-${index}.jsonl`);
      writeFileSync(input, row.input);
      const skipped = join(dir, `grown-skipped-${index}.jsonl`);
      const args = [...row.args(input), '--skip-invalid', skipped, '--checkpoint', join(dir, `grown-state-${index}.json`), '--json'];
      assert.equal((await run(args)).code, row.first);
      const setAside = lines(skipped).length;
      const sent = await posts();
      writeFileSync(input, row.input + jsonl(row.newInvalid));
      const again = await run(args);
      assert.equal(again.code, code, again.stderr);
      assert.equal(lines(skipped).length, setAside + 1, 'the new invalid record alone is appended');
      assert.equal(await posts(), sent, 'nothing sent');
    });
  }

  it('--shard: a record without its key, set aside by every worker, is set aside once by each; each worker run again ends 0', async () => {
    const input = join(dir, 'sharded.jsonl');
    writeFileSync(input, jsonl(...Array.from({ length: 6 }, (_, i) => ({ id: `obj_${i}`, text: 'x' })), { text: 'no id' }));
    const worker = (i: number) =>
      run(['data', 'add', 'listings', input, '--shard', `${i}/2`, '--skip-invalid', join(dir, `sharded-skipped-${i}.jsonl`), '--checkpoint', join(dir, `sharded-state-${i}.json`)]);
    for (const i of [0, 1]) assert.equal((await worker(i)).code, 5);
    for (const i of [0, 1]) {
      const again = await worker(i);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(lines(join(dir, `sharded-skipped-${i}.jsonl`)).length, 1, `worker ${i} set it aside once`);
    }
  });

  it('a record that is newly invalid (the input grew) is still set aside, and the run says so', async () => {
    const input = join(dir, 'growing.jsonl');
    const skipped = join(dir, 'growing-skipped.jsonl');
    const args = ['data', 'add', 'listings', input, '--skip-invalid', skipped, '--checkpoint', join(dir, 'growing-state.json')];
    writeFileSync(input, jsonl({ id: 'a', text: 'x' }, { nope: 1 }));
    assert.equal((await run(args)).code, 5);
    writeFileSync(input, jsonl({ id: 'a', text: 'x' }, { nope: 1 }, { id: 'b', text: 'y' }, { nope: 2 }));
    const grown = await run(args);
    assert.equal(grown.code, 5, grown.stderr);
    assert.match(grown.stderr, new RegExp(`^${input}:4: `, 'm'));
    assert.doesNotMatch(grown.stderr, new RegExp(`${input}:2`));
    assert.deepEqual(lines(skipped).map((line) => (JSON.parse(line) as { line: number }).line), [2, 4]);
  });
});
