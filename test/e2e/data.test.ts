import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { runInProcess } from '../helpers/in-process.js';
import { runCsafe, spawnCsafe, startEmulatorProcess, tempDir, withEmulatorProcess, type EmulatorProcess, exitOf } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

const objectsText = (count: number, text = (i: number) => `listing ${i}`) =>
  Array.from({ length: count }, (_, i) => JSON.stringify({ id: `obj_${i}`, text: text(i) })).join('\n') + '\n';

/** The namespace-data requests the emulator received (the request log also holds control calls). */
const dataRequests = async (emulator: EmulatorProcess) => (await emulator.requests()).filter((r) => String(r.path).startsWith('/v1/data/'));

/** The rows of `-o tsv`, without the header line. */
const tsvRows = (stdout: string) => stdout.replace(/\n$/, '').split('\n').slice(1).map((line) => line.split('\t'));

// Most runs go through main() in this process: what they check needs no process of its own. A
// spinner on a terminal, Ctrl-C and --emulator runs are checked on bin/csafe itself.
describe('csafe settings put and data add/status', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const run = (args: string[], input?: string) => runInProcess(args, { env: emulator.env, input });

  before(async () => {
    emulator = await startEmulatorProcess(['--processing-delay', '200ms']);
  });
  after(() => emulator.stop());
  beforeEach(() => emulator.control('/_emulator/reset', { method: 'POST' }));

  it('settings put sends a schema from a file or from --field', async () => {
    const photo = { content_type: 'image_url', display_hint: { type: 'primary_image_url' } };
    const schema = file('schema.json', JSON.stringify({ photo }));
    const fromFile = await run(['settings', 'put', 'listings', schema, '--json']);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.deepEqual(JSON.parse(fromFile.stdout), { namespace: 'listings', status: 'updated' });
    const fromFields = await run(['settings', 'put', 'listings', '--field', 'photo:image_url:primary_image_url', '--field', 'title::title', '-o', 'tsv']);
    assert.equal(fromFields.code, 0, fromFields.stderr);
    assert.deepEqual(tsvRows(fromFields.stdout), [['listings', 'updated']]);
    assert.deepEqual(
      (await dataRequests(emulator)).map((r) => [`${r.method} ${r.path} ${r.status}`, JSON.parse(String(r.body))]),
      [
        ['PUT /v1/data/listings/settings 200', { schema: { photo } }],
        ['PUT /v1/data/listings/settings 200', { schema: { photo, title: { display_hint: { type: 'title' } } } }],
      ],
    );
  });

  it('settings put reports every bad member with its line, exits 2 and sends nothing', async () => {
    const schema = file('bad-schema.json', '{\n  "photo": {"content_type": "image"},\n  "title": {"display_hint": {"type": "heading"}},\n  "price": {"field_limit": -1}\n}\n');
    const result = await run(['settings', 'put', 'listings', schema]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`${schema}:2: schema\\.photo\\.content_type: expected one of image_url, `));
    assert.match(result.stderr, new RegExp(`${schema}:3: schema\\.title\\.display_hint\\.type: expected one of title, `));
    assert.match(result.stderr, new RegExp(`${schema}:4: schema\\.price\\.field_limit: expected a positive number`));
    const flags = await run(['settings', 'put', 'listings', '--field', 'photo:picture']);
    assert.equal(flags.code, 2);
    assert.match(flags.stderr, /--field "photo:picture": content_type: expected one of/);
    assert.deepEqual(await dataRequests(emulator), []);
  });

  it('data add sends a JSON array from stdin in --batch-size batches, one record per request', async () => {
    const objects = JSON.parse(`[${objectsText(5).trim().split('\n').join(',')}]`);
    const result = await run(['data', 'add', 'listings', '-', '--batch-size', '2', '-o', 'tsv'], JSON.stringify(objects, null, 2));
    assert.equal(result.code, 0, result.stderr);
    const rows = tsvRows(result.stdout);
    assert.deepEqual(rows.map(([, status, count]) => [status, count]), [['accepted', '2'], ['accepted', '2'], ['accepted', '1']]);
    assert.ok(rows.every(([id]) => /^req_/.test(id!)));
    assert.deepEqual(rows.map((row) => row.slice(3)), [['2', '6'], ['10', '14'], ['18', '18']], 'the lines where the first and the last object of each batch start');
    assert.equal((await dataRequests(emulator)).filter((r) => r.method === 'POST').length, 3);
  });

  it('data add fills each request up to --max-batch-bytes, never over it', async () => {
    // 40 objects of one size: `{"data":[` + `]}` around them, and a comma after all but the last.
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ id: `obj_${String(i).padStart(2, '0')}`, text: 'x'.repeat(200) }));
    const cap = '{"data":[]}'.length + (lines[0]!.length + 1) * 7 - 1;
    const result = await run(['data', 'add', 'listings', '-', '--max-batch-bytes', String(cap), '--json'], lines.join('\n') + '\n');
    assert.equal(result.code, 0, result.stderr);
    const posts = (await dataRequests(emulator)).filter((r) => r.method === 'POST');
    // Requests run side by side (--concurrency), so they may arrive in any order: compare the sizes, largest first.
    assert.deepEqual(posts.map((r) => Number(r.content_length)).sort((a, b) => b - a), [cap, cap, cap, cap, cap, cap - (lines[0]!.length + 1) * 2], `requests of at most ${cap} bytes, each as full as it can be`);
    assert.deepEqual((JSON.parse(result.stdout) as Array<{ objects: number }>).map((r) => r.objects), [7, 7, 7, 7, 7, 5]);
  });

  it('data add sends each line of JSON Lines as written, read fast or the exact way: white space, CRLF, UTF-8 and a value over lines', async () => {
    const lines = ['{"id":"a","n":1}', '{ "id" : "café", "t" : "😀" }  ', '{"id":"b","big":12345678901234567890}', '{"items":[', '{"id":"inner"}', '],"id":"c"}', '{"id":"d"}'];
    const items = file('as-written.jsonl', lines.join('\r\n') + '\r\n');
    const result = await run(['data', 'add', 'listings', items, '--batch-size', '3', '--concurrency', '1', '-o', 'tsv']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(tsvRows(result.stdout).map((row) => row.slice(2)), [['3', '1', '3'], ['2', '4', '7']], 'objects and the lines of the first and last of each request');
    const bodies = (await dataRequests(emulator)).filter((r) => r.method === 'POST').map((r) => String(r.body));
    // Whatever way a line was read, the service gets the objects the file holds; a line read fast goes as written (its digits too).
    assert.deepEqual(bodies.flatMap((body) => JSON.parse(body).data), [{ id: 'a', n: 1 }, { id: 'café', t: '😀' }, JSON.parse(lines[2]!), { items: [{ id: 'inner' }], id: 'c' }, { id: 'd' }]);
    assert.ok(bodies[0]!.includes('{ "id" : "café", "t" : "😀" },') && bodies[0]!.includes('"big":12345678901234567890}'), bodies[0]);
  });

  it('data add refuses an invalid object naming file:line and field, and sends nothing', async () => {
    const items = file('invalid.jsonl', objectsText(2) + '{"id": ""}\n{"name": "no id"}\n');
    const result = await run(['data', 'add', 'listings', items]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`${items}:3: id: expected a non-empty string id`));
    assert.match(result.stderr, new RegExp(`${items}:4: id: missing; every object needs its own "id", a non-empty string`));
    assert.match(result.stderr, /nothing was sent/);
    assert.deepEqual(await dataRequests(emulator), []);
  });

  it('data add --skip-invalid writes each rejected line with its reason and sends the rest (exit 5: partial)', async () => {
    const skipped = join(dir, 'skipped.jsonl');
    const result = await run(['data', 'add', 'listings', '-', '--skip-invalid', skipped, '--json'], objectsText(2) + 'not json\n{"id": 7}\n');
    assert.equal(result.code, 5, result.stderr);
    assert.equal(JSON.parse(result.stdout)[0].objects, 2);
    const rejected = readFileSync(skipped, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(rejected.map((r) => [r.line, r.record]), [[3, 'not json'], [4, '{"id":7}']]);
    assert.match(rejected[0].error, /^invalid JSON/);
    assert.equal(rejected[1].error, 'id: expected a string id');
  });

  it('data add --wait prints each object with its labels and url (-o tsv), a table on a terminal, each request as data status does in a pipe', async () => {
    const items = file('wait.jsonl', objectsText(3, (i) => (i === 1 ? 'I will kill you' : `a quiet listing ${i}`)));
    const table = await run(['data', 'add', 'listings', items, '--wait', '--batch-size', '2', '-o', 'tsv']);
    assert.equal(table.code, 0, table.stderr);
    const rows = tsvRows(table.stdout);
    assert.deepEqual(rows.map(([id, status]) => [id, status]), [['obj_0', 'succeeded'], ['obj_1', 'succeeded'], ['obj_2', 'succeeded']]);
    assert.match(rows[1]![2]!, /violence:/);
    assert.match(rows[1]![3]!, /\/_emulator\/review\/listings\/obj_1\?X-Csafe-Signature=[0-9a-f]{64}$/);

    // The request must still be queued when the first answer to a poll is drawn, however loaded the
    // machine: an emulator that takes seconds, not the 200 ms of the others here.
    const onTerminal = await withEmulatorProcess(['--processing-delay', '3s'], (slow) =>
      runCsafe(['data', 'add', 'listings', items, '--wait'], { env: { ...slow.env, CSAFE_FORCE_TTY: '1', NO_COLOR: '1' }, cwd: dir }));
    assert.equal(onTerminal.code, 0, onTerminal.stderr);
    assert.match(onTerminal.stderr, /1 (queued|ingesting)/, 'the spinner counts requests per status');
    assert.match(onTerminal.stdout, /^ID +STATUS +LABELS +URL\n[^]*obj_1 +succeeded +violence/, 'no ERROR column: no object has one');
    assert.doesNotMatch(onTerminal.stdout, /[┌│─]/);

    const piped = await run(['data', 'add', 'listings', items, '--wait', '--batch-size', '2']);
    assert.equal(piped.code, 0, piped.stderr);
    const records = piped.stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.equal(records.length, 2, 'one line per request');
    assert.ok(records.every((record) => /^req_/.test(record.request_id) && record.status === 'succeeded'));
    const objects = records.flatMap((record) => record.data);
    assert.deepEqual(objects.map((o) => o.id), ['obj_0', 'obj_1', 'obj_2']);
    assert.ok(objects[1].output.labels.some((l: { label: string }) => l.label === 'violence'));
  });

  it('data add --wait exits 1 naming the request that ended failed', async () => {
    assert.equal((await run(['settings', 'put', 'shop', '--field', 'photo:image_url'])).code, 0);
    const result = await run(['data', 'add', 'shop', '-', '--wait', '-o', 'tsv'], '{"id": "p1", "photo": "not a url"}\n');
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /request req_\S+ failed: object "p1": /);
    assert.deepEqual(tsvRows(result.stdout).map(([id, status]) => [id, status]), [['p1', 'failed']]);
  });

  it('data status shows an add request as a table (-o tsv here), and as returned in a pipe or with --json', async () => {
    const added = await run(['data', 'add', 'listings', '-', '--json'], objectsText(2));
    const [{ request_id: id }] = JSON.parse(added.stdout);
    const waited = await run(['data', 'status', 'listings', id, '--wait', '--timeout', '20s']);
    assert.equal(waited.code, 0, waited.stderr);
    const tsv = await run(['data', 'status', 'listings', id, '-o', 'tsv']);
    assert.deepEqual(tsvRows(tsv.stdout).map(([objectId, status]) => [objectId, status]), [['obj_0', 'succeeded'], ['obj_1', 'succeeded']]);
    assert.deepEqual(JSON.parse((await run(['data', 'status', 'listings', id])).stdout), JSON.parse(waited.stdout), 'a pipe gets the record, --wait or not');
    const json = await run(['data', 'status', 'listings', id, '--json']);
    const record = JSON.parse(json.stdout);
    assert.deepEqual([record.request_id, record.namespace, record.status, record.data.length], [id, 'listings', 'succeeded', 2]);
    const missing = await run(['data', 'status', 'listings', 'req_nope']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /404/);
  });

  it('data status --wait on a request the service does not know is its 404 alone, not a request "still pending" to check again', async () => {
    const { code, stdout, stderr } = await run(['data', 'status', 'listings', 'req_nope', '--wait', '--timeout', '20s']);
    assert.equal(code, 1, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /^error: GET \/v1\/data\/listings\/requests\/req_nope: 404 not_found: /);
    assert.doesNotMatch(stderr, /pending/);
  });

  it('data status shows an import request as a summary', async () => {
    const created = await (await fetch(`${emulator.baseUrl}/v1/data/listings/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.apiKey}` },
    })).json() as { requestId: string; upload_url: string };
    assert.equal(await upload(created.upload_url, Buffer.from(objectsText(3))), 200);
    const waited = await run(['data', 'status', 'listings', created.requestId, '--wait', '-o', 'table']);
    assert.equal(waited.code, 0, waited.stderr);
    const summary = new Map(waited.stdout.trim().split('\n').map((line) => line.split(/: +/) as [string, string]));
    assert.equal(summary.get('status'), 'succeeded');
    assert.equal(summary.get('data_count'), '3');
    assert.match(summary.get('data_url') ?? '', /\/_storage\/outputs\//);
    const json = JSON.parse((await run(['data', 'status', 'listings', created.requestId, '--json'])).stdout);
    assert.equal(json.data_count, 3);
  });
});

