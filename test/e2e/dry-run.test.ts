import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { walkTree, isGroup } from '../../src/commands/declaration.js';
import { TREE } from '../../src/commands/tree.js';
import { DRY_RUN_FLAG } from '../../src/core/cli/flags.js';
import type { PlannedRequest } from '../../src/core/http/dry-run.js';
import { ended, EXAMPLES, runCsafe, spawnCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// `--dry-run`, one grammar on every command that sends: the same checks as a real run, then the
// requests it would send on stdout (credentials redacted), and nothing sent — the emulator's
// request log stays empty. Each plan is then compared with what the same command sends for real.

const example = (name: string) => join(EXAMPLES, name);

interface Plan {
  dry_run: true;
  request_count: number;
  record_count?: number;
  records?: string;
  requests: PlannedRequest[];
}

/** A sending command, as a user runs it; `path`: where its first request goes; `then`: the upload it is bound to be followed by. */
interface Sending {
  argv: string[];
  method: string;
  path: string;
  requests: number;
  records?: [number, string];
  then?: { contentType: string; bytes: number };
  /** A control route of the emulator, which its request log does not list. */
  control?: true;
}

const size = (name: string) => statSync(example(name)).size;

const SENDING: Sending[] = [
  { argv: ['classify', '--text', 'hello', '--user-id', 'u1'], method: 'POST', path: '/v1/content', requests: 1 },
  { argv: ['classify', '--batch', example('items.jsonl'), '--user-id', 'u1', '--concurrency', '1'], method: 'POST', path: '/v1/content', requests: 5, records: [5, 'lines'] },
  { argv: ['classify', '--each', example('post.txt'), example('comment.txt'), '--user-id', 'u1', '--concurrency', '1'], method: 'POST', path: '/v1/content', requests: 2, records: [2, 'files'] },
  { argv: ['data', 'add', 'listings', example('listings.jsonl'), '--batch-size', '2', '--concurrency', '1'], method: 'POST', path: '/v1/data/listings', requests: 2, records: [3, 'objects'] },
  { argv: ['data', 'import', 'listings', example('listings.jsonl')], method: 'POST', path: '/v1/data/listings/import', requests: 2, then: { contentType: 'application/json', bytes: size('listings.jsonl') } },
  { argv: ['settings', 'put', 'listings', example('schema.json')], method: 'PUT', path: '/v1/data/listings/settings', requests: 1 },
  { argv: ['stream', 'watch', 'games', '--id', 's1', '--url', 'https://example.com/live'], method: 'POST', path: '/v1/streams/games', requests: 1 },
  { argv: ['stream', 'parts', 'games', example('parts.jsonl'), '--id', 's1', '--batch-size', '3'], method: 'POST', path: '/v1/streams/games/parts', requests: 3, records: [8, 'parts'] },
  { argv: ['decision', 'create', '--type', 'text', '--content', '{"text":"hi"}'], method: 'POST', path: '/v1/decisions', requests: 1 },
  { argv: ['import', 'create', example('records.jsonl')], method: 'POST', path: '/v1/import', requests: 2, then: { contentType: 'application/jsonl', bytes: size('records.jsonl') } },
  { argv: ['batch', 'create', '--type', 'text', example('reviews.csv')], method: 'POST', path: '/v1/batches', requests: 2, then: { contentType: 'text/csv', bytes: size('reviews.csv') } },
  { argv: ['token', 'create', '--user-id', 'u1'], method: 'POST', path: '/v1/access_tokens', requests: 1 },
  { argv: ['events', 'send', example('events.jsonl'), '--concurrency', '1', '--batch-size', '3'], method: 'POST', path: '/v1/async/events', requests: 3, records: [7, 'events'] },
  { argv: ['events', 'send', example('events.jsonl'), '--sync', '--concurrency', '1'], method: 'POST', path: '/v1/events', requests: 1, records: [7, 'events'] },
  { argv: ['agent-decision', 'create', '--content-type', 'listings', '--decision', 'match', '--policy-id', 'violence', '--reference-id', 'listing-1'], method: 'POST', path: '/v1/agent_decisions', requests: 1 },
  { argv: ['agent-decision', 'send', example('agent-decisions.jsonl'), '--concurrency', '1'], method: 'POST', path: '/v1/agent_decisions', requests: 3, records: [3, 'lines'] },
  { argv: ['deletion-request', 'create', '--subject-user-id', 'u42', '--external-request-id', 'dsr-2026-0042'], method: 'POST', path: '/v1/deletion_requests', requests: 1 },
  { argv: ['deletion-request', 'send', example('deletion-requests.jsonl'), '--concurrency', '1'], method: 'POST', path: '/v1/deletion_requests', requests: 3, records: [3, 'lines'] },
  { argv: ['emulator', 'reset'], method: 'POST', path: '/_emulator/reset', requests: 1, control: true },
  { argv: ['webhooks', 'trigger', 'workflow.succeeded', '--namespace', 'listings', '--id', 'listing-7'], method: 'POST', path: '/_emulator/webhooks/trigger', requests: 1, control: true },
];

/** The commands that send nothing to the service, and so take no --dry-run: they read, wait, or work on this machine. */
const NOT_SENDING = new Set([
  'auth login', 'auth logout', 'auth status', 'config get', 'config set', 'config unset', 'config list', 'version', 'completion',
  'data status', 'data download', 'decision get', 'import get', 'batch get', 'batch download',
  'events example', 'emulator start', 'emulator exec', 'emulator status', 'webhooks verify', 'webhooks listen',
]);

const commandOf = (argv: readonly string[]) => argv.slice(0, argv[0] === 'classify' ? 1 : 2).join(' ');

describe('--dry-run on every command that sends', () => {
  const emulator = useEmulatorProcess();
  const dir = tempDir();
  // In process (main() over buffers) against the emulator's process: every path given is absolute.
  const run = (args: string[]) => runInProcess(args, { env: emulator.env });
  const logged = async () => (await emulator.requests()).filter((entry) => !String(entry.path).startsWith('/_emulator'));
  beforeEach(() => emulator.control('/_emulator/reset', { method: 'POST' }));

  it('is declared, with the one help text, by every command that sends and by no other', () => {
    const commands = [...walkTree(TREE)].flatMap(({ path, node }) => (isGroup(node) ? [] : [{ path, node }]));
    const declaring = commands.filter(({ node }) => node.flags?.dryRun !== undefined);
    for (const { path, node } of declaring) assert.deepEqual(node.flags!.dryRun, DRY_RUN_FLAG, path.join(' '));
    const sending = new Set(SENDING.map(({ argv }) => commandOf(argv)));
    assert.deepEqual(new Set(declaring.map(({ path }) => path.join(' '))), sending);
    const runnable = commands.map(({ path }) => path.join(' '));
    const unaccounted = runnable.filter((command) => !sending.has(command) && !NOT_SENDING.has(command));
    assert.deepEqual(unaccounted, [], 'every command either sends (and takes --dry-run) or is listed as sending nothing');
  });

  for (const command of SENDING) {
    it(`csafe ${command.argv.join(' ')} --dry-run: the plan, nothing sent; then the real run sends exactly that`, async () => {
      const dry = await run([...command.argv, '--dry-run', '--json']);
      assert.equal(dry.code, 0, dry.stderr);
      for (const text of [dry.stdout, dry.stderr]) assert.ok(!text.includes(emulator.apiKey), 'the API key is never shown');
      const plan = JSON.parse(dry.stdout) as Plan;
      assert.equal(plan.dry_run, true);
      assert.equal(plan.request_count, command.requests);
      assert.deepEqual(plan.records === undefined ? undefined : [plan.record_count, plan.records], command.records);
      const [first, upload] = plan.requests;
      assert.equal(first!.method, command.method);
      assert.equal(new URL(first!.url!).pathname, command.path);
      assert.equal(first!.headers.authorization, '[REDACTED]');
      assert.deepEqual(await logged(), [], 'nothing reached the service');
      if (command.then) {
        assert.equal(upload!.method, 'PUT');
        assert.equal(upload!.url, null);
        assert.match(upload!.url_from!, new RegExp(`the answer to ${command.method} ${command.path}$`));
        assert.deepEqual([upload!.headers['content-type'], upload!.body_bytes, upload!.headers.authorization], [command.then.contentType, command.then.bytes, undefined]);
      } else {
        assert.equal(upload, undefined);
      }
      if (command.control) return;

      const real = await run([...command.argv, '--json']);
      assert.equal(real.code, 0, real.stderr);
      const sent = (await logged()).filter((entry) => entry.path === command.path);
      assert.equal(sent.length, command.then ? 1 : command.requests, 'the real run sent as many requests as planned');
      const body = sent[0]!.body as string | null;
      if (first!.body !== undefined) assert.deepEqual(JSON.parse(body!), first!.body, 'the first request as planned');
      if (first!.headers['content-length'] !== undefined) assert.equal(String(sent[0]!.content_length), first!.headers['content-length']);
      assert.equal(sent[0]!.service_version, first!.headers['service-version'] ?? null);
      if (command.then) {
        const put = (await logged()).find((entry) => entry.method === 'PUT');
        assert.deepEqual([put?.content_type, put?.content_length], [command.then.contentType, command.then.bytes]);
      }
    });
  }

  it('readable on a terminal (-o table): the count, then the first request, its headers and its JSON body', async () => {
    const result = await run(['data', 'add', 'listings', example('listings.jsonl'), '--batch-size', '2', '--dry-run', '-o', 'table']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^dry run: nothing was sent; csafe would send 2 requests \(3 objects\); the first:\n\nPOST http:\/\/127\.0\.0\.1:\d+\/v1\/data\/listings\n/);
    assert.match(result.stdout, /\nauthorization: \[REDACTED\]\n/);
    assert.match(result.stdout, /\n\{\n {2}"data": \[\n {4}\{\n {6}"id": "listing-1",/);
    const upload = await run(['batch', 'create', '--type', 'text', example('reviews.csv'), '--dry-run', '-o', 'table']);
    assert.match(upload.stdout, /csafe would send these 2 requests:\n\nPOST .*\/v1\/batches\n[^]*\n\nPUT <the upload address in the answer to POST \/v1\/batches>\n[^]*content-type: text\/csv\n[^]*\(150 bytes of .*reviews\.csv\)\n$/);
  });

  it('invalid input: the same one line per problem as a real run, exit 2, nothing sent and no file written', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"id":"a"}\n{"name":"no id"}\n');
    const files = ['skipped.jsonl', 'failed.jsonl', 'checkpoint.json'].map((name) => join(dir, name));
    const [skipped, failed, checkpoint] = files as [string, string, string];
    const result = await run(['data', 'add', 'listings', bad, '--dry-run', '--skip-invalid', skipped, '--failed', failed, '--checkpoint', checkpoint]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`${bad}:2: id: missing`));
    assert.equal(result.stdout, '');
    const events = await run(['events', 'send', bad, '--dry-run']);
    assert.equal(events.code, 2);
    assert.match(events.stderr, new RegExp(`${bad}:1: type: is required`));
    const valid = await run(['data', 'add', 'listings', example('listings.jsonl'), '--dry-run', '--skip-invalid', skipped, '--failed', failed, '--checkpoint', checkpoint]);
    assert.equal(valid.code, 0, valid.stderr);
    assert.deepEqual(files.filter((file) => existsSync(file)), [], 'a dry run writes no file');
    assert.deepEqual(await logged(), []);
  });

  it('data import: a bad line past the part checked before the address is asked for is still found (exit 2)', async () => {
    const big = join(dir, 'big.jsonl');
    const line = (i: number) => JSON.stringify({ id: `obj_${i}`, text: 'x'.repeat(200) });
    writeFileSync(big, Array.from({ length: 20_000 }, (_, i) => line(i)).join('\n') + '\n{"text":"no id"}\n');
    const result = await run(['data', 'import', 'listings', big, '--dry-run']);
    assert.equal(result.code, 2, result.stdout);
    assert.match(result.stderr, new RegExp(`${big}:20001: id`));
    assert.equal(result.stdout, '');
    assert.deepEqual(await logged(), []);
  });

  it('--checkpoint is read as a real run reads it: what it covers is not planned, one of another input is refused; it is never written', async () => {
    const checkpoint = join(dir, 'events-checkpoint.json');
    const sent = await run(['events', 'send', example('events.jsonl'), '--checkpoint', checkpoint]);
    assert.equal(sent.code, 0, sent.stderr);
    await emulator.control('/_emulator/reset', { method: 'POST' });
    const written = readFileSync(checkpoint, 'utf8');
    const covered = await run(['events', 'send', example('events.jsonl'), '--checkpoint', checkpoint, '--dry-run', '--json']);
    assert.equal(covered.code, 0, covered.stderr);
    assert.deepEqual([JSON.parse(covered.stdout).request_count, JSON.parse(covered.stdout).record_count], [0, 0]);
    const other = join(dir, 'three-events.jsonl');
    writeFileSync(other, readFileSync(example('events.jsonl'), 'utf8').split('\n').slice(0, 3).join('\n') + '\n');
    const refused = await run(['events', 'send', other, '--checkpoint', checkpoint, '--dry-run']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /belongs to another input/);
    assert.equal(readFileSync(checkpoint, 'utf8'), written, 'the checkpoint as the real run left it');
    assert.deepEqual(await logged(), []);
  });

  it('data import --schema, the service remembered to lack …/requests/upload-url: the settings, the import request, then the upload', async () => {
    const config = tempDir('csafe-config-');
    writeFileSync(join(config, 'service.json'), JSON.stringify({ profiles: { default: { base_url: new URL(emulator.baseUrl).href, lacking: { 'upload-url': new Date().toISOString() } } } }), { mode: 0o600 });
    const result = await runCsafe(['data', 'import', 'listings', example('listings.jsonl'), '--schema', example('schema.json'), '--dry-run', '--json'], { env: { ...emulator.env, CSAFE_CONFIG_DIR: config }, cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const plan = JSON.parse(result.stdout) as Plan;
    assert.deepEqual(plan.requests.map((r) => `${r.method} ${r.url === null ? r.url_from : new URL(r.url).pathname}`), [
      'PUT /v1/data/listings/settings',
      'POST /v1/data/listings/import',
      'PUT the upload address in the answer to POST /v1/data/listings/import',
    ]);
    assert.deepEqual(await logged(), []);
  });

  it('needs no configured service, and --emulator starts none: each request shown by its path, a note on stderr, no data directory made', async () => {
    const state = join(tempDir(), 'emulator-data');
    const alone = await runCsafe(['events', 'send', example('events.jsonl'), '--dry-run', '--json'], { env: { CSAFE_EMULATOR_DATA_DIR: state }, cwd: dir });
    assert.equal(alone.code, 0, alone.stderr);
    assert.match(alone.stderr, /no base URL configured; each request is shown by its path/);
    const plan = JSON.parse(alone.stdout) as Plan;
    assert.deepEqual([plan.requests[0]!.url, plan.requests[0]!.headers.authorization], ['/v1/async/events', undefined]);
    const local = await runCsafe(['--emulator', 'classify', '--text', 'hi', '--user-id', 'u1', '--dry-run', '--json'], { env: { CSAFE_EMULATOR_DATA_DIR: state }, cwd: dir });
    assert.equal(local.code, 0, local.stderr);
    assert.equal((JSON.parse(local.stdout) as Plan).requests[0]!.url, '/v1/content');
    assert.equal(existsSync(state), false, 'no emulator started');
  });

  it('a reader of stdout that goes away (| head) ends a dry run as any command: exit 0, nothing on stderr', async () => {
    const many = join(dir, 'many.jsonl');
    writeFileSync(many, Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: `obj_${i}`, text: 'x'.repeat(100) })).join('\n') + '\n');
    const child = spawnCsafe(['data', 'add', 'listings', many, '--batch-size', '5000', '--dry-run', '--json'], { env: emulator.env, cwd: dir });
    child.stdout.once('data', () => child.stdout.destroy());
    const result = await ended(child);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
  });

  it('stream parts --follow never ends, so it refuses --dry-run (exit 2)', async () => {
    const result = await run(['stream', 'parts', 'games', '--id', 's1', '--chat', 'hi', '--sender-id', 'u1', '--sender-name', 'Al', '--follow', '--dry-run']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--dry-run reads the input to its end, and --follow never ends/);
  });
});
