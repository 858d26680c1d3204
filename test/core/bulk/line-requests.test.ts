import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lineSpool, lineWithAnswer, sendEachLine, type LineRequestOptions, type LineRequests, type LineRequestsContext } from '../../../src/core/bulk/line-requests.js';
import { apiErrorFor, ConnectionError, InterruptedError, TerminatedError, UsageError } from '../../../src/core/errors.js';
import type { HttpClient } from '../../../src/core/http/client.js';
import { DryRunEnded, DryRunPlan } from '../../../src/core/http/dry-run.js';
import { keyInShard } from '../../../src/core/bulk/shard.js';
import { tempDir } from '../../helpers/cli.js';
import { bufferIO } from '../../helpers/io.js';

// The pipeline of the commands that send each line of a JSONL file as a request of its own
// (classify --batch, agent-decision send, deletion-request send), without HTTP: the command's
// `send` answers as a service would, or fails with the error the HTTP core gives after its retries.

interface Probe {
  text: string;
}
type Verdict = { verdict: string; text?: string };

/** What the service does with a line's request: answer it, or fail with this error. */
type Service = (request: Probe) => Verdict | Error;

const accepting: Service = (request) => ({ verdict: `seen ${request.text}` });
const refused = (status: number) => apiErrorFor({ status, method: 'POST', path: '/v1/probe', serviceMessage: `answered ${status}` });
/** A reset after the request was sent: the service may have applied it. */
const lostAnswer = () => new ConnectionError('socket hang up', true);

