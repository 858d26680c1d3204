import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { EXAMPLES, startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { eventsText } from '../helpers/events.js';

/**
 * The exit-code table (README "Exit codes"), command by command, against one emulator: every
 * command's success, usage error and credentials; each bulk command's every ending; each wait's
 * failed state and timeout.
 */

interface Row {
  /** Why the command ends with `code`. */
  why: string;
  /** After `csafe`; a function for a row that needs something created first (an id). */
  args: string[] | (() => Promise<string[]>);
  code: number;
  input?: string;
  /** `key`: the emulator's key (the default); `missing`: none at all; `refused`: one the emulator does not know. */
  key?: 'key' | 'missing' | 'refused';
}

const dir = tempDir();
// The runs are in this process: what they write where they run (a failed file by its default name) lands here.
process.chdir(dir);
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const jsonl = (...values: unknown[]) => values.map((value) => JSON.stringify(value)).join('\n') + '\n';
/** A checkpoint whose lock the test runner (this process's parent, alive throughout) holds: a run given it finds another live run on it. */
const heldCheckpoint = (name: string) => {
  const path = join(dir, name);
  writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.ppid, host: hostname(), since: 'now' }));
  return path;
};

/** Base64 of the right size whose bytes are no image: the service would refuse it, so csafe does before sending. */
const NOT_AN_IMAGE = { content: [{ type: 'image', source: { type: 'base64', data: 'aGVsbG8=' } }] };
const lines = {
  ok: file('lines-ok.jsonl', jsonl({ text: 'hello' }, { text: 'see you' })),
  notImages: file('lines-not-images.jsonl', jsonl({ text: 'hello' }, NOT_AN_IMAGE)),
  refusedThenFlagged: file('lines-refused-flagged.jsonl', jsonl({ text: 'hello' }, { text: 'I will kill you' })),
  invalid: file('lines-invalid.jsonl', jsonl({ text: 'hello' }, { content_id: 'nothing to classify' })),
  allInvalid: file('lines-all-invalid.jsonl', jsonl({ content_id: 'c1' }, { content_id: 'c2' })),
  flagged: file('lines-flagged.jsonl', jsonl({ text: 'hello' }, { text: 'I will kill you' })),
};
const INVALID_EVENT = { type: 'content_uploaded', user_id: 'user_x' };
const events = {
  ok: file('events-ok.jsonl', eventsText(2, 2)),
  invalid: file('events-invalid.jsonl', eventsText(1, 1) + jsonl(INVALID_EVENT)),
  allInvalid: file('events-all-invalid.jsonl', jsonl(INVALID_EVENT, INVALID_EVENT)),
};
const objects = {
  ok: file('objects-ok.jsonl', jsonl({ id: 'obj_1', text: 'listing 1' }, { id: 'obj_2', text: 'listing 2' })),
  invalid: file('objects-invalid.jsonl', jsonl({ id: 'obj_1', text: 'listing 1' }, { text: 'no id' })),
  allInvalid: file('objects-all-invalid.jsonl', jsonl({ text: 'no id' }, { text: 'no id either' })),
  /** Accepted, then failed: under the `photos` schema, `photo` must be an http(s) URL. */
  unprocessable: file('objects-unprocessable.jsonl', jsonl({ id: 'obj_9', photo: 'not a url' })),
};
const PART = { type: 'transcript', text: 'welcome back', timestamp: '2026-11-21T10:00:01Z' };
const parts = {
  ok: file('parts-ok.jsonl', jsonl(PART, { ...PART, text: 'and goodbye' })),
  invalid: file('parts-invalid.jsonl', jsonl(PART, { type: 'transcript' })),
  allInvalid: file('parts-all-invalid.jsonl', jsonl({ type: 'transcript' }, { type: 'nonsense' })),
};
const records = join(EXAMPLES, 'records.jsonl');
const LISTING = { id: 'obj_1', text: 'listing 1' };
const reviews = join(EXAMPLES, 'reviews.csv');
const skipFile = () => join(dir, `skipped-${crypto.randomUUID()}.jsonl`);

