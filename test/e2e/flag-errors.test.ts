import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// Help and usage errors are main()'s answer to the arguments: they run in this process; data add --wait runs as a real process.

/** One flag's entry in a command's --help, its wrapped lines joined. */
async function flagHelp(command: string[], flag: string): Promise<string> {
  const { stdout } = await runInProcess([...command, '--help']);
  const entry = stdout.split(/\n(?= {2}-)/).find((block) => block.trimStart().startsWith(flag));
  assert.ok(entry, `${command.join(' ')} --help has no ${flag}`);
  return entry.split('\n\n')[0]!.replace(/\s+/g, ' ').trim();
}

const BULK = [['classify'], ['events', 'send'], ['data', 'add'], ['stream', 'parts']];
const WAITING = [['data', 'add'], ['data', 'import'], ['data', 'status'], ['decision', 'create'], ['decision', 'get'], ['import', 'create'], ['import', 'get'], ['batch', 'create'], ['batch', 'get']];

describe('the same flag, the same words', () => {
  it('--failed, --skip-invalid and --max-consecutive-failures state their default as "(default: …)" on every bulk command', async () => {
    for (const command of BULK) {
      for (const flag of ['--failed', '--skip-invalid', '--max-consecutive-failures']) {
        assert.match(await flagHelp(command, flag), /\(default: [^)]+\)$/, `${command.join(' ')} ${flag}`);
      }
    }
  });

  it('--checkpoint and --failed read the same wherever they are, but for what is sent', async () => {
    const checkpoint = await Promise.all([['events', 'send'], ['data', 'add']].map((command) => flagHelp(command, '--checkpoint')));
    assert.deepEqual(new Set(checkpoint.map((text) => text.replace(/\b(events|objects)\b/, 'RECORDS'))), new Set([
      '--checkpoint <file> record the RECORDS the service acknowledged here; a re-run of the same command sends only the rest',
    ]));
    for (const [command, records] of [[['events', 'send'], 'events'], [['data', 'add'], 'objects'], [['stream', 'parts'], 'parts']] as const) {
      assert.match(await flagHelp([...command], '--failed'), new RegExp(`^--failed <file> append the ${records} of batches that could not be sent, as sent \\(default: `));
    }
    assert.match(await flagHelp(['classify'], '--failed'), /^--failed <file> with --batch: append each line that failed here, as read, to classify again \(default: /);
  });

  it('--timeout reads the same on every command that waits', async () => {
    const texts = await Promise.all(WAITING.map(async (command) => (await flagHelp(command, '--timeout')).replace(/e\.g\. \w+/, 'e.g. D')));
    assert.deepEqual(new Set(texts), new Set(['--timeout <duration> with --wait: how long to wait, e.g. D (default: for ever)']));
  });
});