function setUp(lines: string[], options: { replaySafe?: boolean; service?: Service; onStdin?: boolean; tally?: boolean } = {}) {
  const dir = tempDir();
  const text = lines.map((line) => `${line}\n`).join('');
  const input = options.onStdin ? '-' : join(dir, 'in.jsonl');
  if (!options.onStdin) writeFileSync(input, text);
  const { io, stdout, stderr } = bufferIO(options.onStdin ? { stdin: { text } } : {});
  const controller = new AbortController();
  const sent: string[] = [];
  const answered: string[] = [];
  const http = { baseUrl: 'http://service.test', retries: 0 } as unknown as HttpClient;
  const ctx: LineRequestsContext = {
    io,
    signal: controller.signal,
    argv: ['probe', input],
    now: () => Date.UTC(2026, 10, 28),
    sleep: async () => undefined,
    http: async () => http,
    outputFormat: async (shape) => {
      assert.equal(shape, 'stream', 'a line a result, as they come');
      return 'ndjson';
    },
  };
  let service = options.service ?? accepting;
  let onCheck = (_value: unknown): void => undefined;
  const job: LineRequests<Probe, Verdict, Record<string, unknown>, Record<string, unknown>> = {
    command: 'probe',
    checkpointWhat: 'a csafe probe checkpoint',
    check: (value) => {
      onCheck(value);
      const text = (value as { text?: unknown } | null)?.text;
      return typeof text === 'string' ? { request: { text } } : { problem: 'text: expected a string' };
    },
    send: async (given, request) => {
      assert.equal(given, http, 'the client the context gives');
      sent.push(request.text);
      await new Promise((resolve) => setImmediate(resolve));
      const answer = service(request);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    replaySafe: options.replaySafe ?? true,
    printed: (line, request, answer) => lineWithAnswer({ line, text: request.text }, answer),
    view: { rows: (printed) => [printed], columns: [{ header: 'LINE', value: (row) => String(row.line) }] },
    ...(options.tally !== false && { answered: (answer: Verdict) => void answered.push(answer.verdict) }),
    spinner: { start: 'probing', progress: (counts) => `${counts.sent} probed` },
    summary: (counts) => `probed ${counts.sent} lines`,
    resendCommand: (input) => `probe ${input}`,
  };
  const file = (name: string) => join(dir, name);
  const linesOf = (name: string) => (existsSync(file(name)) ? readFileSync(file(name), 'utf8').trim().split('\n').filter(Boolean) : []);
  const printed = () => stdout().trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  const run = (more: Partial<LineRequestOptions> = {}) => sendEachLine(ctx, input, { concurrency: 2, maxConsecutiveFailures: 5, failed: file('failed.jsonl'), unconfirmed: file('unconfirmed.jsonl'), ...more }, job);
  return {
    run,
    job,
    ctx,
    input,
    file,
    linesOf,
    printed,
    stderr,
    sent,
    answered,
    controller,
    answerWith: (next: Service) => void (service = next),
    whenChecked: (next: (value: unknown) => void) => void (onCheck = next),
  };
}

const texts = (...words: string[]) => words.map((text) => JSON.stringify({ text }));

describe('sendEachLine', () => {
  it('sends a request a line and prints each answer in input order, with the line and what was sent, and counts every line', async () => {
    const probe = setUp(texts('a', 'b', 'c'));
    const result = await probe.run();
    assert.ok(result.kind === 'sent', result.kind);
    assert.equal(result.skipped, 0);
    assert.equal(result.stoppedBy, undefined);
    assert.deepEqual({ read: result.counts.read, valid: result.counts.valid, invalid: result.counts.invalid, sent: result.counts.sent, failed: result.counts.failed }, { read: 3, valid: 3, invalid: 0, sent: 3, failed: 0 });
    assert.deepEqual(probe.printed(), [
      { line: 1, text: 'a', verdict: 'seen a' },
      { line: 2, text: 'b', verdict: 'seen b' },
      { line: 3, text: 'c', verdict: 'seen c' },
    ]);
    assert.deepEqual(probe.answered.sort(), ['seen a', 'seen b', 'seen c']);
    assert.equal(probe.stderr(), 'probed 3 lines\n');
  });

  it('an invalid line: named with its problem, and nothing is sent, not even the valid lines before it', async () => {
    const probe = setUp([...texts('a'), '{"text":7}', ...texts('c')]);
    assert.deepEqual(await probe.run(), { kind: 'checked', invalid: 1 });
    assert.deepEqual(probe.sent, []);
    assert.equal(probe.stderr(), `${probe.input}:2: text: expected a string\nnothing was sent: fix the 1 invalid line, or pass --skip-invalid FILE to send the rest\n`);
  });

  it('a line that is not JSON is invalid too, with the reader\'s own words', async () => {
    const probe = setUp([...texts('a'), '{"text":']);
    assert.deepEqual(await probe.run(), { kind: 'checked', invalid: 1 });
    assert.match(probe.stderr(), new RegExp(`^${probe.input}:2:`));
  });

  it('--skip-invalid: the valid lines are sent, each invalid one is set aside in the file as read, and counted', async () => {
    const probe = setUp([...texts('a'), '{"text":7}', ...texts('c'), 'not json']);
    const result = await probe.run({ skipInvalid: probe.file('skipped.jsonl') });
    assert.ok(result.kind === 'sent');
    assert.equal(result.skipped, 2);
    assert.deepEqual({ read: result.counts.read, valid: result.counts.valid, invalid: result.counts.invalid, sent: result.counts.sent }, { read: 4, valid: 2, invalid: 2, sent: 2 });
    assert.deepEqual(probe.sent, ['a', 'c']);
    assert.deepEqual(
      probe.linesOf('skipped.jsonl').map((line) => JSON.parse(line) as unknown),
      [
        { line: 2, error: 'text: expected a string', record: '{"text":7}' },
        { line: 4, error: "invalid JSON at column 2: Unexpected token 'o'", record: 'not json' },
      ],
    );
    assert.match(probe.stderr(), /probed 2 lines; 2 invalid lines written to .*skipped\.jsonl\n$/);
  });

  it('--from-line: the lines before it are neither checked nor sent', async () => {
    const probe = setUp(['{"text":7}', ...texts('b', 'c')]);
    const result = await probe.run({ fromLine: 2 });
    assert.ok(result.kind === 'sent');
    assert.equal(result.counts.read, 2);
    assert.deepEqual(probe.sent, ['b', 'c']);
    assert.deepEqual(probe.printed().map((line) => line.line), [2, 3]);
  });

  it('a line the service refuses goes to the failed file as read, the rest are sent, and the summary and hint say where it is', async () => {
    const probe = setUp(texts('a', 'b', 'c'), { service: (request) => (request.text === 'b' ? refused(422) : accepting(request)) });
    const result = await probe.run();
    assert.ok(result.kind === 'sent');
    assert.equal(result.counts.failed, 1);
    assert.equal(result.stoppedBy, undefined);
    assert.deepEqual(probe.linesOf('failed.jsonl'), ['{"text":"b"}']);
    assert.deepEqual(probe.printed().map((line) => line.line), [1, 3]);
    const failed = probe.file('failed.jsonl');
    assert.ok(probe.stderr().includes(`probed 2 lines; 1 failed, written to ${failed}\n`), probe.stderr());
    assert.ok(probe.stderr().endsWith(`hint: resend them with \`csafe probe ${failed}\`\n`), probe.stderr());
  });

  it('a refused key stops the run: nothing more is sent, every line not answered is in the failed file, and why is said', async () => {
    const probe = setUp(texts('a', 'b', 'c', 'd', 'e', 'f'), { service: (request) => (request.text === 'b' ? refused(401) : accepting(request)) });
    const result = await probe.run({ concurrency: 1 });
    assert.ok(result.kind === 'sent');
    assert.equal(result.stoppedBy?.constructor.name, refused(401).constructor.name);
    assert.deepEqual(probe.sent, ['a', 'b']);
    assert.deepEqual(probe.linesOf('failed.jsonl'), texts('b', 'c', 'd', 'e', 'f'));
    const failed = probe.file('failed.jsonl');
    assert.equal(
      probe.stderr(),
      `probed 1 lines; 5 failed, written to ${failed}\nstopped: the service refused the credentials (401); what was not sent is in ${failed}\nhint: resend them with \`csafe probe ${failed}\`\n`,
    );
  });

  it('a lost answer of a line that may not be sent twice goes to the unconfirmed file, with a warning, not to the failed one', async () => {
    const probe = setUp(texts('a', 'b'), { replaySafe: false, service: (request) => (request.text === 'a' ? lostAnswer() : accepting(request)) });
    const result = await probe.run();
    assert.ok(result.kind === 'sent');
    assert.equal(result.counts.unconfirmed, 1);
    assert.deepEqual(probe.linesOf('unconfirmed.jsonl'), texts('a'));
    assert.deepEqual(probe.linesOf('failed.jsonl'), []);
    assert.match(probe.stderr(), /in\.jsonl:1: may have been stored, its answer was lost: socket hang up/);
    assert.ok(probe.stderr().includes(`; 1 unconfirmed, written to ${probe.file('unconfirmed.jsonl')}: the service may have recorded them, so check before sending them again`), probe.stderr());
  });

  it('a lost answer of a line the service applies once is failed, safe to resend', async () => {
    const probe = setUp(texts('a', 'b'), { replaySafe: true, service: (request) => (request.text === 'a' ? lostAnswer() : accepting(request)) });
    const result = await probe.run();
    assert.ok(result.kind === 'sent');
    assert.deepEqual(probe.linesOf('failed.jsonl'), texts('a'));
    assert.deepEqual(probe.linesOf('unconfirmed.jsonl'), []);
  });

  describe('--checkpoint', () => {
    it('the same command again sends only the lines not answered, and says how many it skipped', async () => {
      const probe = setUp(texts('a', 'b', 'c'), { service: (request) => (request.text === 'b' ? refused(422) : accepting(request)) });
      const checkpoint = probe.file('state.json');
      await probe.run({ checkpoint, concurrency: 1 });
      assert.ok(probe.stderr().endsWith('hint: run the same command again to send them (the file is the record of what failed)\n'), probe.stderr());
      probe.answerWith(accepting);
      probe.sent.length = 0;
      const again = await probe.run({ checkpoint });
      assert.ok(again.kind === 'sent');
      assert.deepEqual(probe.sent, ['b']);
      assert.equal(again.counts.skipped_checkpoint, 2);
      assert.ok(probe.stderr().includes('probed 1 lines; 2 lines skipped by checkpoint\n'), probe.stderr());
    });

    it("another command's checkpoint of the same input is refused, naming the command it was written for; nothing is sent", async () => {
      const probe = setUp(texts('a', 'b'));
      const checkpoint = probe.file('state.json');
      await probe.run({ checkpoint });
      probe.job.command = 'other';
      probe.sent.length = 0;
      await assert.rejects(probe.run({ checkpoint }), (error: unknown) => error instanceof UsageError && error.message === `${checkpoint} was written for command probe, not other`);
      assert.deepEqual(probe.sent, []);
    });

    it('a line in the unconfirmed file is dealt with: the next run does not send it again', async () => {
      const probe = setUp(texts('a', 'b'), { replaySafe: false, service: (request) => (request.text === 'a' ? lostAnswer() : accepting(request)) });
      const checkpoint = probe.file('state.json');
      await probe.run({ checkpoint });
      probe.answerWith(accepting);
      probe.sent.length = 0;
      const again = await probe.run({ checkpoint });
      assert.ok(again.kind === 'sent');
      assert.deepEqual(probe.sent, []);
      assert.equal(again.counts.skipped_checkpoint, 2);
    });

    it('a dry run skips what the checkpoint covers and plans the rest, and never writes the checkpoint', async () => {
      const probe = setUp(texts('a', 'b', 'c'), { service: (request) => (request.text === 'b' ? refused(422) : accepting(request)) });
      const checkpoint = probe.file('state.json');
      await probe.run({ checkpoint, concurrency: 1 });
      const written = readFileSync(checkpoint, 'utf8');
      const plan = new DryRunPlan();
      probe.ctx.dryRun = plan;
      probe.answerWith(() => plan.stop({ method: 'POST', url: 'http://service.test/v1/probe', headers: {} }));
      probe.sent.length = 0;
      await assert.rejects(probe.run({ checkpoint }), (error: unknown) => error instanceof DryRunEnded);
      assert.deepEqual(probe.sent, ['b'], 'the first request planned is the first line not answered');
      assert.deepEqual({ requests: plan.requestCount, records: plan.toJSON().records, count: plan.toJSON().record_count }, { requests: 1, records: 'lines', count: 1 });
      assert.equal(readFileSync(checkpoint, 'utf8'), written);
    });

    it('a dry run with --skip-invalid reports every invalid line and sets none aside: nothing is written', async () => {
      const probe = setUp([...texts('a'), '{"text":7}']);
      probe.ctx.dryRun = new DryRunPlan();
      assert.deepEqual(await probe.run({ skipInvalid: probe.file('skipped.jsonl') }), { kind: 'checked', invalid: 1 });
      assert.equal(existsSync(probe.file('skipped.jsonl')), false);
      assert.ok(probe.stderr().endsWith('nothing was sent: fix the 1 invalid line (a dry run reports every one, with --skip-invalid or without)\n'), probe.stderr());
    });
  });

  describe('interrupted', () => {
    it('Ctrl-C: the lines in flight are answered, then the run says what it did and the command that starts at the first line not done', async () => {
      const probe = setUp(texts('a', 'b', 'c', 'd'));
      probe.answerWith((request) => {
        if (request.text === 'b') probe.controller.abort('SIGINT');
        return accepting(request);
      });
      await assert.rejects(probe.run({ concurrency: 1 }), (error: unknown) => error instanceof InterruptedError && !(error instanceof TerminatedError));
      assert.deepEqual(probe.sent, ['a', 'b']);
      assert.deepEqual(probe.printed().map((line) => line.line), [1, 2]);
      const failed = probe.file('failed.jsonl');
      const lines = probe.stderr().split('\n');
      assert.ok(lines.includes('interrupted: 2 lines sent in 2 requests, 0 failed; line 3 on not done'), probe.stderr());
      assert.ok(lines.includes(`continue with: csafe probe ${probe.input} --from-line 3 --failed ${failed}`), probe.stderr());
      assert.ok(!probe.stderr().includes('hint:'), 'a file given by name needs no hint');
    });

    it('a line that may not be sent twice keeps its unconfirmed file in the command that continues', async () => {
      const probe = setUp(texts('a', 'b', 'c'), { replaySafe: false });
      probe.answerWith((request) => {
        if (request.text === 'a') probe.controller.abort('SIGTERM');
        return accepting(request);
      });
      await assert.rejects(probe.run({ concurrency: 1 }), (error: unknown) => error instanceof TerminatedError);
      assert.ok(probe.stderr().split('\n').includes(`continue with: csafe probe ${probe.input} --from-line 2 --failed ${probe.file('failed.jsonl')} --unconfirmed ${probe.file('unconfirmed.jsonl')}`), probe.stderr());
    });

    it('from stdin: the command that continues says to give it the same input', async () => {
      const probe = setUp(texts('a', 'b'), { onStdin: true });
      probe.answerWith((request) => {
        probe.controller.abort('SIGINT');
        return accepting(request);
      });
      await assert.rejects(probe.run({ concurrency: 1 }), (error: unknown) => error instanceof InterruptedError);
      const lines = probe.stderr().split('\n');
      assert.ok(lines.includes(`continue with: csafe probe - --from-line 2 --failed ${probe.file('failed.jsonl')}`), probe.stderr());
      assert.ok(lines.includes('hint: give it the same input on stdin: the lines before 2 are skipped'), probe.stderr());
    });

    it('with --checkpoint: the same command line continues it, and says to append its output', async () => {
      const probe = setUp(texts('a', 'b', 'c'));
      probe.answerWith((request) => {
        if (request.text === 'a') probe.controller.abort('SIGINT');
        return accepting(request);
      });
      await assert.rejects(probe.run({ concurrency: 1, checkpoint: probe.file('state.json') }), (error: unknown) => error instanceof InterruptedError);
      const lines = probe.stderr().split('\n');
      assert.ok(lines.includes(`continue with: csafe probe ${probe.input}`), probe.stderr());
      assert.ok(lines.includes("hint: it skips the lines already answered: append its output (>>) to this run's"), probe.stderr());
    });
  });

  it('reads one JSON value a line: a value written over several lines is refused line by line, never read whole', async () => {
    const probe = setUp(['{', '"text": "a"', '}']);
    assert.deepEqual(await probe.run(), { kind: 'checked', invalid: 3 });
    assert.deepEqual(probe.sent, []);
  });

  it('a command that keeps no tally of its answers runs the same', async () => {
    const probe = setUp(texts('a', 'b'), { tally: false });
    const result = await probe.run();
    assert.ok(result.kind === 'sent');
    assert.equal(result.counts.sent, 2);
  });

  it('--shard i/n: a worker sends the lines of its shard, by line number, and counts the rest as other shards\'', async () => {
    const words = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const shard = { index: 1, count: 2 };
    const mine = words.filter((_, index) => keyInShard(`line:${index + 1}`, shard));
    assert.ok(mine.length > 0 && mine.length < words.length, 'both shards have lines');
    const probe = setUp(texts(...words));
    const result = await probe.run({ shard, concurrency: 1 });
    assert.ok(result.kind === 'sent');
    assert.deepEqual(probe.sent, mine);
    assert.equal(result.counts.other_shards, words.length - mine.length);
    const others = words.length - mine.length;
    assert.ok(probe.stderr().startsWith(`probed ${mine.length} lines; ${others} ${others === 1 ? 'line' : 'lines'} of other shards (--shard 1/2)`), probe.stderr());
  });

  it('Ctrl-C during the check before sending (it stops keeping the checked lines): nothing is sent, the run says so and the same command, and ends as interrupted', async () => {
    const probe = setUp(texts('a', 'b', 'c'));
    probe.whenChecked((value) => {
      if ((value as Probe).text === 'b') probe.controller.abort('SIGINT');
    });
    await assert.rejects(probe.run(), (error: unknown) => error instanceof InterruptedError);
    assert.deepEqual(probe.sent, []);
    assert.deepEqual(probe.printed(), [], 'no line was answered');
    assert.equal(probe.stderr(), `interrupted: 0 lines sent in 0 requests, 0 failed; it was still reading the input\ncontinue with: csafe probe ${probe.input}\n`);
  });

  it('Ctrl-C during the check of stdin from --from-line: the same command, given the same input', async () => {
    const probe = setUp(texts('a', 'b', 'c'), { onStdin: true });
    probe.ctx.argv = ['probe', '-', '--from-line', '2'];
    probe.whenChecked((value) => {
      if ((value as Probe).text === 'c') probe.controller.abort('SIGINT');
    });
    await assert.rejects(probe.run({ fromLine: 2 }), (error: unknown) => error instanceof InterruptedError);
    assert.deepEqual(probe.sent, []);
    assert.ok(probe.stderr().endsWith('continue with: csafe probe - --from-line 2\nhint: give it the same input on stdin: the lines before 2 are skipped\n'), probe.stderr());
  });

  it('from stdin with --checkpoint: the input is kept to be fingerprinted, and the same input again sends only what is left', async () => {
    const first = setUp(texts('a', 'b', 'c'), { onStdin: true, service: (request) => (request.text === 'c' ? refused(422) : accepting(request)) });
    const checkpoint = first.file('state.json');
    await first.run({ checkpoint, concurrency: 1 });
    const again = setUp(texts('a', 'b', 'c'), { onStdin: true });
    const result = await again.run({ checkpoint, concurrency: 1 });
    assert.ok(result.kind === 'sent');
    assert.deepEqual(again.sent, ['c']);
    assert.equal(result.counts.skipped_checkpoint, 2);
  });

  it('lineWithAnswer: the line\'s fields, then the answer\'s that the line does not name', () => {
    assert.deepEqual(lineWithAnswer({ line: 3, text: 'mine' }, { text: 'theirs', verdict: 'ok' }), { line: 3, text: 'mine', verdict: 'ok' });
    assert.deepEqual(Object.keys(lineWithAnswer({ line: 1 }, { a: 1, b: 2 })), ['line', 'a', 'b']);
  });
});

describe('a line request as the spool weighs it', () => {
  const weightOf = (json: string) => lineSpool<unknown>().weight({ line: 1, json, request: JSON.parse(json) });

  it('a line of many small values weighs what it holds parsed, some 64 bytes a value, not its short text', () => {
    // 1,000 empty objects: 3 kB of text, some 64 kB parsed (measured with --expose-gc).
    const json = `{"a":[${Array(1000).fill('{}').join(',')}]}`;
    assert.ok(weightOf(json) >= 20 * json.length, `weighs ${weightOf(json)} for ${json.length} characters`);
  });

  it('a line of long text weighs about its text twice (the line, and the request parsed from it)', () => {
    const json = JSON.stringify({ text: 'x'.repeat(3000), user_id: 'u1' });
    assert.ok(weightOf(json) >= 2 * json.length && weightOf(json) <= 2.1 * json.length, `weighs ${weightOf(json)} for ${json.length} characters`);
  });
});