/**
 * Long enough that a wait started right after its request was created is still waiting when its
 * 1 ms --timeout runs out, even on a loaded machine (the rows run in this process: the request and
 * the wait's first poll are milliseconds apart); short, as every row that waits to the end takes it.
 */
const PROCESSING_DELAY = '3s';
let emulator: EmulatorProcess;
const run = (args: readonly string[], row: Pick<Row, 'input' | 'key'> = {}) => {
  const env = { missing: { CSAFE_BASE_URL: emulator.baseUrl }, refused: { ...emulator.env, CSAFE_API_KEY: 'sk_test_refused' }, key: emulator.env }[row.key ?? 'key'];
  // In process: the code is main()'s answer to the arguments; every path in the rows is absolute.
  return runInProcess(args, { env, input: row.input });
};
/**
 * What a row needs created first, created by a direct request (not a csafe process: a row that
 * waits must start well inside the emulator's processing delay). Returns the id.
 */
const create = async (path: string, body: unknown, field: string) => {
  const answer = (await emulator.control(path, { method: 'POST', body })) as Record<string, unknown>;
  assert.equal(typeof answer[field], 'string', JSON.stringify(answer));
  return answer[field] as string;
};
const dataRequest = (namespace: string, ...data: unknown[]) => create(`/v1/data/${namespace}`, { data }, 'requestId');
const decision = (content: unknown, type = 'text') => create('/v1/decisions', { type, content }, 'decision_id');
/** A batch or older import created by hand and never given its file: it waits for the upload for ever. */
const waitingForUpload = (path: '/v1/batches' | '/v1/import') => create(path, path === '/v1/batches' ? { type: 'text' } : undefined, path === '/v1/batches' ? 'batch_id' : 'import_id');
/** A value a row needs from an earlier command's JSON output (an id). */
const created = async (args: readonly string[], field: string) => {
  const result = await run([...args, '--json']);
  assert.equal(result.code, 0, result.stderr);
  return String((JSON.parse(result.stdout) as Record<string, unknown>)[field]);
};
const cancelledBatch = async () => {
  const id = await waitingForUpload('/v1/batches');
  await emulator.control(`/_emulator/batches/${id}/cancel`, { method: 'POST' });
  return id;
};

/** What every command that calls the service does with a usage error and with no key or a refused one. */
const basics = (args: string[], options: { credentials?: boolean } = {}): Row[] => [
  { why: 'an unknown flag', args: [...args, '--no-such-flag'], code: 2 },
  ...(options.credentials === false
    ? []
    : [
        { why: 'no API key', args, code: 3, key: 'missing' as const },
        { why: 'a refused key', args, code: 3, key: 'refused' as const },
      ]),
];

