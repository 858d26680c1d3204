import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { ended, outcome, spawnCsafe, tempDir, useEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

/** `stream parts --follow`, fed through a pipe by another program as it runs. */

const part = (n: number) => ({ type: 'chat_message', sender_id: `u${n % 7}`, sender_display_name: `viewer ${n % 7}`, text: `part ${n}`, timestamp: '2026-11-21T10:00:00Z' });
const partLine = (n: number) => JSON.stringify(part(n)) + '\n';
const partsText = (count: number, from = 0) => Array.from({ length: count }, (_, i) => partLine(from + i)).join('');
const numbers = (count: number, from = 0) => Array.from({ length: count }, (_, i) => from + i);

/** `node -e`: `count` parts on stdout, one every `everyMs`, then the end of its output. */
function trickleWriter(t: TestContext, count: number, everyMs: number): ChildProcess {
  const script = `
    const part = ${part.toString()};
    let n = 0;
    const next = () => { process.stdout.write(JSON.stringify(part(n)) + '\\n'); if (++n < ${count}) setTimeout(next, ${everyMs}); };
    next();`;
  const writer = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => writer.exitCode === null && writer.kill('SIGKILL'));
  return writer;
}

/** `csafe stream parts NS --id ID --follow …` as a child the test controls, killed when the test ends however it ends. */
function follow(t: TestContext, emulator: EmulatorProcess, namespace: string, args: readonly string[] = [], env: Record<string, string> = {}) {
  const child = spawnCsafe(['stream', 'parts', namespace, '--id', 'show-42', '--follow', ...args], { env: { ...emulator.env, ...env }, cwd: tempDir() });
  t.after(() => child.exitCode === null && child.kill('SIGKILL'));
  // The pipe may close under a write once csafe has exited (the test that stops it part-way).
  child.stdin.on('error', () => undefined);
  return child;
}

/** The text of each part the emulator stored for the stream, in arrival order. */
async function storedTexts(emulator: EmulatorProcess, namespace: string): Promise<string[]> {
  const stream = (await emulator.control(`/_emulator/streams/${namespace}/show-42`)) as { parts?: Array<{ text: string }> } | undefined;
  return stream?.parts?.map((stored) => stored.text) ?? [];
}

/** POST …/parts requests of the namespace in the emulator's log, with the fault each met. */
async function partsRequests(emulator: EmulatorProcess, namespace: string) {
  return (await emulator.requests()).filter((request) => request.method === 'POST' && request.path === `/v1/streams/${namespace}/parts`);
}

const texts = (ns: readonly number[]) => ns.map((n) => `part ${n}`);

/** Each test ends well within this, or fails rather than hangs. */
const LIMIT = { timeout: 20_000 };

