import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ended, EXAMPLES, spawnCsafe, tempDir, useEmulatorProcess, withDeadline } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
// What a command reads when its FILE is left out is main()'s answer to its arguments and stdin: in this process.
import { runInProcess } from '../helpers/in-process.js';

const example = (name: string) => readFileSync(join(EXAMPLES, name), 'utf8');
const EVENT = JSON.stringify({ type: 'create_account', event_name: 'signed_up', timestamp: '2026-08-11T09:30:00Z', user_id: 'u1' }) + '\n';

describe('every command that reads a file reads stdin when the file is left out', () => {
  const emulator = useEmulatorProcess();
  const commands: Array<{ args: string[]; input: string; done: RegExp }> = [
    { args: ['events', 'send'], input: EVENT, done: /"sent": 1/ },
    { args: ['data', 'add', 'listings'], input: '{"id":"a","title":"bike"}\n', done: /"objects":1/ },
    { args: ['data', 'import', 'listings'], input: '{"id":"a","title":"bike"}\n', done: /"request_id"/ },
    { args: ['import', 'create'], input: example('records.jsonl'), done: /"import_id"/ },
    { args: ['batch', 'create', '--type', 'text'], input: example('reviews.csv'), done: /"batch_id"/ },
    { args: ['settings', 'put', 'listings'], input: '{"photo":{"content_type":"image_url"}}', done: /"namespace": "listings"/ },
  ];

  it('csafe classify < text classifies stdin when no file or --text is named; at a terminal it says there is nothing to classify', async () => {
    const piped = await runInProcess(['classify', '--user-id', 'u1', '--json'], { env: emulator.env, input: 'I will kill you' });
    assert.equal(piped.code, 0, piped.stderr);
    assert.ok((JSON.parse(piped.stdout) as { labels: Array<{ decision: string }> }).labels.some((label) => label.decision === 'match'));
    const typed = await runInProcess(['classify', '--user-id', 'u1'], { env: emulator.env, stdinIsTTY: true });
    assert.equal(typed.code, 2);
    assert.match(typed.stderr, /^error: nothing to classify: give files/);
  });

  for (const { args, input, done } of commands) {
    it(`csafe ${args.join(' ')} < input, as with -`, async () => {
      const result = await runInProcess(args, { env: emulator.env, input });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, done);
    });

    it(`csafe ${args.join(' ')} with a terminal on stdin says the input is missing (exit 2), and waits for no typing`, async () => {
      const result = await runInProcess(args, { env: emulator.env, stdinIsTTY: true });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^error: no (input|schema): give a FILE/);
      assert.equal(result.stdout, '');
    });
  }
});

describe('a line read from a pipe that stays open is sent at once, not when the next line comes', () => {
  const emulator = useEmulatorProcess();

  // --skip-invalid: lines are sent as they are read, not once the whole input is checked.
  it('classify --batch - --skip-invalid: the first line is answered while the pipe is still open, before a second line is written', async (t) => {
    const child = spawnCsafe(['classify', '--batch', '-', '--skip-invalid', 'invalid.jsonl', '--user-id', 'u1', '-o', 'ndjson'], { env: emulator.env, cwd: tempDir() });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const exited = ended(child);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stdin.write('{"text":"first line"}\n');
    await waitFor(async () => out.includes('\n'), { what: 'the answer to the first line, the pipe still open' });
    child.stdin.end('{"text":"second line"}\n');
    const result = await withDeadline(exited, 10_000, 'csafe to end once its stdin ended');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(out.trim().split('\n').length, 2, out);
  });

  it('a run a failure stops ends with its error while the pipe it reads is still open, not when the pipe gives another line', async (t) => {
    // The invalid second line cannot be set aside: /dev/full refuses every write.
    const child = spawnCsafe(['classify', '--batch', '-', '--skip-invalid', '/dev/full', '--user-id', 'u1', '-o', 'ndjson'], { env: emulator.env, cwd: tempDir() });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const exited = ended(child);
    child.stdin.on('error', () => undefined);
    child.stdin.write('{"text":"first line"}\n{"nope":1}\n');
    const result = await withDeadline(exited, 10_000, 'csafe to end on its error, its stdin still open');
    child.stdin.destroy();
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^error: \/dev\/full: could not write/m);
  });

  // A failure the answer brings, not the reading: the read of the next line is then under way.
  for (const { args, path, line } of [
    { args: ['classify', '--batch', '-', '--user-id', 'u1'], path: '/v1/content', line: '{"text":"first line"}\n' },
    { args: ['events', 'send', '-', '--batch-size', '1'], path: '/v1/async/events', line: EVENT },
  ]) {
    it(`${args.slice(0, 2).join(' ')}: a failed file that cannot be written stops the run at once, the pipe it reads still open`, async (t) => {
      await emulator.control('/_emulator/faults', { method: 'POST', body: { faults: [{ kind: '503', path, times: 1 }] } });
      t.after(() => emulator.control('/_emulator/faults', { method: 'POST', body: { faults: [] } }));
      const child = spawnCsafe(['--max-retries', '0', ...args, '--skip-invalid', 'invalid.jsonl', '--failed', '/dev/full'], { env: emulator.env, cwd: tempDir() });
      t.after(() => child.exitCode === null && child.kill('SIGKILL'));
      const exited = ended(child);
      child.stdin.on('error', () => undefined);
      child.stdin.write(line);
      const result = await withDeadline(exited, 10_000, 'csafe to end on its error, its stdin still open');
      child.stdin.destroy();
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /^error: \/dev\/full: could not write/m);
    });
  }
});