/** PUT to a pre-signed URL the way an object-store client does: Content-Length, no Authorization. */
function upload(url: string, body: Buffer): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const put = request(url, { method: 'PUT', headers: { 'content-type': 'application/json', 'content-length': body.length } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    put.on('error', reject);
    put.end(body);
  });
}

describe('csafe data add under slow processing and failures', () => {
  const dir = tempDir();

  it('--wait --timeout exits 124 and Ctrl-C exits 130, both listing the pending requests', async () => {
    const slow = await startEmulatorProcess(['--processing-delay', '1h']);
    try {
      const timedOut = await runInProcess(['data', 'add', 'listings', '-', '--wait', '--timeout', '1s', '--batch-size', '1'], { env: slow.env, input: objectsText(2) });
      assert.equal(timedOut.code, 124, timedOut.stderr);
      assert.match(timedOut.stderr, /2 requests still pending/);
      assert.equal(timedOut.stderr.match(/csafe data status listings req_\S+ --wait/g)?.length, 2);

      await slow.control('/_emulator/reset', { method: 'POST' });
      const spoolDir = tempDir();
      const child = spawnCsafe(['data', 'add', 'listings', '-', '--wait'], { env: { ...slow.env, TMPDIR: spoolDir }, cwd: dir });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = exitOf(child);
      child.stdin.end(objectsText(1));
      await waitFor(async () => (await slow.requests()).some((r) => r.method === 'GET' && String(r.path).startsWith('/v1/data/listings/requests/')), {
        what: 'the first GET of the request status',
      });
      child.kill('SIGINT');
      assert.equal(await exited, 130);
      assert.match(stderr, /1 request still pending; check on it with:\n {2}csafe data status listings req_\S+ --wait\nerror: interrupted/);
      assert.deepEqual(readdirSync(spoolDir), [], 'the copy of stdin is removed');
    } finally {
      await slow.stop();
    }
  });

  it('batches that fail go to the failed file (exit 5), which resends cleanly: the namespace then holds every object once', async () => {
    // The same data directory for both emulators: the second one, without faults, holds what the first accepted.
    const dataDir = tempDir();
    const flaky = await startEmulatorProcess(['--fault-rate', '0.5', '--faults', '503', '--seed', '3', '--data-dir', dataDir]);
    const failed = join(dir, 'failed.jsonl');
    try {
      const result = await runInProcess(['data', 'add', 'listings', '-', '--batch-size', '1', '--max-retries', '0', '--failed', failed, '--json'], { env: flaky.env, input: objectsText(8) });
      assert.equal(result.code, 5, result.stderr);
      const accepted = JSON.parse(result.stdout) as Array<{ first_line: number }>;
      const resend = readFileSync(failed, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      assert.equal(accepted.length + resend.length, 8);
      assert.ok(accepted.length > 0 && resend.length > 0, `the seed makes some batches fail and some pass: ${accepted.length} accepted`);
      assert.match(result.stderr, /stdin:\d+: a batch of 1 object failed: POST \/v1\/data\/listings: 503/);
    } finally {
      await flaky.stop();
    }
    await withEmulatorProcess(['--data-dir', dataDir], async (steady) => {
      const again = await runInProcess(['data', 'add', 'listings', failed, '--wait'], { env: steady.env });
      assert.equal(again.code, 0, again.stderr);
      const { objects } = (await steady.control('/_emulator/data/listings')) as { objects: Array<{ id: string; adds: number }> };
      assert.deepEqual(objects.map((o) => o.id).sort(), Array.from({ length: 8 }, (_, i) => `obj_${i}`), 'every object, none missing');
      assert.deepEqual(objects.filter((o) => o.adds !== 1), [], 'no object added twice');
    });
  });

  it('csafe --emulator keeps requests between runs in its data dir', async () => {
    const env = { CSAFE_EMULATOR_DATA_DIR: tempDir() };
    const added = await runCsafe(['--emulator', 'data', 'add', 'listings', '-', '--json'], { env, input: objectsText(2), cwd: dir });
    assert.equal(added.code, 0, added.stderr);
    const [{ request_id: id }] = JSON.parse(added.stdout);
    const status = await runCsafe(['--emulator', 'data', 'status', 'listings', id, '--wait', '--json'], { env, cwd: dir });
    assert.equal(status.code, 0, status.stderr);
    assert.deepEqual(JSON.parse(status.stdout).data.map((o: { id: string }) => o.id), ['obj_0', 'obj_1']);
  });
});
