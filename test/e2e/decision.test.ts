import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ended, runCsafe, spawnCsafe, tempDir, useEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

const LISTING = { title: 'Road bike, barely used', seller: { name: 'Jane', note: 'I will kill the price' } };

const decisionCalls = async (emulator: EmulatorProcess) => (await emulator.requests()).filter((request) => String(request.path).startsWith('/v1/decisions'));

/** A decision made with csafe itself; its id. */
async function createdId(emulator: EmulatorProcess, content: string): Promise<string> {
  const created = await runCsafe(['decision', 'create', '--type', 'text', '--content', content, '--json'], { env: emulator.env });
  assert.equal(created.code, 0, created.stderr);
  return JSON.parse(created.stdout).decision_id;
}

describe('csafe decision, against a running emulator', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '300ms']);

  it('decision create --type text --content … --metadata source=app --wait: settles SUCCESS and prints it as decision get does', async () => {
    const result = await runCsafe(['decision', 'create', '--type', 'text', '--content', '{"text":"see you"}', '--metadata', 'source=app', '--wait'], { env: emulator.env });
    assert.equal(result.code, 0, result.stderr);
    const decision = JSON.parse(result.stdout);
    assert.deepEqual([decision.decision_status, decision.result, decision.metadata], ['SUCCESS', 'not_match', { source: 'app' }]);
    assert.deepEqual(decision, JSON.parse((await runCsafe(['decision', 'get', decision.decision_id], { env: emulator.env })).stdout));
    assert.ok(decision.labels.length > 0 && decision.labels.every((label: { applied: boolean }) => !label.applied));
  });

  it('decision create --help says what --wait --json prints: the decision as decision get prints it, without its type', async () => {
    const help = (await runCsafe(['decision', 'create', '--help'])).stdout.replace(/\s+/g, ' ');
    assert.match(help, /--json: the decision as the service returned it, as `decision get` prints it; its type shows in the table only/);
  });

  it('decision create --type listing --content @listing.json --json: prints the id, type and metadata at once', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'listing.json'), JSON.stringify(LISTING, null, 2));
    const result = await runCsafe(['decision', 'create', '--type', 'listing', '--content', '@listing.json', '--json'], { env: emulator.env, cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const created = JSON.parse(result.stdout);
    assert.match(created.decision_id, /^dec_/);
    assert.deepEqual([created.type, created.metadata], ['listing', {}]);
  });

  it('a field named __proto__ in --content and --metadata is sent and kept, like any other field', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'metadata.json'), '{"__proto__":"from the file","k":"v"}');
    const result = await runCsafe(['decision', 'create', '--type', 'text', '--content', '{"text":"hi","__proto__":{"text":"nested"}}', '--metadata', '@metadata.json', '--json'], { env: emulator.env, cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const sent = JSON.parse(String((await decisionCalls(emulator)).at(-1)!.body));
    assert.deepEqual(Object.entries(sent.content), [['text', 'hi'], ['__proto__', { text: 'nested' }]]);
    const kept = JSON.parse((await runCsafe(['decision', 'get', JSON.parse(result.stdout).decision_id, '--json'], { env: emulator.env })).stdout);
    assert.deepEqual(Object.entries(kept.metadata), [['__proto__', 'from the file'], ['k', 'v']]);
  });

  it('decision create --metadata with a nested value is refused before sending (exit 2), naming the key', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'nested.json'), '{"ok":"x","tags":["a","b"]}');
    const before = (await emulator.requests()).length;
    const result = await runInProcess(['decision', 'create', '--type', 'text', '--content', '{"text":"hi"}', '--metadata', '@nested.json'], { env: emulator.env, cwd: dir });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr, 'error: --metadata: tags: expected a string, a number, a boolean or null (decision metadata is flat: no objects or arrays)\n');
    assert.equal((await emulator.requests()).length, before);
  });

  it('classify --metadata __proto__=… sends the field, not a prototype', async () => {
    const result = await runCsafe(['classify', '--text', 'hi', '--user-id', 'u1', '--metadata', '__proto__=m', '--json'], { env: emulator.env });
    assert.equal(result.code, 0, result.stderr);
    const sent = (await emulator.requests()).filter((request) => request.path === '/v1/content').at(-1)!;
    assert.deepEqual(Object.entries(JSON.parse(String(sent.body)).metadata), [['__proto__', 'm']]);
  });

  it('decision get ID --wait: waits for the decision, then shows its result and labels (here from nested text)', async () => {
    const id = await createdId(emulator, JSON.stringify(LISTING));
    const result = await runCsafe(['-o', 'table', 'decision', 'get', id, '--wait'], { env: emulator.env });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.split('\n');
    assert.ok(lines.includes('decision_status: SUCCESS') && lines.includes('result:          match'), result.stdout);
    assert.ok(lines.some((line) => /^NAME +APPLIED +EXPLANATION$/.test(line)) && lines.some((line) => /^violence +yes +score 0\.85: match$/.test(line)), result.stdout);
  });

  it('decision create --wait on content without text ends ERROR: exit 1, saying why', async () => {
    const result = await runCsafe(['decision', 'create', '--type', 'listing', '--content', '{"price": 12}', '--wait'], { env: emulator.env });
    assert.equal(result.code, 1, result.stderr);
    const decision = JSON.parse(result.stdout);
    assert.equal(decision.decision_status, 'ERROR');
    assert.equal(result.stderr, `decision ${decision.decision_id} ended ERROR: the content holds no text to review\n`);
  });

  it('decision get of an unknown id exits 1 with the service\'s message', async () => {
    const result = await runCsafe(['decision', 'get', 'dec_000000000000000000000000'], { env: emulator.env });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no decision dec_000000000000000000000000/);
  });

  // Usage errors need no process of their own: main() runs in this process.
  describe('invalid input is refused with one line naming the flag, exit 2, nothing sent', () => {
    const cases: Array<{ name: string; args: string[]; files?: Record<string, string>; message: RegExp }> = [
      { name: 'inline --content that is not JSON', args: ['--type', 'text', '--content', '{text: 1}'], message: /^error: --content: invalid JSON at column 2: / },
      { name: '--content that is not an object', args: ['--type', 'text', '--content', '"hello"'], message: /^error: --content: expected a JSON object \(its fields depend on --type\), got string$/ },
      {
        name: '--content @FILE whose JSON breaks, at file:line and column',
        args: ['--type', 'listing', '--content', '@listing.json'],
        files: { 'listing.json': '{\n  "title": "bike"\n  "price": 1\n}\n' },
        message: /^error: --content: listing\.json:3: invalid JSON at column 3: /,
      },
      { name: 'an empty --type', args: ['--type', '', '--content', '{}'], message: /^error: --type: expected a non-empty string/ },
      { name: '--metadata without key=', args: ['--type', 'text', '--content', '{}', '--metadata', '=x'], message: /^error: --metadata: expected key=value or @file\.json, got "=x"$/ },
      {
        name: '--metadata @FILE that is not JSON',
        args: ['--type', 'text', '--content', '{}', '--metadata', '@meta.json'],
        files: { 'meta.json': '{"a": 1,}' },
        message: /^error: --metadata: meta\.json:1: invalid JSON at column 9: /,
      },
    ];
    for (const { name, args, files = {}, message } of cases) {
      it(name, async () => {
        const dir = tempDir();
        for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
        const before = (await decisionCalls(emulator)).length;
        const result = await runInProcess(['decision', 'create', ...args], { env: emulator.env, cwd: dir });
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr.split('\n')[0]!, message);
        assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
        assert.equal((await decisionCalls(emulator)).length, before, 'nothing sent');
      });
    }
  });
});