/** A new user's slips with flags: each is one line on stderr that says what to use, and exit 2. */
describe('flag errors', () => {
  it('a required option left out is said in csafe\'s words, as a missing field is, not commander\'s', async () => {
    for (const [args, line] of [
      [['batch', 'create', 'reviews.csv'], 'error: --type: is required: the kind of content to review, e.g. text'],
      [['stream', 'watch', 'live', '--url', 'https://example.com/x.m3u8'], 'error: --id: is required: expected a non-empty string (your identifier of the stream)'],
      [['deletion-request', 'create', '--external-request-id', 'dsr-1'], 'error: --subject-user-id: is required: the user whose data is to be erased'],
      [['deletion-request', 'create', '--subject-user-id', 'u1', '--requested-at', 'yesterday'], 'error: --requested-at: expected an ISO 8601 date-time, e.g. 2026-11-27T10:00:00Z'],
      [['agent-decision', 'create', '--content-type', 'listings', '--decision', 'match', '--reference-id', 'l1'], 'error: --policy-id: is required: the policy the verdict is about, e.g. violence'],
    ] as const) {
      const { code, stdout, stderr } = await runInProcess([...args]);
      assert.equal(code, 2, stderr);
      assert.equal(stdout, '');
      assert.equal(stderr, `${line}\n`);
    }
  });

  it('a required argument left out is said in the same words, with the command\'s usage as the hint', async () => {
    for (const [args, lines] of [
      [['data', 'status'], ['error: <namespace>: is required: the namespace', 'hint: usage: csafe data status [options] <namespace> <request-id>']],
      [['data', 'status', 'listings'], ['error: <request-id>: is required: as printed by `data add` or `data import`', 'hint: usage: csafe data status [options] <namespace> <request-id>']],
      [['--json', 'stream', 'parts'], ['error: <namespace>: is required: the namespace', 'hint: usage: csafe stream parts [options] <namespace> [file]']],
    ] as const) {
      const { code, stdout, stderr } = await runInProcess([...args]);
      assert.equal(code, 2, stderr);
      assert.equal(stdout, '');
      assert.equal(stderr, lines.map((line) => `${line}\n`).join(''));
    }
  });

  it('--json with another --output is a conflict (exit 2), not a quiet choice of one', async () => {
    const { code, stderr } = await runInProcess(['--json', '-o', 'tsv', 'auth', 'status'], { env: { CSAFE_API_KEY: 'sk_test_0123456789abcdef', CSAFE_BASE_URL: 'https://api.example' } });
    assert.equal(code, 2);
    assert.equal(stderr, 'error: --json and --output tsv conflict: --json is --output json; give one\n');
  });

  it('a misspelt flag is one line that suggests the right one', async () => {
    const { code, stderr } = await runInProcess(['data', 'add', 'listings', 'items.jsonl', '--skip-invaild', 'bad.jsonl']);
    assert.equal(code, 2);
    assert.equal(stderr, "error: unknown option '--skip-invaild' (did you mean --skip-invalid?)\n");
  });

  for (const args of [['--api_key=sk_live_SECRETPART', 'token', 'create'], ['token', 'create', '--apikey=sk_live_SECRETPART']]) {
    it(`a misspelt flag given as --flag=value (${args.join(' ')}) is named without its value: it may be a key`, async () => {
      const { code, stderr } = await runInProcess(args);
      assert.equal(code, 2);
      assert.equal(stderr.split('\n').filter(Boolean).length, 1, stderr);
      assert.match(stderr, /^error: unknown option '--api_?key=…'/);
      assert.doesNotMatch(stderr, /SECRETPART/);
    });
  }

  for (const flag of ['--shard', '--concurrency']) {
    it(`stream parts ${flag} says why the command has none instead of suggesting another flag`, async () => {
      const { code, stderr } = await runInProcess(['stream', 'parts', 'live', '--id', 'show-42', 'parts.jsonl', flag, '2']);
      assert.equal(code, 2);
      assert.equal(stderr.split('\n').filter(Boolean).length, 1, stderr);
      assert.match(stderr, new RegExp(`^error: ${flag}: stream parts has none: one stream's parts are sent in order`));
    });
  }

  it('an empty file name for --failed, --skip-invalid or --checkpoint is refused in our words, not zod\'s', async () => {
    const cases = [
      ...BULK.flatMap((command) => ['--failed', '--skip-invalid'].map((flag) => [...command, flag])),
      ['events', 'send', '--checkpoint'], ['data', 'add', '--checkpoint'],
    ];
    for (const words of cases) {
      const flag = words.pop()!;
      const input = words[0] === 'classify' ? ['--batch', 'lines.jsonl'] : words[0] === 'events' ? ['events.jsonl'] : words[0] === 'data' ? ['listings', 'items.jsonl'] : ['live', '--id', 's', 'parts.jsonl'];
      const { code, stderr } = await runInProcess([...words, ...input, flag, '']);
      assert.equal(code, 2, stderr);
      assert.equal(stderr, `error: ${flag}: expected a file name, got an empty one\n`, words.join(' '));
    }
  });
});

describe('data add --wait', () => {
  const emulator = useEmulatorProcess();
  const dir = tempDir();

  it('prints each request as data status prints it, in a pipe one JSON line per request, and --help says so', async () => {
    const items = join(dir, 'items.jsonl');
    writeFileSync(items, '{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n');
    const { code, stdout, stderr } = await runCsafe(['data', 'add', 'listings', items, '--wait', '--batch-size', '2'], { env: emulator.env, cwd: dir });
    assert.equal(code, 0, stderr);
    const requests = stdout.trim().split('\n').map((line) => JSON.parse(line) as { request_id: string; data: Array<{ id: string }> });
    assert.deepEqual(requests.map((request) => request.data.map((object) => object.id)), [['a', 'b'], ['c']]);
    const help = (await runInProcess(['data', 'add', '--help'])).stdout.replace(/\s+/g, ' ');
    assert.match(help, /--wait wait until every request has finished, then print each request as `data status` prints it/);
    assert.doesNotMatch(help, /one per object instead/);
  });
});
