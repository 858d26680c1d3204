import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { assertExactlyOnceInOrder, eventsText, ingestedEvents } from '../helpers/events.js';
import { runInProcess } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';
import { BIN, outcome, runCsafe, spawnCsafe, startEmulatorProcess, tempDir, useEmulatorProcess, withEmulatorProcess, type EmulatorProcess, exitOf } from '../helpers/cli.js';

/** Nothing lost, nothing sent twice. */

const objectsText = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => JSON.stringify({ id: `obj_${from + i}`, text: `listing ${from + i}` })).join('\n') + '\n';

const ndjson = (text: string) => text.trim().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);

/** One line `error: …` that names the file and the reason, and no stack trace. */
function assertOneLineWriteError(stderr: string, file: string): void {
  const errors = stderr.split('\n').filter((line) => line.startsWith('error:'));
  assert.equal(errors.length, 1, stderr);
  assert.match(errors[0]!, new RegExp(`^error: ${file}: could not write: no space left on device \\(ENOSPC\\); \\d+ records? not written \\(input lines? \\d+(–\\d+)?\\)`));
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
}

/** Waits (within waitFor's deadline) until `condition` holds, failing at once if `child` ends first. */
async function until(condition: () => boolean | Promise<boolean>, what: string, child?: ChildProcess): Promise<void> {
  await waitFor(
    async () => {
      if (child !== undefined) assert.equal(child.exitCode, null, `the child ended before ${what}`);
      return condition();
    },
    { what },
  );
}

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return { stdout: () => stdout, stderr: () => stderr };
}

/** bin/csafe with one more pipe as fd 3, fed `input`: the shape of `csafe … <(cat file)`. */
function runWithFd3(args: readonly string[], env: Record<string, string>, input: string) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CSAFE_CONFIG_DIR: tempDir('csafe-config-'), ...env },
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const fd3 = child.stdio[3] as NodeJS.WritableStream;
  fd3.end(input);
  child.stdin!.end();
  return exitOf(child).then((code) => ({ code, stdout: output.stdout(), stderr: output.stderr() }));
}

function mkfifo(path: string): string {
  const made = spawnSync('mkfifo', [path]);
  assert.equal(made.status, 0, String(made.stderr));
  return path;
}

/** A shell writing `text` into the FIFO, then holding it open for `holdSeconds` more. */
function fifoWriter(fifo: string, textFile: string, holdSeconds = 0): ChildProcess {
  return spawn('sh', ['-c', `(cat "$1"; sleep ${holdSeconds}) > "$2"`, 'sh', textFile, fifo], { stdio: 'ignore' });
}

const opensFile = (pid: number, path: string) => {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
};

