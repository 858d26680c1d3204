import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ended, runCsafe, spawnCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { EVENT_EXAMPLES } from '../../src/schemas/event-examples.js';

describe('a file written by the run that is its input, the lock of its checkpoint, or named by two flags, is refused: exit 2, nothing sent', () => {
  const emulator = useEmulatorProcess();
  const input = '{"id":"a","type":"chat","chat":{"message":"hi"},"text":"hi"}\n';
  const runs: Record<string, string[]> = {
    'data add --failed INPUT': ['data', 'add', 'ns', 'in.jsonl', '--failed', './in.jsonl'],
    'events send --failed INPUT': ['events', 'send', 'in.jsonl', '--failed', './in.jsonl'],
    'classify --batch --failed INPUT': ['classify', '--batch', 'in.jsonl', '--user-id', 'u1', '--failed', './in.jsonl'],
    'stream parts --failed X --unconfirmed X': ['stream', 'parts', 'ns', '--id', 's1', 'in.jsonl', '--failed', 'x.jsonl', '--unconfirmed', './x.jsonl'],
    // The captions file is the input too: a cue file with JSON lines appended is one no player reads.
    'stream parts --captions FILE --unconfirmed FILE': ['stream', 'parts', 'ns', '--id', 's1', '--captions', 'in.jsonl', '--start', '2026-11-21T10:00:00Z', '--unconfirmed', './in.jsonl'],
    // The result replaces its file: the CSV sent would be lost.
    'batch create --wait --download INPUT': ['batch', 'create', 'in.jsonl', '--type', 'text', '--wait', '--download', './in.jsonl'],
    'events send --checkpoint X --failed X.lock': ['events', 'send', 'in.jsonl', '--checkpoint', 'x.json', '--failed', './x.json.lock'],
  };
  for (const [name, args] of Object.entries(runs)) {
    it(name, async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'in.jsonl'), input);
      const before = (await emulator.requests()).length;
      const result = await runCsafe(args, { env: emulator.env, cwd: dir });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^error: --(failed \.\/in\.jsonl: is the input file|download \.\/in\.jsonl: is the input file|unconfirmed \.\/in\.jsonl: is the input file|unconfirmed \.\/x\.jsonl: is also the file of --failed|failed \.\/x\.json\.lock: is the lock file of --checkpoint x\.json)\nhint: give --\w+ a file of its own\n$/);
      assert.equal((await emulator.requests()).length, before, 'nothing sent');
      assert.equal(readFileSync(join(dir, 'in.jsonl'), 'utf8'), input);
    });
  }
});

describe('a written file that no record could reach is refused before anything is sent: exit 2', () => {
  const emulator = useEmulatorProcess();
  const runs: Record<string, { args: string[]; line: string }> = {
    'classify --batch --failed in a missing directory': { args: ['classify', '--batch', 'in.jsonl', '--user-id', 'u1', '--failed', 'missing/failed.jsonl'], line: '{"text":"hi"}' },
    'stream parts --skip-invalid a directory': {
      args: ['stream', 'parts', 'ns', '--id', 's1', 'in.jsonl', '--skip-invalid', 'adir'],
      line: '{"text":"hi","type":"chat_message","sender_id":"u1","sender_display_name":"A","timestamp":"2026-11-21T10:00:00Z"}',
    },
  };
  for (const [name, { args, line }] of Object.entries(runs)) {
    it(name, async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'in.jsonl'), `${line}\n`);
      mkdirSync(join(dir, 'adir'));
      const before = (await emulator.requests()).length;
      const result = await runCsafe(args, { env: emulator.env, cwd: dir });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^error: (missing\/failed\.jsonl: could not write: no such directory \(ENOENT\)|adir: could not write: is a directory \(EISDIR\))\nhint: /);
      assert.equal((await emulator.requests()).length, before, 'nothing sent');
    });
  }

  it('data add --checkpoint with a --failed in a missing directory takes no lock it leaves behind', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), '{"id":"a"}\n');
    const result = await runCsafe(['data', 'add', 'ns', 'in.jsonl', '--checkpoint', 'state.json', '--failed', 'missing/failed.jsonl'], { env: emulator.env, cwd: dir });
    assert.equal(result.code, 2, result.stderr);
    // A dry run checks it too, as a real run would, and says so the same way.
    assert.equal((await runCsafe(['data', 'add', 'ns', 'in.jsonl', '--dry-run', '--failed', 'missing/failed.jsonl'], { env: emulator.env, cwd: dir })).code, 2);
    assert.deepEqual(readdirSync(dir).sort(), ['in.jsonl']);
  });

  for (const [command, record] of [
    ['data add ns', { id: 'a' }],
    ['events send', { ...EVENT_EXAMPLES.create_account, user_id: 'u1' }],
  ] as const) {
    it(`${command} --checkpoint refused for want of a base URL leaves no checkpoint and no lock behind`, async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'in.jsonl'), `${JSON.stringify(record)}\n`);
      const result = await runCsafe([...command.split(' '), 'in.jsonl', '--checkpoint', 'state.json'], { cwd: dir });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^error: no base URL configured\n/);
      assert.deepEqual(readdirSync(dir).sort(), ['in.jsonl']);
    });
  }
});