const ROWS: Row[] = [
  // classify
  { why: 'classified', args: ['classify', '--text', 'hello', '--user-id', 'u1'], code: 0 },
  { why: '--fail-on held', args: ['classify', '--text', 'I will kill you', '--user-id', 'u1', '--fail-on', 'match'], code: 4 },
  ...basics(['classify', '--text', 'hello', '--user-id', 'u1']),
  // classify --batch
  { why: 'every line classified', args: ['classify', '--batch', lines.ok, '--user-id', 'u1'], code: 0 },
  { why: 'image lines whose bytes are no image: refused before sending', args: ['classify', '--batch', lines.notImages, '--user-id', 'u1'], code: 2 },
  { why: 'an invalid line, no --skip-invalid', args: ['classify', '--batch', lines.invalid, '--user-id', 'u1'], code: 2 },
  { why: '--skip-invalid, nothing valid', args: ['classify', '--batch', lines.allInvalid, '--user-id', 'u1', '--skip-invalid', skipFile()], code: 2 },
  { why: '--skip-invalid, some valid', args: ['classify', '--batch', lines.invalid, '--user-id', 'u1', '--skip-invalid', skipFile()], code: 5 },
  { why: '--fail-on held', args: ['classify', '--batch', lines.flagged, '--user-id', 'u1', '--fail-on', 'match'], code: 4 },
  ...basics(['classify', '--batch', lines.ok, '--user-id', 'u1']),
  // token
  { why: 'created', args: ['token', 'create'], code: 0 },
  ...basics(['token', 'create']),
  // auth
  { why: 'stored, once the service took it', args: ['auth', 'login', '--with-token'], input: 'KEY\n', code: 0 },
  { why: 'the service refused the key', args: ['auth', 'login', '--with-token'], input: 'sk_test_refused\n', code: 3, key: 'missing' },
  { why: 'stored unchecked', args: ['auth', 'login', '--with-token', '--no-verify'], input: 'sk_test_unchecked\n', code: 0, key: 'missing' },
  { why: 'the emulator\'s own key', args: ['--emulator', 'auth', 'status'], code: 0, key: 'missing' },
  { why: 'a key is configured', args: ['auth', 'status'], code: 0 },
  { why: 'no key configured', args: ['auth', 'status'], code: 3, key: 'missing' },
  { why: 'removed', args: ['auth', 'logout'], code: 0 },
  ...basics(['auth', 'login'], { credentials: false }),
  ...basics(['auth', 'status'], { credentials: false }),
  ...basics(['auth', 'logout'], { credentials: false }),
  // config
  { why: 'set', args: ['config', 'set', 'user_id', 'u1'], code: 0 },
  { why: 'a value refused', args: ['config', 'set', 'max_retries', 'many'], code: 2 },
  { why: 'not set', args: ['config', 'get', 'user_id'], code: 1 },
  { why: 'listed', args: ['config', 'list'], code: 0 },
  { why: 'unset', args: ['config', 'unset', 'user_id'], code: 0 },
  ...basics(['config', 'set', 'user_id', 'u1'], { credentials: false }),
  ...basics(['config', 'get', 'user_id'], { credentials: false }),
  ...basics(['config', 'list'], { credentials: false }),
  ...basics(['config', 'unset', 'user_id'], { credentials: false }),
  // settings
  { why: 'put', args: ['settings', 'put', 'listings', '--field', 'title::title'], code: 0 },
  ...basics(['settings', 'put', 'listings', '--field', 'title::title']),
  // data add (its faulted rows below)
  { why: 'every object added', args: ['data', 'add', 'listings', objects.ok], code: 0 },
  { why: 'an invalid object, no --skip-invalid', args: ['data', 'add', 'listings', objects.invalid], code: 2 },
  { why: '--skip-invalid, nothing valid', args: ['data', 'add', 'listings', objects.allInvalid, '--skip-invalid', skipFile()], code: 2 },
  { why: '--skip-invalid, some valid', args: ['data', 'add', 'listings', objects.invalid, '--skip-invalid', skipFile()], code: 5 },
  { why: '--wait: every request succeeded', args: ['data', 'add', 'listings', objects.ok, '--wait'], code: 0 },
  { why: '--wait: a request ended failed', args: async () => (await photosSchema(), ['data', 'add', 'photos', objects.unprocessable, '--wait']), code: 1 },
  { why: '--wait timed out', args: ['data', 'add', 'listings', objects.ok, '--wait', '--timeout', '1ms'], code: 124 },
  { why: 'another run holds the checkpoint', args: ['data', 'add', 'listings', objects.ok, '--checkpoint', heldCheckpoint('add-held.json')], code: 75 },
  ...basics(['data', 'add', 'listings', objects.ok]),
  // data import
  { why: 'uploaded', args: ['data', 'import', 'listings', objects.ok], code: 0 },
  { why: 'an invalid line', args: ['data', 'import', 'listings', objects.invalid], code: 2 },
  { why: '--wait: succeeded', args: ['data', 'import', 'listings', objects.ok, '--wait'], code: 0 },
  { why: '--wait timed out', args: ['data', 'import', 'listings', objects.ok, '--wait', '--timeout', '1ms'], code: 124 },
  ...basics(['data', 'import', 'listings', objects.ok]),
  // data status
  { why: 'shown', args: async () => ['data', 'status', 'listings', await dataRequest('listings', LISTING)], code: 0 },
  { why: '--wait: succeeded', args: async () => ['data', 'status', 'listings', await dataRequest('listings', LISTING), '--wait'], code: 0 },
  { why: '--wait: the request ended failed', args: async () => ['data', 'status', 'photos', await photosRequest(), '--wait'], code: 1 },
  { why: '--wait timed out', args: async () => ['data', 'status', 'listings', await dataRequest('listings', LISTING), '--wait', '--timeout', '1ms'], code: 124 },
  { why: 'no such request', args: ['data', 'status', 'listings', 'req_unknown'], code: 1 },
  ...basics(['data', 'status', 'listings', 'req_unknown']),
  // import (older)
  { why: 'uploaded', args: ['import', 'create', records], code: 0 },
  { why: 'an invalid line', args: ['import', 'create', file('records-invalid.jsonl', jsonl({ type: 'text' }))], code: 2 },
  { why: '--wait: COMPLETE', args: ['import', 'create', records, '--wait'], code: 0 },
  { why: '--wait timed out', args: ['import', 'create', records, '--wait', '--timeout', '1ms'], code: 124 },
  ...basics(['import', 'create', records]),
  { why: 'shown', args: async () => ['import', 'get', await created(['import', 'create', records], 'import_id')], code: 0 },
  { why: '--wait: FAILED', args: async () => ['import', 'get', await failedImport(), '--wait'], code: 1 },
  { why: '--wait timed out', args: async () => ['import', 'get', await waitingForUpload('/v1/import'), '--wait', '--timeout', '1ms'], code: 124 },
  ...basics(['import', 'get', 'imp_unknown']),
  // events send (its faulted rows below)
  { why: 'every event sent', args: ['events', 'send', events.ok], code: 0 },
  { why: 'an invalid event, no --skip-invalid', args: ['events', 'send', events.invalid], code: 2 },
  { why: '--skip-invalid, nothing valid', args: ['events', 'send', events.allInvalid, '--skip-invalid', skipFile()], code: 2 },
  { why: '--skip-invalid, some valid', args: ['events', 'send', events.invalid, '--skip-invalid', skipFile()], code: 5 },
  { why: '--dry-run, all valid', args: ['events', 'send', events.ok, '--dry-run'], code: 0 },
  { why: '--dry-run, an invalid event', args: ['events', 'send', events.invalid, '--dry-run'], code: 2 },
  { why: 'another run holds the checkpoint', args: ['events', 'send', events.ok, '--checkpoint', heldCheckpoint('events-held.json')], code: 75 },
  ...basics(['events', 'send', events.ok]),
  // events example
  { why: 'printed', args: ['events', 'example', 'create_account'], code: 0 },
  { why: 'an unknown type', args: ['events', 'example', 'no_such_type'], code: 2 },
  ...basics(['events', 'example'], { credentials: false }),
  // stream watch
  { why: 'watched', args: ['stream', 'watch', 'live', '--id', 'show-1', '--url', 'https://example.com/live/1.m3u8'], code: 0 },
  { why: 'a URL of no stream scheme', args: ['stream', 'watch', 'live', '--id', 'show-1', '--url', 'ftp://example.com/1'], code: 2 },
  ...basics(['stream', 'watch', 'live', '--id', 'show-1', '--url', 'https://example.com/live/1.m3u8']),
  // stream parts (its faulted rows below)
  { why: 'every part sent', args: ['stream', 'parts', 'live', '--id', 'show-2', parts.ok], code: 0 },
  { why: 'an invalid part, no --skip-invalid', args: ['stream', 'parts', 'live', '--id', 'show-2', parts.invalid], code: 2 },
  { why: '--skip-invalid, nothing valid', args: ['stream', 'parts', 'live', '--id', 'show-2', parts.allInvalid, '--skip-invalid', skipFile()], code: 2 },
  { why: '--skip-invalid, some valid', args: ['stream', 'parts', 'live', '--id', 'show-2', parts.invalid, '--skip-invalid', skipFile()], code: 5 },
  { why: '--follow, --skip-invalid, nothing valid', args: ['stream', 'parts', 'live', '--id', 'show-3', '--follow', '--skip-invalid', skipFile()], input: jsonl({ type: 'transcript' }), code: 2 },
  { why: '--follow, --skip-invalid, some valid', args: ['stream', 'parts', 'live', '--id', 'show-3', '--follow', '--skip-invalid', skipFile()], input: jsonl(PART, { type: 'transcript' }), code: 5 },
  ...basics(['stream', 'parts', 'live', '--id', 'show-2', parts.ok]),
  // decision
  { why: 'created', args: ['decision', 'create', '--type', 'text', '--content', '{"text":"see you"}'], code: 0 },
  { why: '--wait: SUCCESS', args: ['decision', 'create', '--type', 'text', '--content', '{"text":"see you"}', '--wait'], code: 0 },
  { why: '--wait: ERROR', args: ['decision', 'create', '--type', 'listing', '--content', '{"price": 12}', '--wait'], code: 1 },
  { why: '--wait timed out', args: ['decision', 'create', '--type', 'text', '--content', '{"text":"see you"}', '--wait', '--timeout', '1ms'], code: 124 },
  ...basics(['decision', 'create', '--type', 'text', '--content', '{"text":"see you"}']),
  { why: 'shown', args: async () => ['decision', 'get', await decision({ text: 'hi' })], code: 0 },
  { why: '--wait: ERROR', args: async () => ['decision', 'get', await decision({ price: 1 }, 'listing'), '--wait'], code: 1 },
  { why: '--wait timed out', args: async () => ['decision', 'get', await decision({ text: 'hi' }), '--wait', '--timeout', '1ms'], code: 124 },
  ...basics(['decision', 'get', 'dec_000000000000000000000000']),
  // batch (older)
  { why: 'created', args: ['batch', 'create', '--type', 'text', reviews], code: 0 },
  { why: 'a CSV without its column', args: ['batch', 'create', '--type', 'text', file('no-column.csv', 'nothing,here\n1,2\n')], code: 2 },
  { why: '--wait: SUCCESS', args: ['batch', 'create', '--type', 'text', reviews, '--wait'], code: 0 },
  { why: '--wait timed out', args: ['batch', 'create', '--type', 'text', reviews, '--wait', '--timeout', '1ms'], code: 124 },
  ...basics(['batch', 'create', '--type', 'text', reviews]),
  { why: 'shown', args: async () => ['batch', 'get', await created(['batch', 'create', '--type', 'text', reviews], 'batch_id')], code: 0 },
  { why: '--wait: CANCELLED', args: async () => ['batch', 'get', await cancelledBatch(), '--wait'], code: 1 },
  { why: '--wait timed out', args: async () => ['batch', 'get', await waitingForUpload('/v1/batches'), '--wait', '--timeout', '1ms'], code: 124 },
  ...basics(['batch', 'get', 'bat_unknown']),
  { why: 'downloaded', args: async () => ['batch', 'download', await created(['batch', 'create', '--type', 'text', reviews, '--wait'], 'batch_id')], code: 0 },
  { why: 'no result yet', args: async () => ['batch', 'download', await cancelledBatch()], code: 1 },
  ...basics(['batch', 'download', 'bat_unknown']),
  // emulator (its start, ended by Ctrl-C, is how every e2e test gets its emulator)
  { why: 'a port out of range', args: ['emulator', 'start', '--port', '70000'], code: 2 },
  ...basics(['emulator', 'start'], { credentials: false }),
];