describe('stream parts --follow', () => {
  const emulator = useEmulatorProcess();

  it('delivers 200 parts trickled over about 3 s exactly once, in order, in more than one request and fewer than 200', LIMIT, async (t) => {
    const child = follow(t, emulator, 'trickle');
    const done = ended(child);
    trickleWriter(t, 200, 15).stdout!.pipe(child.stdin);
    const { code, stdout, stderr } = await done;
    assert.equal(code, 0, stderr);
    assert.equal(stderr, '', 'nothing on stderr without a terminal');
    assert.equal(JSON.parse(stdout).sent, 200);
    assert.deepEqual(await storedTexts(emulator, 'trickle'), texts(numbers(200)));
    const requests = (await partsRequests(emulator, 'trickle')).length;
    assert.ok(requests > 1 && requests < 200, `${requests} requests`);
  });

  it('sends a trickle within the flush interval, before the input ends', LIMIT, async (t) => {
    const child = follow(t, emulator, 'prompt', ['--flush-interval', '200ms']);
    const done = ended(child);
    child.stdin.write(partsText(3));
    await waitFor(async () => (await storedTexts(emulator, 'prompt')).length === 3, { what: 'the three parts stored while the pipe is open' });
    child.stdin.end(partsText(2, 3));
    const { code, stderr } = await done;
    assert.equal(code, 0, stderr);
    assert.deepEqual(await storedTexts(emulator, 'prompt'), texts(numbers(5)));
  });

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`flushes what it holds on ${signal} and exits ${code}`, LIMIT, async (t) => {
      const namespace = `signal-${code}`;
      // 20 parts a batch and an interval of an hour: 40 go at once, the last 10 wait in the buffer.
      const child = follow(t, emulator, namespace, ['--batch-size', '20', '--flush-interval', '1h']);
      const done = ended(child);
      child.stdin.write(partsText(50));
      await waitFor(async () => (await storedTexts(emulator, namespace)).length === 40, { what: 'the two full batches' });
      child.kill(signal);
      const { code: exitCode, stderr } = await done;
      assert.equal(exitCode, code, stderr);
      assert.deepEqual(await storedTexts(emulator, namespace), texts(numbers(50)));
      assert.equal((await partsRequests(emulator, namespace)).length, 3);
    });
  }

  it('reads a FIFO to its end; refuses a regular file', LIMIT, async (t) => {
    const dir = tempDir();
    const fifo = join(dir, 'parts.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const source = join(dir, 'parts.jsonl');
    writeFileSync(source, partsText(20));
    const writer = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', source, fifo], { stdio: 'ignore' });
    t.after(() => writer.exitCode === null && writer.kill('SIGKILL'));
    const fromFifo = await outcome(spawnCsafe(['stream', 'parts', 'fifo', '--id', 'show-42', '--follow', fifo], { env: emulator.env, cwd: dir }));
    assert.equal(fromFifo.code, 0, fromFifo.stderr);
    assert.deepEqual(await storedTexts(emulator, 'fifo'), texts(numbers(20)));

    const fromFile = await outcome(spawnCsafe(['stream', 'parts', 'fifo', '--id', 'show-42', '--follow', source], { env: emulator.env, cwd: dir }));
    assert.equal(fromFile.code, 2);
    assert.match(fromFile.stderr, /^error: --follow reads a pipe \(stdin or a FIFO\), and .*parts\.jsonl is a regular file$/m);
  });

  it('refuses a flag it cannot follow with, naming it', LIMIT, async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--flush-interval', 'soon'], /^error: --flush-interval: expected a duration such as 30, 30s, 5m or 1h, got "soon"$/m],
      [['--max-buffer', '0'], /^error: --max-buffer: expected a whole number ≥ 1$/m],
      [['--transcript', 'hi'], /^error: --follow reads parts from a pipe; a part by flags cannot be followed$/m],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await outcome(spawnCsafe(['stream', 'parts', 'flags', '--id', 'show-42', '--follow', ...args], { env: emulator.env }), partsText(1));
      assert.equal(code, 2, stderr);
      assert.match(stderr, message);
    }
    assert.deepEqual(await partsRequests(emulator, 'flags'), []);
  });

  it('stops at an invalid line with exit 2 after sending the valid parts before it', LIMIT, async (t) => {
    const child = follow(t, emulator, 'invalid-stop');
    const done = ended(child);
    child.stdin.end(partsText(5) + JSON.stringify({ ...part(5), text: undefined }) + '\n' + partsText(3, 6));
    const { code, stderr } = await done;
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^stdin:6: text: is required: expected a non-empty string/m);
    assert.deepEqual(await storedTexts(emulator, 'invalid-stop'), texts(numbers(5)));
  });

  it('with --skip-invalid, sets an invalid line aside and keeps following (exit 5: partial)', LIMIT, async (t) => {
    const dir = tempDir();
    const invalidFile = join(dir, 'invalid.jsonl');
    const child = follow(t, emulator, 'invalid-skip', ['--skip-invalid', invalidFile]);
    const done = ended(child);
    child.stdin.end(partsText(5) + 'not json\n' + partsText(3, 6));
    const { code, stderr } = await done;
    assert.equal(code, 5, stderr);
    assert.match(stderr, /^stdin:6: /m);
    assert.deepEqual(await storedTexts(emulator, 'invalid-skip'), texts([...numbers(5), ...numbers(3, 6)]));
    const setAside = readFileSync(invalidFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(setAside.map((record) => [record.line, record.record]), [[6, 'not json']]);
  });

  it('stops reading when the key is refused, writes what it read to --failed and exits 3', LIMIT, async (t) => {
    const dir = tempDir();
    const failedFile = join(dir, 'failed.jsonl');
    const child = follow(t, emulator, 'refused', ['--batch-size', '10', '--failed', failedFile], { CSAFE_API_KEY: 'sk_test_not_the_key' });
    const done = ended(child);
    // The pipe stays open: the refusal, not the end of the input, ends the run.
    child.stdin.write(partsText(30));
    const { code, stderr } = await done;
    assert.equal(code, 3, stderr);
    assert.match(stderr, new RegExp(`^stopped: the service refused the credentials \\(401\\); what was not sent is in ${failedFile}$`, 'm'));
    const failed = readFileSync(failedFile, 'utf8');
    assert.equal(failed, partsText(30), 'every part read, in order, exactly as read');
    assert.deepEqual(await storedTexts(emulator, 'refused'), []);
  });

  it('on a terminal, keeps one status line on stderr', LIMIT, async (t) => {
    const child = follow(t, emulator, 'tty', [], { CSAFE_FORCE_TTY: '1' });
    const done = ended(child);
    child.stdin.end(partsText(20));
    const { code, stdout, stderr } = await done;
    assert.equal(code, 0, stderr);
    assert.match(stderr, /tty\/show-42: sent \d+ · buffered \d+ · failed 0/);
    assert.match(stdout, /sent\W+20\b/, 'the summary, as a table');
  });
});