describe('a named pipe no one reads as --failed', () => {
  const emulator = useEmulatorProcess(['--fault-rate', '1', '--faults', '502']);

  it('the run waits there for a reader, as a write to a pipe does, and a second Ctrl-C ends the wait: exit 130', async (t) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), `${JSON.stringify({ ...EVENT_EXAMPLES.create_account, user_id: 'u1' })}\n`);
    execFileSync('mkfifo', [join(dir, 'failed.fifo')]);
    const before = (await emulator.requests()).length;
    const child = spawnCsafe(['events', 'send', 'in.jsonl', '--max-retries', '0', '--failed', 'failed.fifo'], { env: emulator.env, cwd: dir });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const result = ended(child, { timeoutMs: 15_000 });
    child.stdin.end();
    await waitFor(async () => (await emulator.requests()).length > before, { what: 'the batch answered 502' });
    // The failed batch is on its way to the pipe, which nothing reads.
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 400));
    child.kill('SIGINT');
    assert.equal((await result).code, 130);
    assert.ok(lstatSync(join(dir, 'failed.fifo')).isFIFO(), 'the pipe is left a pipe');
  });
});

describe('a records file named as a descriptor (--skip-invalid /dev/fd/3) is written through it', () => {
  const emulator = useEmulatorProcess();
  const invalid = '{"type":"not-a-type"}\n{"type":"nor-this"}\n';

  it('at its offset, so what the shell writes to it next follows the records; one not open (or node\'s own) is refused before anything is read', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), invalid);
    const args = ['events', 'send', 'in.jsonl', '--skip-invalid', '/dev/fd/3'];
    const given = await runCsafe(args, { env: emulator.env, cwd: dir, wrapper: ['sh', '-c', '{ "$0" "$@"; echo end >&3; } 3>rejects.jsonl'] });
    assert.equal(given.code, 0, given.stderr);
    const lines = readFileSync(join(dir, 'rejects.jsonl'), 'utf8').trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 2).map((line) => JSON.parse(line).line), [1, 2], 'the records whole, not written over');
    assert.equal(lines[2], 'end');
    // 5: one of node's own in a process given 0-2 only (records written into its event loop's pipe were lost); 55: none.
    for (const descriptor of [5, 55]) {
      const refused = await runCsafe(['events', 'send', 'in.jsonl', '--skip-invalid', `/dev/fd/${descriptor}`], { env: emulator.env, cwd: dir });
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, new RegExp(`^error: /dev/fd/${descriptor}: descriptor ${descriptor} is not open\\n`));
    }
  });

  it('batch create --wait --download /dev/fd/55 is refused before the batch is sent, not once it has ended', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.csv'), 'Content\nhello\n');
    const before = (await emulator.requests()).length;
    const refused = await runCsafe(['batch', 'create', 'in.csv', '--type', 'text', '--wait', '--download', '/dev/fd/55'], { env: emulator.env, cwd: dir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /^error: \/dev\/fd\/55: descriptor 55 is not open\n/);
    assert.equal((await emulator.requests()).length, before, 'nothing sent');
  });
});
