import assert from 'node:assert/strict';
import { once } from 'node:events';
import { appendFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { runInProcess } from '../helpers/in-process.js';
import { runCsafe, spawnCsafe, startEmulatorProcess, tempDir, type EmulatorProcess, exitOf } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { writeLargeJsonl } from '../helpers/jsonl.js';
import { pathToFileURL } from 'node:url';

/** Counts the opens and reads of one file by the process (test/helpers/read-log.ts). */
const READ_LOG = pathToFileURL(join(import.meta.dirname, '../helpers/read-log.js')).href;

type LogEntry = Record<string, unknown> & { method: string; path: string; status: number };

const objectsFile = (path: string, count: number) =>
  writeFileSync(path, Array.from({ length: count }, (_, n) => JSON.stringify({ id: `item_${n}`, title: `Road bike ${n}`, price: n })).join('\n') + '\n');

const spoolDirs = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('csafe-spool-'));

// Most runs go through main() in this process: what they check needs no process of its own. The
// reads of the file (traced by a preload), the spool in TMPDIR and Ctrl-C are checked on bin/csafe itself.
describe('csafe data import', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();
  const file = join(dir, 'listings.jsonl');
  objectsFile(file, 300);
  const size = statSync(file).size;
  const run = (args: string[], input?: string) => runInProcess(args, { env: emulator.env, input });
  const log = async () => (await emulator.requests()) as LogEntry[];
  const uploads = async () => (await log()).filter((entry) => entry.path.startsWith('/_storage/imports/'));
  const importRequests = async () => (await log()).filter((entry) => entry.method === 'POST' && entry.path.endsWith('/import'));

  before(async () => {
    emulator = await startEmulatorProcess(['--processing-delay', '200ms']);
  });
  after(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => emulator.control('/_emulator/reset', { method: 'POST' }));

  it('uploads the file with its Content-Length, unchunked and without Authorization; --wait prints the import record', async () => {
    const result = await run(['data', 'import', 'listings', file, '--wait', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const record = JSON.parse(result.stdout);
    assert.equal(record.status, 'succeeded');
    assert.equal(record.data_count, 300);
    assert.match(record.data_url, /\/_storage\/outputs\//);
    assert.ok(!Number.isNaN(Date.parse(record.data_expires_at)));
    assert.match(result.stderr, /uploaded \d+\.\d kB in \d+\.\d s .* as req_/);

    // The emulator logs a request once its body has ended, and a body cut short ends when the emulator sees the socket close.
    const [put, ...others] = await waitFor(async () => {
      const entries = await uploads();
      return entries.length > 0 && entries;
    }, { what: 'the cut-short upload in the request log' });
    assert.equal(others.length, 0);
    assert.equal(put!.method, 'PUT');
    assert.equal(put!.status, 200);
    assert.equal(put!.content_length, size);
    assert.equal(put!.transfer_encoding, null);
    assert.equal(put!.content_type, 'application/json');
    assert.equal(put!.auth, 'missing', 'no Authorization header reached the upload address');
  });

  it('prints the upload without --wait, as JSON, as key: value lines or as TSV', async () => {
    const json = await run(['data', 'import', 'listings', file, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const summary = JSON.parse(json.stdout);
    assert.match(summary.request_id, /^req_/);
    assert.equal(summary.object_key, `imports/listings/${summary.request_id}.jsonl`);
    assert.equal(summary.bytes, size);
    assert.equal(summary.import_requests, 1);
    const table = await run(['data', 'import', 'listings', file, '-o', 'table']);
    assert.match(table.stdout, /^namespace: +listings\n/);
    assert.match(table.stdout, new RegExp(`^bytes: +\\d+(\\.\\d)? kB \\(${size} bytes\\)$`, 'm'), 'a size for people, the number beside it');
    const tsv = await run(['data', 'import', 'listings', file, '-o', 'tsv']);
    const [header, values] = tsv.stdout.split('\n').map((line) => line.split('\t'));
    assert.equal(values![header!.indexOf('bytes')], String(size));
  });

  it('refuses an invalid line with exit 2, naming file:line and field, and requests nothing', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"id":"a"}\n{"id":"b"}\n{"title":"no id"}\n{"id":"c",}\n');
    const result = await run(['data', 'import', 'listings', bad, '--wait']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`^${bad}:3: id: missing; every object needs its own "id"`, 'm'));
    assert.match(result.stderr, new RegExp(`^${bad}:4: invalid JSON at column 11`, 'm'));
    assert.match(result.stderr, /2 invalid lines; nothing was sent/);
    assert.deepEqual(await log(), [], 'no import requested, nothing uploaded');
  });

  it('refuses a JSON array in one line saying so, and points to jq and to data add, which takes one; requests nothing', async () => {
    const array = join(dir, 'items.json');
    writeFileSync(array, `[\n${Array.from({ length: 227 }, (_, n) => `  {"id": "o${n}", "title": "t"}`).join(',\n')}\n]\n`);
    const result = await run(['data', 'import', 'listings', array]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr, [
      `error: ${array}: is a JSON array, expected JSON Lines: one JSON object per line`,
      `hint: make it JSON Lines with \`jq -c '.[]' ${array} > objects.jsonl\`, or send it as it is with \`csafe data add listings ${array}\`, which takes a JSON array`,
      '',
    ].join('\n'));
    const piped = await run(['data', 'import', 'listings', '-'], readFileSync(array, 'utf8'));
    assert.equal(piped.code, 2, piped.stderr);
    assert.match(piped.stderr, /^error: stdin: is a JSON array, .*\nhint: pipe it through `jq -c '\.\[\]'` first, or send it as it is with `csafe data add listings -`/);
    assert.deepEqual(await log(), [], 'no import requested, nothing uploaded');
    const older = await run(['import', 'create', array]);
    assert.equal(older.code, 2, older.stderr);
    assert.match(older.stderr, /is a JSON array, expected JSON Lines: one JSON object per line\nhint: make it JSON Lines with `jq -c/);
  });

  it('checks and uploads a file of several chunks in one read of it', async () => {
    const large = join(dir, 'large.jsonl');
    const bytes = writeLargeJsonl(large, 3_500_000);
    const reads = join(dir, 'reads.json');
    const result = await runCsafe(['data', 'import', 'listings', large, '--json'], { env: { ...emulator.env, NODE_OPTIONS: `--import=${READ_LOG}`, CSAFE_READ_LOG: reads, CSAFE_READ_LOG_PATH: large } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).bytes, bytes);
    assert.deepEqual(JSON.parse(readFileSync(reads, 'utf8')), { opens: 1, bytes }, 'opened once, each byte read once by the check and the upload together');
    rmSync(large);
  });

  it('an invalid line late in a file stops the upload before its last byte: the store keeps nothing, the line is reported as ever', async () => {
    const late = join(dir, 'late.jsonl');
    writeLargeJsonl(late, 3_500_000);
    const lines = readFileSync(late, 'utf8').split('\n').length - 1;
    appendFileSync(late, '{"title":"no id"}\n{"id":"after"}\n{"id":""}\n');
    const result = await run(['data', 'import', 'listings', late, '--json']);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, new RegExp(`^${late}:${lines + 1}: id: missing; every object needs its own "id"`, 'm'));
    assert.match(result.stderr, new RegExp(`^${late}:${lines + 3}: id: expected a non-empty string id`, 'm'));
    assert.match(result.stderr, /2 invalid lines; nothing was sent/);
    // The emulator logs a request once its body has ended, and a body cut short ends when the emulator sees the socket close.
    const [put, ...others] = await waitFor(async () => {
      const entries = await uploads();
      return entries.length > 0 && entries;
    }, { what: 'the cut-short upload in the request log' });
    assert.equal(others.length, 0);
    assert.notEqual(put!.status, 200, 'the upload was not completed');
    assert.equal((await importRequests()).length, 1, 'the import was requested once the first chunk had passed');
    // The emulator logs the upload once it has dealt with it, and an upload it keeps makes the import
    // `ingesting` before that: still `queued` now, the store kept nothing and nothing will be processed.
    const requestId = /\/(req_\w+)\.jsonl$/.exec(put!.path)![1];
    const record = await fetch(`${emulator.baseUrl}/v1/data/listings/requests/${requestId}`, { headers: { authorization: `Bearer ${emulator.apiKey}` } });
    const { status, data_count: count } = (await record.json()) as { status: string; data_count: number };
    assert.ok(status === 'queued' && count === 0, `import ${status} with ${count} objects`);
    rmSync(late);
  });

  it('refuses a first line over the limit (longer than a chunk) naming file:1, with exit 2 and nothing requested', async () => {
    const long = join(dir, 'long-first.jsonl');
    writeFileSync(long, `{"id":"a","text":"${'x'.repeat(11 * 1024 * 1024)}"}\n{"id":"b"}\n`);
    const result = await run(['data', 'import', 'listings', long]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^error: .*long-first\.jsonl:1: line is longer than 10 MiB; nothing was sent$/m);
    assert.deepEqual(await log(), [], 'nothing requested, not even an import request');
    rmSync(long);
  });

  it('csafe and the emulator name a bad line with the same message', async () => {
    const badLines = ['[{"id":"a"}]', '{"title":"no id"}', '{"id":7}', '{"id":""}', '{"id":"c",}', '"just text"'];
    for (const [n, badLine] of badLines.entries()) {
      const path = join(dir, `bad-${n}.jsonl`);
      writeFileSync(path, `{"id":"a"}\r\n${badLine}\r\n`);
      const checked = await run(['data', 'import', 'listings', path]);
      assert.equal(checked.code, 2, checked.stderr);
      const byCsafe = new RegExp(`^${path}:2: (.*)$`, 'm').exec(checked.stderr)?.[1];
      const uploaded = await run(['data', 'import', 'listings', path, '--no-validate', '--wait']);
      assert.equal(uploaded.code, 1, uploaded.stderr);
      const byEmulator = /failed: line 2: (.*)$/m.exec(uploaded.stderr)?.[1];
      assert.ok(byCsafe !== undefined, checked.stderr);
      assert.equal(byEmulator, byCsafe, badLine);
    }
  });

  it("the upload address answers a chunked upload with 411, as an object store does", async () => {
    const response = await fetch(`${emulator.baseUrl}/v1/data/listings/import`, { method: 'POST', headers: { authorization: `Bearer ${emulator.apiKey}` } });
    const { upload_url: uploadUrl } = (await response.json()) as { upload_url: string };
    // Written in two pieces with no Content-Length, the body goes chunked.
    const put = request(uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/json' } });
    put.write('{"id":"a"}\n');
    put.end('{"id":"b"}\n');
    const [answer] = (await once(put, 'response')) as [import('node:http').IncomingMessage];
    let body = '';
    for await (const chunk of answer) body += chunk;
    assert.equal(answer.statusCode, 411);
    assert.match(body, /<Code>MissingContentLength<\/Code>/);
    const [logged] = await uploads();
    assert.equal(logged!.transfer_encoding, 'chunked');
  });

  it('replaces an expired upload address by a new import request', async () => {
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { expired_upload_urls: 1 } });
    const result = await run(['data', 'import', 'listings', file, '--wait', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).data_count, 300);
    assert.match(result.stderr, /upload address of req_\S+ expired/);
    const [first, second] = await importRequests();
    assert.ok(first && second, 'two imports requested');
    const stored = (await uploads()).filter((entry) => entry.status === 200);
    assert.equal(stored.length, 1);
  });

  it('retries a failed upload from its first byte', async () => {
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { failing_uploads: 1 } });
    const result = await run(['data', 'import', 'listings', file, '--wait', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).data_count, 300);
    const attempts = await uploads();
    assert.deepEqual(attempts.map((entry) => entry.status), [503, 200]);
    assert.ok(attempts.every((entry) => entry.content_length === size && entry.path === attempts[0]!.path), 'the same address, the whole file each time');
    assert.equal((await importRequests()).length, 1);
  });

  it('an upload whose every answer was lost but which landed is a success: the import request is looked up, not made again', async () => {
    // The store keeps the file, then holds each answer past --request-timeout.
    await emulator.control('/_emulator/faults', { method: 'POST', body: { faults: [{ kind: 'timeout', times: 3, delay_ms: 4000, method: 'PUT', path: '/_storage/imports/:namespace/:file' }] } });
    const result = await runCsafe(['--request-timeout', '1s', '--max-retries', '2', 'data', 'import', 'listings', file, '--json'], { env: emulator.env });
    assert.equal(result.code, 0, result.stderr);
    const summary = JSON.parse(result.stdout);
    assert.equal(summary.upload_retries, 2);
    assert.match(result.stderr, new RegExp(`${summary.request_id} has its file`));
    assert.equal((await importRequests()).length, 1);
  });

  it('an upload that fails names the import request it created, which an upload address need not name', async () => {
    await emulator.control('/_emulator/faults', { method: 'POST', body: { faults: [{ kind: 'cut', times: 3, method: 'PUT', path: '/_storage/imports/:namespace/:file' }] } });
    const result = await run(['data', 'import', 'listings', file, '--max-retries', '2']);
    assert.equal(result.code, 1, result.stderr);
    assert.equal((await importRequests()).length, 1);
    const requestId = /req_[0-9a-f]+/.exec((await uploads())[0]!.path)![0];
    assert.match(result.stderr, new RegExp(`^${requestId} was created, but its file was not uploaded$`, 'm'));
  });

  it('Ctrl-C while the store holds its answer to a whole upload does not say the file was not uploaded', async () => {
    await emulator.control('/_emulator/faults', { method: 'POST', body: { faults: [{ kind: 'timeout', delay_ms: 20_000, method: 'PUT', path: '/_storage/imports/:namespace/:file' }] } });
    const child = spawnCsafe(['--verbose', 'data', 'import', 'listings', file], { env: emulator.env });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = exitOf(child);
    const [requestId] = await waitFor(() => /→ PUT \S+\/(req_[0-9a-f]+)\.jsonl/.exec(stderr)?.slice(1), { what: 'the upload' });
    // The file has landed; only its answer is held.
    await waitFor(async () => ((await emulator.control(`/v1/data/listings/requests/${requestId}`)) as { status: string }).status !== 'queued', { what: 'the upload to land' });
    child.kill('SIGINT');
    assert.equal(await exited, 130, stderr);
    assert.doesNotMatch(stderr, /its file was not uploaded/);
    assert.match(stderr, new RegExp(`^interrupted: ${requestId} was created and its file sent, but csafe left before the upload address answered: it may have the file$`, 'm'));
  });

  it('imports stdin through a temporary file that is removed afterwards', async () => {
    const tmp = tempDir();
    const lines = '{"id":"s1","title":"a"}\n{"id":"s2","title":"b"}\n';
    const result = await runCsafe(['data', 'import', 'listings', '-', '--wait', '--json'], { env: { ...emulator.env, TMPDIR: tmp }, input: lines });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).data_count, 2);
    assert.equal((await uploads())[0]!.content_length, Buffer.byteLength(lines));
    assert.deepEqual(spoolDirs(tmp), []);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('Ctrl-C while stdin is being spooled exits 130 and removes the spool file', async () => {
    const tmp = tempDir();
    const child = spawnCsafe(['data', 'import', 'listings', '-'], { env: { ...emulator.env, TMPDIR: tmp } });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = exitOf(child);
    child.stdin.write('{"id":"a"}\n'); // …and stdin stays open, as a slow producer's would.
    await waitFor(() => spoolDirs(tmp).length === 1, { what: 'the spool directory' });
    child.kill('SIGINT');
    const code = await exited;
    assert.equal(code, 130, stderr);
    assert.deepEqual(spoolDirs(tmp), []);
    assert.deepEqual(await log(), [], 'nothing requested');
    rmSync(tmp, { recursive: true, force: true });
  });
});

describe('csafe data import --wait, cut short', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();
  const file = join(dir, 'one.jsonl');
  objectsFile(file, 1);
  before(async () => {
    // Each answer takes 600 ms; an import takes a minute to process.
    emulator = await startEmulatorProcess(['--processing-delay', '60s', '--latency', '600']);
  });
  after(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--timeout after the verb limits the wait (exit 124), not each request', async () => {
    const result = await runInProcess(['data', 'import', 'listings', file, '--wait', '--timeout', '500ms'], { env: emulator.env });
    assert.equal(result.code, 124, result.stderr);
    assert.match(result.stderr, /timed out waiting for request req_/);
    assert.match(result.stderr, /1 request still pending; check on it with:\n\s+csafe data status listings req_\S+ --wait/);
  });

  it('Ctrl-C while waiting exits 130, says how to check the request later, and leaves no spool', async () => {
    const tmp = tempDir();
    const child = spawnCsafe(['data', 'import', 'listings', '-', '--wait'], { env: { ...emulator.env, TMPDIR: tmp } });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = exitOf(child);
    child.stdin.end('{"id":"a"}\n');
    await waitFor(() => /uploaded .* as req_/.test(stderr), { what: 'the upload' });
    child.kill('SIGINT');
    const code = await exited;
    assert.equal(code, 130, stderr);
    assert.match(stderr, /uploaded .* as (req_\S+)[\s\S]*1 request still pending; check on it with:\n\s+csafe data status listings \1 --wait/);
    assert.deepEqual(spoolDirs(tmp), []);
    rmSync(tmp, { recursive: true, force: true });
  });
});

describe('csafe data import, an upload whose answer was lost and whose address then expired', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();
  const file = join(dir, 'listings.jsonl');
  objectsFile(file, 3);
  before(async () => {
    // Addresses that live 2 to 3 s (whole seconds): the first attempt is sent in time, its retry 3 s later is not.
    emulator = await startEmulatorProcess(['--processing-delay', '0', '--upload-ttl', '3s']);
  });
  after(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks whether the file arrived instead of importing it again under a second request', async () => {
    // The store keeps the file, then holds its answer past --request-timeout: the upload landed, csafe cannot tell.
    await emulator.control('/_emulator/faults', { method: 'POST', body: { faults: [{ kind: 'timeout', delay_ms: 6000, method: 'PUT', path: '/_storage/imports/:namespace/:file' }] } });
    const result = await runCsafe(['--request-timeout', '3s', 'data', 'import', 'listings', file, '--json'], { env: emulator.env });
    assert.equal(result.code, 0, result.stderr);
    const log = (await emulator.requests()) as LogEntry[];
    const imports = log.filter((entry) => entry.method === 'POST' && entry.path.endsWith('/import'));
    assert.equal(imports.length, 1, `one import request, not one per address: ${result.stderr}`);
    assert.deepEqual(log.filter((entry) => entry.path.startsWith('/_storage/')).map((entry) => entry.status), [200, 403]);
    const summary = JSON.parse(result.stdout);
    assert.equal(summary.import_requests, 1);
    assert.equal(summary.upload_retries, 1);
    assert.match(result.stderr, new RegExp(`${summary.request_id} has its file`));
  });
});