describe('csafe decision --wait on a decision that stays PENDING', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '1h']);

  it('--timeout ends the wait with exit 124, printing the pending id and the command that checks again', async () => {
    const id = await createdId(emulator, '{"text":"hi"}');
    const result = await runCsafe(['decision', 'get', id, '--wait', '--timeout', '1s'], { env: emulator.env });
    assert.equal(result.code, 124, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, new RegExp(`^decision ${id} is still pending; check on it with:\n  csafe decision get ${id} --wait\n`));
  });

  it('Ctrl-C ends decision create --wait with exit 130, printing the id it created', async (t) => {
    const earlier = (await decisionCalls(emulator)).length;
    const child = spawnCsafe(['decision', 'create', '--type', 'text', '--content', '{"text":"hi"}', '--wait'], { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const result = ended(child);
    child.stdin.end();
    const polled = await waitFor(async () => (await decisionCalls(emulator)).slice(earlier).find((request) => request.method === 'GET'), { what: 'the first poll of the decision' });
    child.kill('SIGINT');
    const { code, stdout, stderr } = await result;
    assert.equal(code, 130, stderr);
    assert.equal(stdout, '');
    const id = String(polled.path).split('/').at(-1)!;
    assert.match(stderr, new RegExp(`^decision ${id} is still pending; check on it with:\n  csafe decision get ${id} --wait\n`));
  });
});
