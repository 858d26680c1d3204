import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { BIN, ended, EXAMPLES, exitOf, hasScript, outcome, spawnCsafe, tempDir, useEmulatorProcess, withDeadline, type EmulatorProcess } from '../helpers/cli.js';
import { eventsText } from '../helpers/events.js';
import { waitFor } from '../helpers/wait.js';

const pick = (record: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, record[key]]));
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

/** What shows that csafe is reading its stdin: the stderr so far, and the TMPDIR it was given. */
type Reading = (seen: { stderr: string; tmp: string }) => boolean;
/** An invalid line is named as soon as it is checked. */
const named = (line: number): Reading => ({ stderr }) => stderr.includes(`stdin:${line}:`);
/** The copy of stdin, kept to be read twice (with --checkpoint), holds what was written. */
const copied: Reading = ({ tmp }) => readdirSync(tmp).some((dir) => dir.startsWith('csafe-spool-') && existsSync(join(tmp, dir, 'input')) && statSync(join(tmp, dir, 'input')).size > 0);

/**
 * csafe `args` given `input` on a stdin its writer keeps open, sent `signal` once `reading` shows
 * it reads it (nothing ends the input, so what follows is what a signal during the read does).
 */
async function signalledWhileReading(t: TestContext, args: string[], env: NodeJS.ProcessEnv, input: string, reading: Reading, signal: NodeJS.Signals = 'SIGTERM') {
  const tmp = tempDir();
  const child = spawnCsafe(args, { env: { ...env, TMPDIR: tmp } });
  t.after(() => child.exitCode === null && child.kill('SIGKILL'));
  const exited = ended(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.write(input);
  await waitFor(() => reading({ stderr, tmp }), { what: 'csafe to read its stdin' });
  child.kill(signal);
  const result = await withDeadline(exited, 10_000, 'csafe to exit with its stdin still open');
  child.stdin.end();
  return result;
}

describe('Ctrl-C', () => {
  // Every /v1 request is logged on arrival, then its answer is held for a minute.
  const emulator = useEmulatorProcess(['--fault-rate', '1', '--faults', 'timeout', '--fault-delay', '60000']);

  it('stops a request in flight and exits 130, without waiting for the answer', async (t) => {
    const child = spawnCsafe(['--max-retries', '0', '--request-timeout', '5m', 'classify', '--text', 'hi', '--user-id', 'u1'], { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const ended = outcome(child);
    let exited = false;
    void ended.then(() => (exited = true));
    await waitFor(async () => (await emulator.requests()).some((r) => r.method === 'POST' && r.path === '/v1/content'), { what: 'the classify request to reach the emulator' });
    assert.equal(exited, false, 'the request is in flight');
    child.kill('SIGINT');
    // The emulator holds its answer for 60 s: ending well before that means csafe did not wait for it.
    await waitFor(() => exited, { what: 'csafe to exit after Ctrl-C', timeoutMs: 20_000 });
    const { code, stderr } = await ended;
    assert.equal(code, 130, stderr);
    assert.match(stderr, /interrupted/);
  });

  it('events send: SIGTERM waits for the answer to the batch in flight, saying so; a second SIGTERM leaves at once (143)', async (t) => {
    const input = join(tempDir(), 'events.jsonl');
    writeFileSync(input, eventsText(1, 1));
    const child = spawnCsafe(['--max-retries', '0', '--request-timeout', '5m', 'events', 'send', input], { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const ended = outcome(child);
    let exited = false;
    void ended.then(() => (exited = true));
    await waitFor(async () => (await emulator.requests()).some((r) => r.method === 'POST' && r.path === '/v1/async/events'), { what: 'the batch to reach the emulator' });
    child.kill('SIGTERM');
    await waitFor(() => stderr.includes('interrupted: waiting for the answers to 1 request in flight'), { what: 'csafe to say it waits for the batch in flight' });
    assert.equal(exited, false, 'the answer is awaited');
    // Past the window in which a repeat is taken for the same signal delivered twice (bin/csafe).
    await sleep(400);
    child.kill('SIGTERM');
    // The emulator holds its answer for 60 s: ending well before that means the second signal did not wait for it.
    await waitFor(() => exited, { what: 'csafe to exit after the second SIGTERM', timeoutMs: 20_000 });
    assert.equal((await ended).code, 143, stderr);
  });
});

describe('SIGTERM while reading stdin', () => {
  const emulator = useEmulatorProcess();

  it('a pipe a slow producer keeps open: exits 143 at once, not when the producer closes it', async (t) => {
    // --skip-invalid sends objects as they are read: the first one reaching the emulator shows csafe is reading stdin.
    const child = spawnCsafe(['data', 'add', 'ns', '-', '--skip-invalid', join(tempDir(), 'invalid.jsonl'), '--batch-size', '1'], { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const exited = ended(child);
    // Two lines: after one alone, the input could still be a single JSON object. And stdin stays open.
    child.stdin.write('{"id":"a"}\n{"id":"b"}\n');
    await waitFor(async () => (await emulator.requests()).some((r) => r.method === 'POST' && r.path === '/v1/data/ns'), { what: 'the first object to reach the emulator' });
    child.kill('SIGTERM');
    const { code, stderr } = await withDeadline(exited, 10_000, 'csafe to exit with its stdin still open');
    child.stdin.end();
    assert.equal(code, 143, stderr);
  });

  // README: events send and stream parts print their record on stdout in a pipe also when cut short, so `| jq .sent` gets one.
  const partLine = (i: number) => JSON.stringify({ type: 'chat_message', sender_id: 'u7', sender_display_name: 'Ann', text: `hello ${i}`, timestamp: '2026-11-21T10:00:00Z' });
  const bulk = [
    { command: ['events', 'send', '-'], noun: 'events', records: eventsText(3, 3) },
    { command: ['stream', 'parts', 'live', '--id', 'show-1', '-'], noun: 'parts', records: `${[1, 2, 3].map(partLine).join('\n')}\n` },
  ];
  for (const { command, noun, records } of bulk) {
    it(`${command.slice(0, 2).join(' ')}: cut short while it still checks a pipe, prints its record on stdout`, async (t) => {
      const result = await signalledWhileReading(t, command, emulator.env, `{"type":"nope"}\n${records}`, named(1));
      assert.equal(result.code, 143, result.stderr);
      assert.deepEqual(pick(JSON.parse(result.stdout), ['read', 'invalid', 'sent']), { read: 4, invalid: 1, sent: 0 });
      assert.match(result.stderr, new RegExp(`interrupted: 0 ${noun} sent in 0 requests, 0 failed; it was still reading the input`));
    });

    it(`${command.slice(0, 2).join(' ')} --checkpoint: cut short while it copies a pipe, prints its record on stdout`, async (t) => {
      const result = await signalledWhileReading(t, [...command, '--checkpoint', join(tempDir(), 'state.json')], emulator.env, records, copied);
      assert.equal(result.code, 143, result.stderr);
      assert.deepEqual(pick(JSON.parse(result.stdout), ['read', 'sent']), { read: 0, sent: 0 });
      assert.match(result.stderr, /continue with: csafe .* --checkpoint /);
    });
  }
});

describe('events send cut short while it still checks stdin', () => {
  const emulator = useEmulatorProcess();

  it('--no-auto-idempotency: nothing was sent, so the hint asks for the same input, not that it would store events twice', async (t) => {
    const result = await signalledWhileReading(t, ['events', 'send', '-', '--no-auto-idempotency'], emulator.env, `{"type":"nope"}\n${eventsText(3, 3)}`, named(1));
    assert.equal(result.code, 143, result.stderr);
    const said = result.stderr.split('\n');
    assert.ok(said.includes('interrupted: 0 events sent in 0 requests, 0 failed; it was still reading the input'), result.stderr);
    assert.ok(said.includes('continue with: csafe events send - --no-auto-idempotency'), result.stderr);
    assert.ok(said.includes('hint: give it the same input on stdin'), result.stderr);
    assert.doesNotMatch(result.stderr, /a second time|sends every event again/);
  });
});

describe('SIGTERM while a bulk command whose stdout holds its results still reads stdin', () => {
  const emulator = useEmulatorProcess();
  const read = (path: string) => readFileSync(join(EXAMPLES, path), 'utf8');
  // README: every bulk command cut short says what it did and the command that continues; these print no summary record, only their results (none).
  const runs = [
    { command: ['data', 'add', 'ns', '-'], noun: 'objects', invalid: '{"id":1}', records: '{"id":"a"}\n{"id":"b"}\n' },
    { command: ['classify', '--batch', '-'], noun: 'lines', invalid: '{"text":7,"user_id":"u1"}', records: '{"text":"hi","user_id":"u1"}\n' },
    { command: ['agent-decision', 'send', '-'], noun: 'lines', invalid: '{"decision":"nope"}', records: read('agent-decisions.jsonl') },
    { command: ['deletion-request', 'send', '-'], noun: 'lines', invalid: '{"subject_user_id":7}', records: read('deletion-requests.jsonl') },
  ];
  for (const { command, noun, invalid, records } of runs) {
    const name = command.slice(0, 2).join(' ');
    it(`${name}: cut short while it still checks a pipe, says what it did and the same command, and prints no record`, async (t) => {
      const before = (await emulator.requests()).length;
      const result = await signalledWhileReading(t, command, emulator.env, `${invalid}\n${records}`, named(1));
      assert.equal(result.code, 143, result.stderr);
      assert.equal(result.stdout, '');
      const said = result.stderr.split('\n');
      assert.ok(said.includes(`interrupted: 0 ${noun} sent in 0 requests, 0 failed; it was still reading the input`), result.stderr);
      assert.ok(said.includes(`continue with: csafe ${command.join(' ')}`), result.stderr);
      assert.ok(said.includes('hint: give it the same input on stdin'), result.stderr);
      assert.equal((await emulator.requests()).length, before, 'nothing was sent');
    });

    it(`${name} --checkpoint: cut short while it copies a pipe, says what it did and the same command`, async (t) => {
      const state = join(tempDir(), 'state.json');
      const result = await signalledWhileReading(t, [...command, '--checkpoint', state], emulator.env, records, copied);
      assert.equal(result.code, 143, result.stderr);
      assert.equal(result.stdout, '');
      const said = result.stderr.split('\n');
      assert.ok(said.includes(`interrupted: 0 ${noun} sent in 0 requests, 0 failed; it was still reading the input`), result.stderr);
      assert.ok(said.includes(`continue with: csafe ${[...command, '--checkpoint', state].join(' ')}`), result.stderr);
      assert.equal(existsSync(state), false, 'no checkpoint is written before the first request');
    });
  }

  it('classify --batch --from-line: cut short while it still checks a pipe, the command continues from the same line', async (t) => {
    const command = ['classify', '--batch', '-', '--from-line', '2'];
    // Line 1 comes before --from-line, so it is not checked: line 2 is the first one named.
    const input = '{"text":"hi","user_id":"u1"}\n{"text":7,"user_id":"u1"}\n{"text":"yo","user_id":"u1"}\n';
    const result = await signalledWhileReading(t, command, emulator.env, input, named(2), 'SIGINT');
    assert.equal(result.code, 130, result.stderr);
    const said = result.stderr.split('\n');
    assert.ok(said.includes('interrupted: 0 lines sent in 0 requests, 0 failed; it was still reading the input'), result.stderr);
    assert.ok(said.includes('continue with: csafe classify --batch - --from-line 2'), result.stderr);
    assert.ok(said.includes('hint: give it the same input on stdin: the lines before 2 are skipped'), result.stderr);
  });
});

describe('events send cut short without --checkpoint', () => {
  // Each answer comes late: the run is still sending when the signal comes.
  const emulator = useEmulatorProcess(['--latency', '300']);
  const runs = [
    { flags: [], says: /each keeps its idempotency_key, so the service ingests it once/ },
    // The events carry no idempotency_key and are given none: each one sent again is stored again.
    // (Checked as they are sent, with --skip-invalid: without it the events not sent go to the failed file, which the command printed sends.)
    { flags: ['--no-auto-idempotency', '--skip-invalid', 'invalid.jsonl'], says: /the service stores those without an idempotency_key a second time/ },
  ];
  for (const { flags, says } of runs) {
    it(`${flags.length > 0 ? flags.join(' ') : 'keys added'}: the hint says what the same command again stores`, async (t) => {
      const dir = tempDir();
      const input = join(dir, 'events.jsonl');
      writeFileSync(input, eventsText(30, 30));
      const before = (await emulator.requests()).length;
      const child = spawnCsafe(['events', 'send', input, '--batch-size', '1', '--concurrency', '1', ...flags], { env: emulator.env, cwd: dir });
      t.after(() => child.exitCode === null && child.kill('SIGKILL'));
      const result = outcome(child);
      await waitFor(async () => (await emulator.requests()).length - before >= 2, { what: 'two batches to reach the emulator' });
      child.kill('SIGINT');
      const { code, stderr } = await result;
      assert.equal(code, 130, stderr);
      assert.match(stderr, says);
      if (flags.length > 0) assert.doesNotMatch(stderr, /so the service ingests it once/);
    });
  }
});

describe('stream parts --skip-invalid reading a pipe, cut short', () => {
  const emulator = useEmulatorProcess();
  const part = (i: number) => JSON.stringify({ type: 'chat_message', sender_id: 'u7', sender_display_name: 'Ann', text: `hello ${i}`, timestamp: '2026-11-21T10:00:00Z' });

  it('says that what followed in the pipe was not read and is in no file, not that none is left to send', async (t) => {
    const child = spawnCsafe(['stream', 'parts', 'live', '--id', 'piped', '-', '--skip-invalid', join(tempDir(), 'invalid.jsonl'), '--batch-size', '2'], { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const exited = ended(child);
    // A batch's worth, sent as read; the pipe's writer keeps it open, more to come.
    child.stdin.write(`${part(1)}\n${part(2)}\n`);
    await waitFor(async () => (await emulator.requests()).some((request) => request.method === 'POST' && String(request.path).endsWith('/parts')), { what: 'the first batch to reach the emulator' });
    child.kill('SIGINT');
    const result = await withDeadline(exited, 10_000, 'csafe to exit with its stdin still open');
    child.stdin.end();
    assert.equal(result.code, 130, result.stderr);
    assert.ok(result.stderr.split('\n').includes('interrupted: 2 parts sent in 1 request, 0 failed; reading stopped after 2 parts: what followed in the input was not read, and is in no file'), result.stderr);
    assert.doesNotMatch(result.stderr, /none is left to send/);
  });
});

describe('events send --skip-invalid reading a pipe, cut short', () => {
  const emulator = useEmulatorProcess();

  it('says, in the words of stream parts, that what followed in the pipe was not read and is in no file, and does not offer to send it all again', async (t) => {
    const dir = tempDir();
    const child = spawnCsafe(['events', 'send', '-', '--no-auto-idempotency', '--skip-invalid', 'invalid.jsonl', '--batch-size', '1', '--concurrency', '1'], { env: emulator.env, cwd: dir });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const exited = ended(child);
    const before = (await emulator.requests()).length;
    // Sent as read; the pipe's writer keeps it open, more to come.
    child.stdin.write(eventsText(2, 2));
    await waitFor(async () => (await emulator.requests()).length - before >= 2, { what: 'both events to reach the emulator' });
    child.kill('SIGTERM');
    const result = await withDeadline(exited, 10_000, 'csafe to exit with its stdin still open');
    child.stdin.end();
    assert.equal(result.code, 143, result.stderr);
    const said = result.stderr.split('\n');
    assert.ok(said.includes('interrupted: 2 events sent in 2 requests, 0 failed; reading stopped after 2 events: what followed in the input was not read, and is in no file'), result.stderr);
    assert.ok(said.includes('hint: with --no-auto-idempotency the service stores an event without an idempotency_key each time it is sent: give it on stdin only the events this run did not deliver, what it did not read included; add --checkpoint FILE to continue where a run stopped'), result.stderr);
    assert.doesNotMatch(result.stderr, /it sends every event again/);
  });
});

describe('events send and data add --skip-invalid reading a pipe: Ctrl-C while a batch is in flight and more were read', () => {
  const emulator = useEmulatorProcess();
  const runs = [
    { command: ['events', 'send', '-', '--no-auto-idempotency'], input: eventsText(5, 5), stored: async () => ((await emulator.control('/_emulator/events')) as { events: unknown[] }).events.length },
    { command: ['data', 'add', 'ns', '-'], input: Array.from({ length: 5 }, (_, i) => `{"id":"o${i}"}\n`).join(''), stored: async () => ((await emulator.control('/_emulator/data/ns')) as { objects: unknown[] }).objects.length },
  ];

  for (const { command, input, stored } of runs) {
    it(`${command.slice(0, 2).join(' ')}: the records read and not sent are in the failed file, so the counts add up and none is lost`, async (t) => {
      await emulator.control('/_emulator/reset', { method: 'POST' });
      // Two records a batch, one at a time: the first batch is held, the other three records read wait their turn.
      const args = [...command, '--skip-invalid', 'invalid.jsonl', '--failed', 'failed.jsonl', '--batch-size', '2', '--concurrency', '1', '--json'];
      const { result, linesOf } = await interruptedWithFirstRequestHeld(t, emulator, args, input, 'once');
      assert.equal(result.code, 130, result.stderr);
      assert.equal(await stored(), 2, 'the first batch stored');
      assert.deepEqual(linesOf('failed.jsonl'), lines(input).slice(2), 'the records read and not sent, in the failed file');
      assert.match(result.stderr, /^interrupted: 2 \w+ sent in 1 request, 3 failed \(in failed\.jsonl\)[^\n]*reading stopped after 5 /m);
      if (command[0] === 'events') {
        const summary = JSON.parse(result.stdout) as Record<string, number>;
        assert.deepEqual(pick(summary, ['read', 'valid', 'sent', 'failed', 'unconfirmed']), { read: 5, valid: 5, sent: 2, failed: 3, unconfirmed: 0 });
      }
    });
  }
});

/**
 * csafe `args` in a directory of its own, given `input` on a stdin its writer keeps open, its first
 * request held by the emulator, then Ctrl-C: `once`, the held request then answered, so the run
 * waits for it and ends; `twice`, the second 0.5 s later, which leaves at once with it still held.
 * How it left, and the lines of a file it wrote there (none when it wrote none).
 */
async function interruptedWithFirstRequestHeld(t: TestContext, emulator: EmulatorProcess, args: string[], input: string, ctrlC: 'once' | 'twice') {
  const dir = tempDir();
  await emulator.control('/_emulator/quirks', { method: 'POST', body: { held_requests: 1 } });
  const child = spawnCsafe(args, { env: emulator.env, cwd: dir });
  t.after(() => child.exitCode === null && child.kill('SIGKILL'));
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const exited = ended(child);
  // The pipe's writer keeps it open: more may come.
  child.stdin.write(input);
  try {
    await waitFor(async () => ((await emulator.control('/_emulator/in_flight')) as { held: number }).held === 1, { what: 'the first batch held' });
    child.kill('SIGINT');
    await waitFor(() => said.includes('interrupted: waiting'), { what: 'csafe to take the Ctrl-C' });
    if (ctrlC === 'twice') {
      // A second signal counts once 0.25 s have passed since the first.
      await sleep(500);
      child.kill('SIGINT');
      await withDeadline(exited, 10_000, 'csafe to leave at once, its stdin still open');
    }
  } finally {
    await emulator.control('/_emulator/release', { method: 'POST' });
  }
  const result = await withDeadline(exited, 10_000, 'csafe to exit with its stdin still open');
  child.stdin.end();
  const linesOf = (name: string) => (existsSync(join(dir, name)) ? lines(readFileSync(join(dir, name), 'utf8')) : []);
  return { result, linesOf };
}

describe('events send --no-auto-idempotency --skip-invalid reading a pipe, left at once by a second Ctrl-C', () => {
  const emulator = useEmulatorProcess();

  it('the events read and waiting their turn are in the failed file, those in flight in the unconfirmed one: none of those read is lost', async (t) => {
    const input = eventsText(5, 5);
    const args = ['events', 'send', '-', '--no-auto-idempotency', '--skip-invalid', 'invalid.jsonl', '--failed', 'failed.jsonl', '--unconfirmed', 'unconfirmed.jsonl', '--batch-size', '2', '--concurrency', '1'];
    const { result, linesOf } = await interruptedWithFirstRequestHeld(t, emulator, args, input, 'twice');
    assert.equal(result.code, 130, result.stderr);
    assert.deepEqual(linesOf('unconfirmed.jsonl'), lines(input).slice(0, 2), 'the batch in flight');
    assert.deepEqual(linesOf('failed.jsonl'), lines(input).slice(2), 'the events read and not sent');
    assert.ok(result.stderr.split('\n').includes('interrupted: 0 events sent in 0 requests, 3 failed (in failed.jsonl), 2 unconfirmed; reading stopped after 5 events: what followed in the input was not read, and is in no file'), result.stderr);
    assert.match(result.stderr, /^no one command continues this run: the same command would send again the 2 events without an idempotency key now in the unconfirmed file/m);
  });
});

describe('data add --skip-invalid reading a pipe, left at once by a second Ctrl-C', () => {
  const emulator = useEmulatorProcess();

  it('the objects read and not yet in a batch sent are in the failed file with those in flight: none of those read is lost', async (t) => {
    const input = Array.from({ length: 5 }, (_, i) => `{"id":"o${i}"}\n`).join('');
    const args = ['data', 'add', 'ns', '-', '--skip-invalid', 'invalid.jsonl', '--failed', 'failed.jsonl', '--batch-size', '2', '--concurrency', '1'];
    const { result, linesOf } = await interruptedWithFirstRequestHeld(t, emulator, args, input, 'twice');
    assert.equal(result.code, 130, result.stderr);
    assert.deepEqual(linesOf('failed.jsonl'), lines(input), 'the batch in flight (safe to send again) and the objects read after it');
    assert.match(result.stderr, /^interrupted: 0 objects sent in 0 requests, 5 failed \(in failed\.jsonl\)[^\n]*; reading stopped after 5 records: /m);
  });
});

describe('a second Ctrl-C on a terminal, --json held behind the spinner', { skip: !hasScript && 'no script(1)' }, () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);

  it('data add --json: the requests accepted so far are printed, one closed JSON array, as a pipe has them', async (t) => {
    const dir = tempDir();
    const input = join(dir, 'objects.jsonl');
    writeFileSync(input, Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: `obj_${i}`, text: `listing ${i}` })).join('\n') + '\n');
    // The third batch's answer is held past both Ctrl-Cs: two requests are accepted before them.
    await emulator.control('/_emulator/faults', { method: 'POST', body: { faults: [{ kind: 'timeout', method: 'POST', path: '/v1/data/:namespace', skip: 2, times: 1, delay_ms: 5000 }] } });
    const line = ['env', ...Object.entries(emulator.env).map(([name, value]) => `${name}=${value}`), BIN, '--request-timeout', '1m', 'data', 'add', 'listings', input, '--json', '--batch-size', '10', '--concurrency', '1'].map((word) => `'${word}'`).join(' ');
    const { NO_COLOR: _n, FORCE_COLOR: _f, CI: _c, ...inherited } = process.env;
    // exec: csafe alone is the terminal's foreground process, which a Ctrl-C typed into it reaches.
    const child = spawn('script', ['-qec', `stty cols 80; exec ${line}`, '/dev/null'], { env: { ...inherited, TERM: 'xterm-256color' } });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    let shown = '';
    child.stdout.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
    const exited = exitOf(child);
    await waitFor(async () => (await emulator.requests()).filter((request) => request.method === 'POST').length === 3, { what: 'the third batch to reach the emulator' });
    child.stdin.write('\u0003');
    // A second signal counts once 0.25 s have passed since the first.
    await sleep(500);
    child.stdin.write('\u0003');
    await exited;
    child.stdin.end();
    // The terminal shows stdout and stderr as one: the array begins after the spinner's last frame, on its line.
    const text = shown.replace(/\u001b\[[\d;?]*[A-Za-z]/g, '').replaceAll('\r\n', '\n');
    const array = /^\[\n[\s\S]*?\n\]$/m.exec(text.replace(/^.*?(?=\[$)/gm, ''))?.[0];
    assert.ok(array !== undefined, `a JSON array on the terminal:\n${text}`);
    const accepted = JSON.parse(array) as Array<{ request_id: string; objects: number }>;
    assert.deepEqual(accepted.map((request) => request.objects), [10, 10], 'the two requests accepted before the Ctrl-Cs');
  });
});

describe('data add and the line commands --skip-invalid reading a pipe, cut short', () => {
  const emulator = useEmulatorProcess();
  const first = (path: string) => readFileSync(join(EXAMPLES, path), 'utf8').split('\n')[0]!;
  const unread = 'what followed in the input was not read, and is in no file';
  // A valid record, then an invalid one: once it is named, both were read, and the pipe's writer keeps it open, more to come.
  const notJson = 'not json';

  it('data add: says that what followed in the pipe was not read and is in no file, and asks for the whole input again', async (t) => {
    const failed = join(tempDir(), 'failed.jsonl');
    const result = await signalledWhileReading(t, ['data', 'add', 'ns', '-', '--skip-invalid', join(tempDir(), 'invalid.jsonl'), '--failed', failed, '--batch-size', '1'], emulator.env, `{"id":"a"}\n${notJson}\n`, named(2));
    assert.equal(result.code, 143, result.stderr);
    // The valid record read is sent, or, when the signal came first, in the failed file.
    const done = `(1 object sent in 1 request, 0 failed|0 objects sent in 0 requests, 1 failed \\(in ${failed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\))`;
    assert.match(result.stderr, new RegExp(`^interrupted: ${done}; the accepted requests are printed; reading stopped after 2 records: ${unread}$`, 'm'));
    assert.ok(result.stderr.split('\n').includes('hint: without --checkpoint it sends every object it is given again: give it the whole input again on stdin, what this run did not read included; add --checkpoint FILE to continue where a run stopped'), result.stderr);
  });

  const runs = [
    { command: ['classify', '--batch', '-'], records: '{"text":"hi","user_id":"u1"}' },
    { command: ['agent-decision', 'send', '-'], records: first('agent-decisions.jsonl') },
    { command: ['deletion-request', 'send', '-'], records: first('deletion-requests.jsonl') },
  ];
  for (const { command, records } of runs) {
    it(`${command.slice(0, 2).join(' ')}: says that what followed in the pipe was not read, and that --from-line needs the whole input again`, async (t) => {
      const result = await signalledWhileReading(t, [...command, '--skip-invalid', join(tempDir(), 'invalid.jsonl'), '--failed', join(tempDir(), 'failed.jsonl')], emulator.env, `${records}\n${notJson}\n`, named(2));
      assert.equal(result.code, 143, result.stderr);
      assert.match(result.stderr, new RegExp(`^interrupted: \\d+ lines? sent in \\d+ requests?, 0 failed; line \\d on not done; reading stopped after 2 lines: ${unread}$`, 'm'));
      assert.match(result.stderr, /^continue with: csafe .* --from-line \d /m);
      assert.match(result.stderr, /^hint: give it the whole input again on stdin, what this run did not read included(: the lines before 2 are skipped)?$/m);
    });
  }

  it('classify --batch --from-line: counts the lines read from the first, those before --from-line too', async (t) => {
    const command = ['classify', '--batch', '-', '--from-line', '2', '--skip-invalid', join(tempDir(), 'invalid.jsonl'), '--failed', join(tempDir(), 'failed.jsonl')];
    const result = await signalledWhileReading(t, command, emulator.env, `{"text":"hi","user_id":"u1"}\n{"text":"yo","user_id":"u1"}\n${notJson}\n`, named(3));
    assert.equal(result.code, 143, result.stderr);
    assert.match(result.stderr, new RegExp(`; reading stopped after 3 lines: ${unread}$`, 'm'));
    assert.match(result.stderr, /^hint: give it the whole input again on stdin, what this run did not read included: the lines before [23] are skipped$/m);
  });
});

describe('data add and events send --skip-invalid reading a pipe, left at once by a second signal', () => {
  // Every /v1 request is logged on arrival, then its answer is held for a minute: the first signal waits for it.
  const emulator = useEmulatorProcess(['--fault-rate', '1', '--faults', 'timeout', '--fault-delay', '60000']);
  const runs = [
    { command: ['data', 'add', 'ns', '-', '--batch-size', '1'], record: '{"id":"a"}', noun: 'records', hint: 'without --checkpoint it sends every object it is given again: give it the whole input again on stdin' },
    { command: ['events', 'send', '-', '--batch-size', '1'], record: eventsText(1, 1).trim(), noun: 'events', hint: 'without --checkpoint it sends every event it is given again (each keeps its idempotency_key, so the service ingests it once): give it the whole input again on stdin' },
  ];

  for (const { command, record, noun, hint } of runs) {
    it(`${command.slice(0, 2).join(' ')}: says that what followed in the pipe was not read and is in no file, and asks for the whole input again`, async (t) => {
      const child = spawnCsafe(['--request-timeout', '5m', ...command, '--skip-invalid', join(tempDir(), 'invalid.jsonl')], { env: emulator.env, cwd: tempDir() });
      t.after(() => child.exitCode === null && child.kill('SIGKILL'));
      const exited = ended(child);
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdin.write(`${record}\nnot json\n`);
      await waitFor(async () => stderr.includes('stdin:2:') && (await emulator.requests()).some((request) => request.method === 'POST'), { what: 'the first record in flight, the second line read' });
      child.kill('SIGTERM');
      // A second signal counts once 0.25 s have passed since the first.
      await sleep(500);
      child.kill('SIGTERM');
      const result = await withDeadline(exited, 10_000, 'csafe to leave at once, its stdin still open');
      child.stdin.end();
      assert.equal(result.code, 143, result.stderr);
      assert.match(result.stderr, new RegExp(`; reading stopped after 2 ${noun}: what followed in the input was not read, and is in no file$`, 'm'));
      assert.ok(result.stderr.includes(`hint: ${hint}`), result.stderr);
    });
  }
});