describe('a batch that is not full, read from a pipe that stays open, goes once its oldest record has waited --flush-interval', () => {
  const emulator = useEmulatorProcess();
  const OBJECT = (id: string) => JSON.stringify({ id, title: `listing ${id}` }) + '\n';

  // --skip-invalid: records are sent as they are read; without it the whole input is checked first.
  // What --json says was sent: data add prints each accepted request (2 objects, then 1), events send its summary.
  for (const { args, path, record, sent, expected } of [
    { args: ['data', 'add', 'trickle', '-'], path: '/v1/data/trickle', record: OBJECT, sent: (json: unknown) => (json as { objects: number }[]).map((request) => request.objects), expected: [2, 1] },
    { args: ['events', 'send', '-'], path: '/v1/async/events', record: () => EVENT, sent: (json: unknown) => (json as { sent: number }).sent, expected: 3 },
  ]) {
    it(`${args.slice(0, 2).join(' ')}: two records of a batch of 100 are sent while the pipe is still open; the one after them goes at its end`, async (t) => {
      await emulator.control('/_emulator/requests', { method: 'DELETE' });
      const posted = async () => (await emulator.requests()).filter((request) => request.method === 'POST' && request.path === path).length;
      const child = spawnCsafe([...args, '--skip-invalid', 'invalid.jsonl', '--flush-interval', '100ms', '--json'], { env: emulator.env, cwd: tempDir() });
      t.after(() => child.exitCode === null && child.kill('SIGKILL'));
      const exited = ended(child);
      child.stdin.write(record('a') + record('b'));
      await waitFor(async () => (await posted()) === 1, { what: 'the first two records sent, the pipe still open' });
      child.stdin.end(record('c'));
      const result = await withDeadline(exited, 10_000, 'csafe to end once its stdin ended');
      assert.equal(result.code, 0, result.stderr);
      assert.equal(await posted(), 2);
      assert.deepEqual(sent(JSON.parse(result.stdout)), expected, result.stdout);
    });
  }
});

describe('a run that halts while it reads a pipe that stays open stops reading it, and ends', () => {
  const emulator = useEmulatorProcess();
  const OBJECT = JSON.stringify({ id: 'a', title: 'listing a' }) + '\n';

  // A key refused (401) halts the run; a pipe that stays open (`tail -f log |`) read on would send
  // every later line to the failed file, and the run would never end.
  for (const { args, path, record, noun } of [
    { args: ['data', 'add', 'halting', '-', '--flush-interval', '50ms'], path: '/v1/data/halting', record: OBJECT, noun: 'record' },
    { args: ['events', 'send', '-', '--flush-interval', '50ms'], path: '/v1/async/events', record: EVENT, noun: 'event' },
    { args: ['classify', '--batch', '-', '--user-id', 'u1'], path: '/v1/content', record: '{"text":"hello"}\n', noun: 'line' },
  ]) {
    it(`${args.slice(0, 2).join(' ')} --skip-invalid: a refused key ends the run (exit 3), the pipe still open; what was read is in the failed file`, async (t) => {
      await emulator.control('/_emulator/faults', { method: 'DELETE' });
      await emulator.control('/_emulator/faults', { method: 'POST', body: { faults: [{ kind: '401', path, times: 100 }] } });
      t.after(() => emulator.control('/_emulator/faults', { method: 'DELETE' }));
      const cwd = tempDir();
      const child = spawnCsafe([...args, '--skip-invalid', 'invalid.jsonl', '--failed', 'failed.jsonl'], { env: emulator.env, cwd });
      t.after(() => child.exitCode === null && child.kill('SIGKILL'));
      const exited = ended(child);
      child.stdin.write(record);
      const result = await withDeadline(exited, 10_000, 'csafe to end once the run halted, its stdin still open');
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, new RegExp(`^stopped: the service refused the credentials \\(401\\); what was not sent is in failed\\.jsonl; reading stopped after 1 ${noun}: what followed in the input was not read, and is in no file$`, 'm'));
      assert.equal(readFileSync(join(cwd, 'failed.jsonl'), 'utf8').trim().split('\n').length, 1);
    });
  }
});