describe('stream parts --follow against 429 and 503 at 30 %', () => {
  const emulator = useEmulatorProcess(['--fault-rate', '0.3', '--faults', '429,503']);

  it('still delivers 200 trickled parts exactly once and in order', LIMIT, async (t) => {
    // Retries enough that no batch runs out of them: each 429 or 503 is answered 'not processed'.
    const child = follow(t, emulator, 'faults', ['--max-retries', '10']);
    const done = ended(child);
    trickleWriter(t, 200, 15).stdout!.pipe(child.stdin);
    const { code, stderr } = await done;
    assert.equal(code, 0, stderr);
    assert.deepEqual(await storedTexts(emulator, 'faults'), texts(numbers(200)));
    const requests = await partsRequests(emulator, 'faults');
    assert.ok(requests.some((request) => request.fault !== null), 'some request met a fault');
  });
});

describe('stream parts --follow with failed batches', () => {
  const emulator = useEmulatorProcess(['--fault-rate', '0.5', '--faults', '503']);

  it('writes the exact parts of failed batches to --failed and exits 5', LIMIT, async (t) => {
    const dir = tempDir();
    const failedFile = join(dir, 'failed.jsonl');
    const child = spawnCsafe(['--max-retries', '0', 'stream', 'parts', 'failing', '--id', 'show-42', '--follow', '--batch-size', '10', '--failed', failedFile], { env: emulator.env, cwd: dir });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const { code, stderr } = await outcome(child, partsText(200));
    assert.equal(code, 5, stderr);
    const failed = readFileSync(failedFile, 'utf8').trim().split('\n');
    const stored = await storedTexts(emulator, 'failing');
    assert.ok(failed.length > 0 && stored.length > 0, `${failed.length} failed, ${stored.length} stored`);
    // Every part is either stored or in the failed file, once, exactly as it was read.
    const failedTexts = failed.map((line) => (JSON.parse(line) as { text: string }).text);
    assert.deepEqual([...stored, ...failedTexts].sort(), texts(numbers(200)).sort());
    for (const line of failed) assert.equal(line + '\n', partLine(Number(/part (\d+)/.exec(line)![1])));
  });
});

describe('stream parts --follow with a full buffer', () => {
  // Each request is answered after 300 ms: csafe reads far faster than it can send.
  const emulator = useEmulatorProcess(['--latency', '300']);

  it('pauses reading while --max-buffer parts wait, resumes as they are sent, and loses none', LIMIT, async (t) => {
    const child = follow(t, emulator, 'backpressure', ['--max-buffer', '50', '--batch-size', '50']);
    const done = ended(child);
    // About 300 kB: more than the pipe and csafe's read buffer hold together.
    const total = 3000;
    child.stdin.write(partsText(total));
    await waitFor(async () => (await partsRequests(emulator, 'backpressure')).length >= 2, { what: 'two requests answered' });
    assert.ok(child.stdin.writableLength > 0, 'csafe stopped reading: the test still holds bytes the pipe would not take');
    const heldBefore = child.stdin.writableLength;
    await waitFor(() => child.stdin.writableLength < heldBefore, { what: 'csafe to read on as batches are sent', timeoutMs: 15_000 });
    child.kill('SIGINT');
    const { code, stderr } = await done;
    assert.equal(code, 130, stderr);
    const stored = await storedTexts(emulator, 'backpressure');
    assert.ok(stored.length > 100 && stored.length < total, `${stored.length} stored`);
    assert.deepEqual(stored, texts(numbers(stored.length)), 'what was read arrived once, in order, with no gap');
  });
});