/** The `photos` namespace, whose `photo` field must hold http(s) URLs. */
async function photosSchema(): Promise<void> {
  const result = await run(['settings', 'put', 'photos', '--field', 'photo:image_url:primary_image_url']);
  assert.equal(result.code, 0, result.stderr);
}
const photosRequest = async () => (await photosSchema(), dataRequest('photos', { id: 'obj_9', photo: 'not a url' }));

/** An older import whose file the service cannot process. */
async function failedImport(): Promise<string> {
  const { import_id: id, upload_url: url } = (await emulator.control('/v1/import', { method: 'POST' })) as { import_id: string; upload_url: string };
  const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/jsonl' }, body: '{"type":"text"}\n' });
  assert.equal(put.status, 200);
  return id;
}

/**
 * Rows where the service refuses requests (the emulator's failing_requests quirk answers the next
 * N with 503): one record a request, one request at a time, no retries, so `failing` decides which.
 */
const ONE_AT_A_TIME = ['--batch-size', '1', '--concurrency', '1'];
const FAULTED: Array<Row & { failing: number }> = [
  { why: 'every batch refused', args: ['--max-retries', '0', 'events', 'send', events.ok, ...ONE_AT_A_TIME], failing: 100, code: 1 },
  { why: 'the first batch refused', args: ['--max-retries', '0', 'events', 'send', events.ok, ...ONE_AT_A_TIME], failing: 1, code: 5 },
  { why: 'every batch refused', args: ['--max-retries', '0', 'data', 'add', 'listings', objects.ok, ...ONE_AT_A_TIME], failing: 100, code: 1 },
  { why: 'the first batch refused', args: ['--max-retries', '0', 'data', 'add', 'listings', objects.ok, ...ONE_AT_A_TIME], failing: 1, code: 5 },
  { why: 'every batch refused', args: ['--max-retries', '0', 'stream', 'parts', 'live', '--id', 'show-4', parts.ok, '--batch-size', '1'], failing: 100, code: 1 },
  { why: 'the first batch refused', args: ['--max-retries', '0', 'stream', 'parts', 'live', '--id', 'show-5', parts.ok, '--batch-size', '1'], failing: 1, code: 5 },
  { why: 'every line refused', args: ['--max-retries', '0', 'classify', '--batch', lines.ok, '--user-id', 'u1', '--concurrency', '1'], failing: 100, code: 1 },
  { why: 'the first line refused', args: ['--max-retries', '0', 'classify', '--batch', lines.ok, '--user-id', 'u1', '--concurrency', '1'], failing: 1, code: 5 },
  { why: '--fail-on held and a line refused: partial wins', args: ['--max-retries', '0', 'classify', '--batch', lines.refusedThenFlagged, '--user-id', 'u1', '--concurrency', '1', '--fail-on', 'match'], failing: 1, code: 5 },
];