// Writing the record files and the checkpoint needs no process of its own: main() runs in this process.
describe('a write error on a record file stops the run with one line', () => {
  let down: EmulatorProcess;
  let healthy: EmulatorProcess;
  const dir = tempDir();
  before(async () => {
    [down, healthy] = await Promise.all([startEmulatorProcess(['--fault-rate', '1', '--faults', '503']), startEmulatorProcess()]);
  });
  after(() => Promise.all([down.stop(), healthy.stop()]));

  it('events send --failed /dev/full: exit 1, the file, the error and what was not written', async () => {
    const file = join(dir, 'events.jsonl');
    writeFileSync(file, eventsText(10, 3));
    const result = await runInProcess(['events', 'send', file, '--failed', '/dev/full', '--max-retries', '0'], { env: down.env, cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    assertOneLineWriteError(result.stderr, '/dev/full');
  });

  it('events send --skip-invalid /dev/full', async () => {
    const file = join(dir, 'some-invalid.jsonl');
    writeFileSync(file, eventsText(3, 3) + '{"type":"content_uploaded"}\n');
    const result = await runInProcess(['events', 'send', file, '--skip-invalid', '/dev/full'], { env: healthy.env, cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    assertOneLineWriteError(result.stderr, '/dev/full');
  });

  it('classify --batch --failed /dev/full', async () => {
    const file = join(dir, 'items.jsonl');
    writeFileSync(file, '{"text":"hello","user_id":"u1"}\n{"text":"again","user_id":"u1"}\n');
    const result = await runInProcess(['classify', '--batch', file, '--failed', '/dev/full', '--max-retries', '0'], { env: down.env, cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    assertOneLineWriteError(result.stderr, '/dev/full');
  });

  it('classify --batch --skip-invalid /dev/full', async () => {
    const file = join(dir, 'items-some-invalid.jsonl');
    writeFileSync(file, '{"text":"hello","user_id":"u1"}\n{"text":"no user"}\n');
    const result = await runInProcess(['classify', '--batch', file, '--skip-invalid', '/dev/full'], { env: healthy.env, cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    assertOneLineWriteError(result.stderr, '/dev/full');
  });

  it('data add --failed /dev/full', async () => {
    const result = await runInProcess(['data', 'add', 'listings', '-', '--failed', '/dev/full', '--max-retries', '0', '--batch-size', '2'], { env: down.env, input: objectsText(5), cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    assertOneLineWriteError(result.stderr, '/dev/full');
  });

  it('data add --skip-invalid /dev/full', async () => {
    const result = await runInProcess(['data', 'add', 'listings', '-', '--skip-invalid', '/dev/full'], { env: healthy.env, input: objectsText(2) + '{"no":"id"}\n', cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    assertOneLineWriteError(result.stderr, '/dev/full');
  });
});

describe('--checkpoint records only what the service acknowledged', () => {
  const dir = tempDir();
  // A service that is down (every request 503) and one that is back, shared by the tests; each test starts from an empty one.
  const down = useEmulatorProcess(['--fault-rate', '1', '--faults', '503']);
  const back = useEmulatorProcess();
  beforeEach(() => back.control('/_emulator/reset', { method: 'POST' }));

  it('events send: the same cron line after an outage sends every failed event, in user order', async () => {
    const file = join(dir, 'outage.jsonl');
    writeFileSync(file, eventsText(300, 7));
    const line = ['events', 'send', file, '--checkpoint', join(dir, 'state.json'), '--failed', join(dir, 'failed.jsonl'), '--max-retries', '0', '--batch-size', '20'];
    const first = await runInProcess(line, { env: down.env, cwd: dir });
    assert.equal(first.code, 1, first.stderr);
    assert.equal(readFileSync(join(dir, 'failed.jsonl'), 'utf8').trim().split('\n').length, 300);
    const second = await runInProcess([...line, '--json'], { env: back.env, cwd: dir });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout).sent, 300);
    assertExactlyOnceInOrder((await ingestedEvents(back)).events, 300);
    assert.equal(readFileSync(join(dir, 'failed.jsonl'), 'utf8').trim().split('\n').length, 300, 'the failed file stays as the record of the outage');
  });

  it('events send: a cron run during an outage exits 1 though its checkpoint skips what earlier runs sent, and says to run the same line again', async () => {
    const file = join(dir, 'spool.jsonl');
    const state = join(dir, 'spool-state.json');
    const failed = join(dir, 'spool-failed.jsonl');
    writeFileSync(file, eventsText(200, 7));
    const line = ['events', 'send', file, '--checkpoint', state, '--failed', failed, '--max-retries', '0', '--batch-size', '20', '--json'];
    const earlier = await runInProcess(line, { env: back.env, cwd: dir });
    assert.equal(earlier.code, 0, earlier.stderr);
    // The spool grows (the checkpoint still belongs to it: its first bytes are the same), and the service is down.
    appendFileSync(file, eventsText(250, 7).split('\n').slice(200).join('\n'));
    const outage = await runInProcess(line, { env: down.env, cwd: dir });
    assert.equal(outage.code, 1, outage.stderr);
    const summary = JSON.parse(outage.stdout) as Record<string, number>;
    assert.deepEqual([summary.skipped_checkpoint, summary.sent, summary.failed], [200, 0, 50]);
    assert.match(outage.stderr, new RegExp(`50 events written to ${failed}: run the same command again to send them \\(the file is the record of what failed\\)`));
    assert.doesNotMatch(outage.stderr, /resend them with/);
  });

  it('data add: a re-run sends what failed, and then nothing more', async () => {
    const input = join(dir, 'objects.jsonl');
    writeFileSync(input, objectsText(12));
    const line = ['data', 'add', 'listings', input, '--checkpoint', join(dir, 'add-state.json'), '--failed', join(dir, 'add-failed.jsonl'), '--max-retries', '0', '--batch-size', '5', '-o', 'ndjson'];
    const first = await runInProcess(line, { env: down.env, cwd: dir });
    assert.equal(first.code, 1, first.stderr);
    const second = await runInProcess(line, { env: back.env, cwd: dir });
    assert.equal(second.code, 0, second.stderr);
    const accepted = ndjson(second.stdout);
    assert.equal(accepted.reduce((sum, r) => sum + (r.objects as number), 0), 12);
    const third = await runInProcess(line, { env: back.env, cwd: dir });
    assert.equal(third.code, 0, third.stderr);
    assert.equal(third.stdout, '');
    assert.match(third.stderr, /12 objects skipped by checkpoint/);
    const posts = (await back.requests()).filter((r) => r.method === 'POST' && r.path === '/v1/data/listings');
    assert.equal(posts.length, 3, 'the third run sent nothing');
  });

  it('a temporary file a killed run left beside the checkpoint is removed', async () => {
    const file = join(dir, 'few.jsonl');
    writeFileSync(file, eventsText(5, 2));
    const state = join(dir, 'tmp-state.json');
    // A pid far above any real one: the run that wrote it is gone.
    writeFileSync(`${state}.${2 ** 22 + 4321}-5eed0a11.tmp`, '{"torn":');
    writeFileSync(`${state}.notes.tmp`, 'not ours');
    const result = await runInProcess(['events', 'send', file, '--checkpoint', state], { env: back.env, cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(readdirSync(dir).filter((name) => name.startsWith('tmp-state.json')).sort(), ['tmp-state.json', 'tmp-state.json.notes.tmp']);
  });
});

describe('kill -9 with --checkpoint', () => {
  it('data add: the checkpoint on disk is behind the service by at most the requests in flight', async () => {
    await withEmulatorProcess(['--latency', '10'], async (emulator) => {
      const dir = tempDir();
      const input = join(dir, 'objects.jsonl');
      writeFileSync(input, objectsText(12_000));
      const checkpoint = join(dir, 'state.json');
      const child = spawnCsafe(['data', 'add', 'listings', input, '--batch-size', '50', '--concurrency', '4', '--checkpoint', checkpoint], { env: emulator.env });
      const exited = exitOf(child);
      const posts = async () => (await emulator.requests()).filter((r) => r.method === 'POST' && r.path === '/v1/data/listings').length;
      await until(async () => (await posts()) >= 40, '40 requests reached the service', child);
      child.kill('SIGKILL');
      await exited;
      const received = (await posts()) * 50;
      assert.ok(received < 12_000, 'killed part-way');
      const ranges = JSON.parse(readFileSync(checkpoint, 'utf8')).acknowledged as Array<[number, number]>;
      const checkpointed = ranges.reduce((sum, [first, last]) => sum + last - first + 1, 0);
      assert.ok(received - checkpointed <= 4 * 50, `the checkpoint was ${received - checkpointed} objects behind the ${received} the service had: more than the 4 requests in flight`);
      // The requests the killed run left behind are served before the emulator is stopped.
      await waitFor(async () => ((await emulator.control('/_emulator/in_flight')) as { in_flight: number }).in_flight === 0, { what: 'the emulator to finish serving the killed run' });
    });
  });
});

describe('data add says what it sent as it goes', () => {
  it('each accepted request is a line on stdout before the run ends (seen before a SIGKILL)', async () => {
    await withEmulatorProcess(['--latency', '200'], async (slow) => {
      // From a file, not stdin: a SIGKILLed run cannot remove the spool it would keep of stdin.
      const input = join(tempDir(), 'objects.jsonl');
      writeFileSync(input, objectsText(40));
      const child = spawnCsafe(['data', 'add', 'listings', input, '--batch-size', '1', '--concurrency', '1'], { env: slow.env });
      const output = collect(child);
      const exited = exitOf(child);
      await until(() => output.stdout().split('\n').length > 3, 'two requests were printed', child);
      child.kill('SIGKILL');
      await exited;
      const printed = ndjson(output.stdout().slice(0, output.stdout().lastIndexOf('\n')));
      assert.ok(printed.length >= 2);
      assert.ok(printed.every((r) => /^req_/.test(String(r.request_id)) && r.objects === 1));
    });
  });

  it('Ctrl-C: the message counts the requests printed, each one known to the service', async () => {
    await withEmulatorProcess(['--latency', '150'], async (slow) => {
      const child = spawnCsafe(['data', 'add', 'listings', '-', '--batch-size', '1', '--concurrency', '4'], { env: slow.env });
      const output = collect(child);
      const exited = exitOf(child);
      child.stdin.end(objectsText(200));
      await until(() => output.stdout().split('\n').length > 8, 'requests were printed', child);
      child.kill('SIGINT');
      assert.equal(await exited, 130, output.stderr());
      const printed = ndjson(output.stdout());
      const counted = Number(/interrupted: \d+ objects? sent in (\d+) requests?, /.exec(output.stderr())?.[1]);
      assert.equal(counted, printed.length, output.stderr());
      // What the service holds is what was said: no request it took was cut off unanswered.
      const held = (await slow.control('/_emulator/data/listings')) as { objects: unknown[] };
      assert.equal(held.objects.length, printed.length, `the service holds ${held.objects.length} objects; csafe said ${printed.length} (one per request)`);
    });
  });
});

describe('named pipes and process substitution', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0s']);
  const dir = tempDir();

  it('data add and events send read a FIFO once, check it and send it', async () => {
    const objects = join(dir, 'objects.jsonl');
    writeFileSync(objects, objectsText(7));
    const fifo = mkfifo(join(dir, 'objects.fifo'));
    const writer = fifoWriter(fifo, objects);
    const added = await runCsafe(['data', 'add', 'fifo-ns', fifo, '-o', 'ndjson'], { env: emulator.env, cwd: dir });
    writer.kill();
    assert.equal(added.code, 0, added.stderr);
    assert.equal(ndjson(added.stdout).reduce((sum, r) => sum + (r.objects as number), 0), 7);

    const events = join(dir, 'events.jsonl');
    writeFileSync(events, eventsText(9, 2));
    const eventsFifo = mkfifo(join(dir, 'events.fifo'));
    const eventsWriter = fifoWriter(eventsFifo, events);
    const sent = await runCsafe(['events', 'send', eventsFifo, '--json'], { env: emulator.env, cwd: dir });
    eventsWriter.kill();
    assert.equal(sent.code, 0, sent.stderr);
    assert.equal(JSON.parse(sent.stdout).sent, 9);
  });

  it('SIGTERM stops a run waiting on a FIFO whose writer is silent', async () => {
    const head = join(dir, 'head.jsonl');
    writeFileSync(head, objectsText(1));
    const fifo = mkfifo(join(dir, 'silent.fifo'));
    const writer = fifoWriter(fifo, head, 60);
    try {
      const child = spawnCsafe(['data', 'add', 'listings', fifo], { env: emulator.env, cwd: dir });
      const output = collect(child);
      const exited = exitOf(child);
      await until(() => opensFile(child.pid!, fifo), 'it opened the FIFO', child);
      child.kill('SIGTERM');
      assert.equal(await exited, 143, output.stderr());
    } finally {
      writer.kill();
    }
  });

  it('/dev/fd/N works for data add, events send, data import, settings put and classify', async () => {
    const env = emulator.env;
    const added = await runWithFd3(['data', 'add', 'fd-ns', '/dev/fd/3', '-o', 'ndjson'], env, objectsText(3));
    assert.equal(added.code, 0, added.stderr);
    assert.equal(ndjson(added.stdout).reduce((sum, r) => sum + (r.objects as number), 0), 3);
    const sent = await runWithFd3(['events', 'send', '/dev/fd/3', '--json'], env, eventsText(4, 2));
    assert.equal(sent.code, 0, sent.stderr);
    assert.equal(JSON.parse(sent.stdout).sent, 4);
    const imported = await runWithFd3(['data', 'import', 'fd-ns', '/dev/fd/3', '--json'], env, objectsText(4, 100));
    assert.equal(imported.code, 0, imported.stderr);
    const put = await runWithFd3(['settings', 'put', 'fd-ns', '/dev/fd/3', '--json'], env, JSON.stringify({ title: { display_hint: { type: 'title' } } }));
    assert.equal(put.code, 0, put.stderr);
    const classified = await runWithFd3(['classify', '/dev/fd/3', '--user-id', 'u1', '--json'], env, 'hello there');
    assert.equal(classified.code, 0, classified.stderr);
  });

  it('data add ns <(cat file), as bash runs it', async () => {
    const objects = join(dir, 'substituted.jsonl');
    writeFileSync(objects, objectsText(5));
    const script = 'exec "$NODE" "$BIN" data add subst-ns <(cat "$INPUT") -o ndjson';
    const child = spawn('bash', ['-c', script], { env: { ...process.env, ...emulator.env, CSAFE_CONFIG_DIR: tempDir('csafe-config-'), NODE: process.execPath, BIN, INPUT: objects } });
    const output = collect(child);
    assert.equal(await exitOf(child), 0, output.stderr());
    assert.equal(ndjson(output.stdout()).reduce((sum, r) => sum + (r.objects as number), 0), 5);
  });

  it('classify /dev/zero is refused as too large, not read for ever', async () => {
    const result = await runCsafe(['classify', '/dev/zero', '--user-id', 'u1'], { env: emulator.env, cwd: dir });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^error: \/dev\/zero: larger than \d+ bytes/m);
  });

  it('classify --metadata @/dev/zero and @<(…) are read like any input file', async () => {
    const endless = await runCsafe(['classify', '--text', 'hi', '--user-id', 'u1', '--metadata', '@/dev/zero'], { env: emulator.env, cwd: dir });
    assert.equal(endless.code, 2, endless.stderr);
    assert.match(endless.stderr, /^error: --metadata: \/dev\/zero: larger than \d+ bytes/m);
    const script = 'exec "$NODE" "$BIN" classify --text hi --user-id u1 --metadata @<(echo \'{"surface":"chat"}\') --json';
    const piped = await outcome(spawn('bash', ['-c', script], { env: { ...process.env, ...emulator.env, CSAFE_CONFIG_DIR: tempDir('csafe-config-'), NODE: process.execPath, BIN }, cwd: dir }));
    assert.equal(piped.code, 0, piped.stderr);
    assert.ok(Array.isArray(JSON.parse(piped.stdout).labels));
  });
});

describe('data add --wait when the service dies', () => {
  it('prints every pending request id with the command that follows it, exit 1', async () => {
    // Its data in a directory of the test's: the emulator is SIGKILLed and cannot remove its own.
    const emulator = await startEmulatorProcess(['--processing-delay', '1h', '--data-dir', tempDir()]);
    const child = spawnCsafe(['--max-retries', '0', 'data', 'add', 'listings', '-', '--wait', '--batch-size', '1'], { env: emulator.env });
    const output = collect(child);
    const exited = exitOf(child);
    child.stdin.end(objectsText(3));
    try {
      await until(async () => (await emulator.requests()).some((r) => r.method === 'GET'), 'it started waiting', child);
    } finally {
      emulator.child.kill('SIGKILL');
    }
    assert.equal(await exited, 1, output.stderr());
    assert.match(output.stderr(), /3 requests still pending; check on them with:/);
    // With the run's global flags: the same service, as the run reached it.
    assert.equal(output.stderr().match(/csafe --max-retries 0 data status listings req_\S+ --wait/g)?.length, 3, output.stderr());
  });
});