describe('stream parts --follow, a second Ctrl-C while it sends what it held', () => {
  // Each request is answered after a second: the second Ctrl-C comes while parts still wait.
  const emulator = useEmulatorProcess(['--latency', '1000']);

  it('leaves at once, the parts still held in the failed file in order, the batch in flight in the unconfirmed file: none lost', LIMIT, async (t) => {
    const dir = tempDir();
    const [failedFile, unconfirmedFile] = [join(dir, 'failed.jsonl'), join(dir, 'unconfirmed.jsonl')];
    const child = follow(t, emulator, 'twice', ['--batch-size', '10', '--failed', failedFile, '--unconfirmed', unconfirmedFile]);
    const done = ended(child);
    const total = 100;
    child.stdin.write(partsText(total));
    await waitFor(async () => (await partsRequests(emulator, 'twice')).length >= 1, { what: 'the first batch answered' });
    child.kill('SIGINT');
    // A second signal within 0.25 s is taken for the first, delivered twice.
    await new Promise((resolve) => setTimeout(resolve, 400));
    child.kill('SIGINT');
    const { code, stderr } = await done;
    assert.equal(code, 130, stderr);
    const textsIn = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { text: string }).text) : []);
    const [failed, unconfirmed] = [textsIn(failedFile), textsIn(unconfirmedFile)];
    assert.ok(failed.length > 0, stderr);
    assert.match(stderr, new RegExp(`^left at once: ${failed.length} parts not sent written to ${failedFile}$`, 'm'));
    // The batch in flight, unless the signal came between an answer and the next request.
    assert.ok(unconfirmed.length === 0 || unconfirmed.length === 10, `${unconfirmed.length} unconfirmed`);
    if (unconfirmed.length > 0) assert.match(stderr, new RegExp(`^left at once: 10 parts in flight written to ${unconfirmedFile} \\(their answer was not waited for: the service may hold them\\)$`, 'm'));
    // The service finishes a request in flight whether or not csafe waits: then every part is stored or in the failed file, once.
    await waitFor(async () => (await storedTexts(emulator, 'twice')).length + failed.length === total, { what: 'the request in flight answered' });
    const stored = await storedTexts(emulator, 'twice');
    assert.deepEqual([...stored, ...failed], texts(numbers(total)), 'what was stored, then the failed file, is the input in order');
    if (unconfirmed.length > 0) assert.deepEqual(unconfirmed, stored.slice(-10), 'the unconfirmed parts are the last batch the service took');
  });
});

describe('stream parts --follow when answers are lost', () => {
  const emulator = useEmulatorProcess(['--fault-rate', '0.5', '--faults', 'reset,503', '--seed', '5']);

  it('writes batches the service may have applied to --unconfirmed, the others to --failed, and counts both', LIMIT, async (t) => {
    const dir = tempDir();
    const [failedFile, unconfirmedFile] = [join(dir, 'failed.jsonl'), join(dir, 'unconfirmed.jsonl')];
    const args = ['--max-retries', '0', 'stream', 'parts', 'lost', '--id', 'show-42', '--follow', '--batch-size', '10', '--failed', failedFile, '--unconfirmed', unconfirmedFile];
    const child = spawnCsafe(args, { env: { ...emulator.env, CSAFE_FORCE_TTY: '1' }, cwd: dir });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    let status = '';
    child.stderr.on('data', (chunk: Buffer) => void (status += chunk.toString()));
    const done = ended(child);
    child.stdin.write(partsText(100));
    // The status line counts both kinds, redrawn while the pipe is still open.
    const counts = /sent (\d+) · buffered 0 · failed (\d+) · unconfirmed (\d+)/g;
    const final = () => [...status.matchAll(counts)].at(-1)?.slice(1).map(Number) ?? [0, 0, 0];
    await waitFor(() => final().reduce((sum, count) => sum + count) === 100, { what: 'a status line with every part sent, failed or unconfirmed' });
    child.stdin.end();
    const { code, stderr } = await done;
    assert.equal(code, 5, stderr);
    const textsIn = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { text: string }).text);
    const [failed, unconfirmed, stored] = [textsIn(failedFile), textsIn(unconfirmedFile), await storedTexts(emulator, 'lost')];
    assert.ok(failed.length > 0 && unconfirmed.length > 0, `${failed.length} failed, ${unconfirmed.length} unconfirmed`);
    assert.equal(new Set(stored).size, stored.length, 'no part stored twice');
    // A reset comes after the service took the batch: unconfirmed parts are stored; failed ones (503) are not.
    assert.deepEqual([...stored, ...failed].sort(), texts(numbers(100)).sort());
    for (const text of unconfirmed) assert.ok(stored.includes(text) && !failed.includes(text), text);
    assert.deepEqual(final().slice(1), [failed.length, unconfirmed.length]);
  });
});