const title = (row: Row) => `${typeof row.args === 'function' ? `${row.why} (after setup)` : row.args.map((arg) => arg.replace(dir, '…')).join(' ')}: ${row.why} → ${row.code}${row.key && row.key !== 'key' ? ` (${row.key} key)` : ''}`;

async function check(row: Row): Promise<void> {
  const args = typeof row.args === 'function' ? await row.args() : row.args;
  const result = await run(args, { ...row, input: row.input?.replace('KEY', emulator.apiKey) });
  assert.equal(result.code, row.code, `csafe ${args.join(' ')}\nstdout: ${result.stdout.slice(0, 1000)}\nstderr: ${result.stderr}`);
}

describe('exit codes: one table for every command', () => {
  before(async () => {
    emulator = await startEmulatorProcess(['--processing-delay', PROCESSING_DELAY]);
  });
  after(() => emulator?.stop());

  describe('rows that share the emulator', { concurrency: 8 }, () => {
    for (const row of ROWS) it(title(row), () => check(row));
  });

  describe('rows where the service refuses requests, one at a time', () => {
    for (const row of FAULTED) {
      it(`${title(row)} (${row.failing} refused)`, async () => {
        await emulator.control('/_emulator/quirks', { method: 'POST', body: { failing_requests: row.failing } });
        try {
          await check(row);
        } finally {
          await emulator.control('/_emulator/quirks', { method: 'POST', body: { failing_requests: 0 } });
        }
      });
    }
  });
});
