import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { jsonl, manualClock, put, rawHttp, s3Code } from './data-support.js';
import { assertError, call, callOk, startTestEmulator, useTestEmulator, withEmulator } from './support.js';

interface Created {
  import_id: string;
  import_status: string;
  upload_url: string;
}

interface OlderImport {
  import_id: string;
  import_status: string;
  s3_key?: string;
  filename?: string;
  created_at: string;
  error?: { message: string };
}

const JSONL = { 'Content-Type': 'application/jsonl' };
const LINES = [
  { type: 'text', data: { text: 'hello there' } },
  { type: 'listing', data: { title: 'bike', price: 20 } },
];

const createImport = (emulator: RunningEmulator) => callOk<Created>(emulator, 'POST', '/v1/import');
const getImport = (emulator: RunningEmulator, id: string) => callOk<OlderImport>(emulator, 'GET', `/v1/import/${id}`);

const waitForImport = (emulator: RunningEmulator, id: string, statuses: readonly string[]) =>
  waitFor(async () => {
    const found = await getImport(emulator, id);
    return statuses.includes(found.import_status) && found;
  }, { what: `import ${id} to be ${statuses.join(' or ')}` });

describe('emulator: older imports', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });

  test('POST /v1/import issues an import WAITING_FOR_UPLOAD with a signed upload URL valid for 1 hour', async () => {
    const before = Date.now();
    const created = await createImport(emulator);
    assert.match(created.import_id, /^imp_[0-9a-f]{24}$/);
    assert.equal(created.import_status, 'WAITING_FOR_UPLOAD');
    const url = new URL(created.upload_url);
    assert.equal(`${url.origin}${url.pathname}`, `${emulator.baseUrl}/_storage/older-imports/${created.import_id}.jsonl`);
    const expires = Number(url.searchParams.get('X-Csafe-Expires')) * 1000;
    assert.ok(Math.abs(expires - before - 3600_000) < 5000, `expires ${new Date(expires).toISOString()}`);
    const found = await getImport(emulator, created.import_id);
    assert.deepEqual(Object.keys(found).sort(), ['created_at', 'import_id', 'import_status']);
    assert.equal(found.import_status, 'WAITING_FOR_UPLOAD');
    assert.ok(Math.abs(Date.parse(found.created_at) - before) < 5000);
    assert.equal((await call(emulator, 'POST', '/v1/import', { json: {} })).status, 200);
  });

  test('a body with fields is a 400 naming the field; an unknown import is a 404', async () => {
    assertError(await call(emulator, 'POST', '/v1/import', { json: { file: 'x.jsonl' } }), 400, 'file');
    assertError(await call(emulator, 'GET', '/v1/import/imp_000000000000000000000000'), 404);
    assertError(await call(emulator, 'GET', '/v1/import/../../secret'), 404);
    assertError(await call(emulator, 'GET', '/v1/import/req_000000000000000000000000'), 404);
  });

  test('a valid file (kinds mixed, BOM, CRLF, blank lines) completes; s3_key and filename are set once uploaded', async () => {
    const created = await createImport(emulator);
    const body = `\uFEFF${JSON.stringify(LINES[0])}\r\n\r\n${JSON.stringify(LINES[1])}\r\n`;
    const reply = await put(created.upload_url, body, JSONL);
    assert.equal(reply.status, 200, reply.text);
    const done = await waitForImport(emulator, created.import_id, ['COMPLETE', 'FAILED']);
    assert.deepEqual(done, {
      import_id: created.import_id,
      import_status: 'COMPLETE',
      s3_key: `older-imports/${created.import_id}.jsonl`,
      filename: `${created.import_id}.jsonl`,
      created_at: done.created_at,
    });
  });

  test('a file with an invalid line is FAILED, and the error names the line and the field', async () => {
    const cases: Array<[string, RegExp]> = [
      [`${jsonl(LINES)}{"type": "text", "data": }\n`, /^line 3: invalid JSON/],
      [jsonl([LINES[0], { data: {} }]), /^line 2: type: is required/],
      [jsonl([{ type: '', data: {} }]), /^line 1: type: expected a non-empty string/],
      [jsonl([{ type: 'text', data: 'hello' }]), /^line 1: data: expected a JSON object/],
      [jsonl([{ type: 'text', data: [] }]), /^line 1: data: expected a JSON object/],
      [jsonl([LINES[0], ['text', {}]]), /^line 2: expected a JSON object \{"type"/],
    ];
    for (const [body, message] of cases) {
      const created = await createImport(emulator);
      assert.equal((await put(created.upload_url, body, JSONL)).status, 200);
      const failed = await waitForImport(emulator, created.import_id, ['COMPLETE', 'FAILED']);
      assert.equal(failed.import_status, 'FAILED', body);
      assert.match(failed.error!.message, message);
      assert.equal(failed.s3_key, `older-imports/${created.import_id}.jsonl`);
    }
  });

  test('the upload follows the object-store rules: Content-Type application/jsonl, Content-Length, no Authorization, the signed key', async () => {
    const created = await createImport(emulator);
    const other = await createImport(emulator);
    const wrongType = await put(created.upload_url, jsonl(LINES), { 'Content-Type': 'application/json' });
    assert.equal(wrongType.status, 403);
    assert.equal(s3Code(wrongType.text), 'SignatureDoesNotMatch');
    assert.match(wrongType.text, /signed for Content-Type &#34;application\/jsonl&#34;/);
    const chunked = await rawHttp(created.upload_url, 'PUT {path} HTTP/1.1\r\nContent-Type: application/jsonl\r\nTransfer-Encoding: chunked', '2\r\n{}\r\n0\r\n\r\n');
    assert.equal(s3Code(chunked), 'MissingContentLength');
    const withKey = await put(created.upload_url, jsonl(LINES), { ...JSONL, Authorization: `Bearer ${emulator.apiKey}` });
    assert.equal(withKey.status, 400);
    assert.equal(s3Code(withKey.text), 'InvalidArgument');
    const otherKey = created.upload_url.replace(created.import_id, other.import_id);
    assert.equal(s3Code((await put(otherKey, jsonl(LINES), JSONL)).text), 'SignatureDoesNotMatch');
    assert.equal((await getImport(emulator, created.import_id)).import_status, 'WAITING_FOR_UPLOAD');
    assert.equal((await getImport(emulator, other.import_id)).import_status, 'WAITING_FOR_UPLOAD');
  });

  test('quirk expired_upload_urls: the next import is handed an expired URL, which the store refuses', async () => {
    await call(emulator, 'POST', '/_emulator/quirks', { json: { expired_upload_urls: 1 } });
    const expired = await createImport(emulator);
    assert.ok(Number(new URL(expired.upload_url).searchParams.get('X-Csafe-Expires')) * 1000 < Date.now());
    const refused = await put(expired.upload_url, jsonl(LINES), JSONL);
    assert.equal(refused.status, 403);
    assert.equal(s3Code(refused.text), 'AccessDenied');
    assert.equal((await getImport(emulator, expired.import_id)).import_status, 'WAITING_FOR_UPLOAD');
    const fresh = await createImport(emulator);
    assert.equal((await put(fresh.upload_url, jsonl(LINES), JSONL)).status, 200);
  });

  test('quirk unknown_values: the import carries a field the spec does not list', async () => {
    const created = await createImport(emulator);
    await call(emulator, 'POST', '/_emulator/quirks', { json: { unknown_values: true } });
    assert.equal((await getImport(emulator, created.import_id) as unknown as { priority: string }).priority, 'normal');
  });

  test('reset forgets imports and their uploads', async () => {
    const created = await createImport(emulator);
    await put(created.upload_url, jsonl(LINES), JSONL);
    await call(emulator, 'POST', '/_emulator/reset');
    assertError(await call(emulator, 'GET', `/v1/import/${created.import_id}`), 404);
    const again = await put(created.upload_url, jsonl(LINES), JSONL);
    assert.equal(again.status, 404);
    assert.equal(s3Code(again.text), 'NoSuchUpload');
  });
});

describe('emulator: older import timing', () => {
  const clock = manualClock();
  const emulator = useTestEmulator({ now: clock.now, processingDelayMs: 1000 });

  test('IN_PROGRESS once the file lands, COMPLETE after --processing-delay', async () => {
    const created = await createImport(emulator);
    assert.equal((await put(created.upload_url, jsonl(LINES), JSONL)).status, 200);
    const inProgress = await getImport(emulator, created.import_id);
    assert.equal(inProgress.import_status, 'IN_PROGRESS');
    assert.equal(inProgress.s3_key, `older-imports/${created.import_id}.jsonl`);
    clock.advance(1000);
    await waitForImport(emulator, created.import_id, ['COMPLETE']);
  });

  test('past 1 hour the upload URL is 403 AccessDenied "Request has expired"', async () => {
    const created = await createImport(emulator);
    clock.advance(3600_000);
    const reply = await put(created.upload_url, jsonl(LINES), JSONL);
    assert.equal(reply.status, 403);
    assert.equal(s3Code(reply.text), 'AccessDenied');
    assert.match(reply.text, /Request has expired/);
  });
});

describe('emulator: older imports in the data directory', () => {
  test('a restarted emulator answers for earlier imports and takes uploads to their earlier upload URLs', async () => {
    const dataDir = tempDir('csafe-emulator-older-');
    const { waiting, complete } = await withEmulator({ dataDir }, async (emulator) => {
      const created = { waiting: await createImport(emulator), complete: await createImport(emulator) };
      await put(created.complete.upload_url, jsonl(LINES), JSONL);
      await waitForImport(emulator, created.complete.import_id, ['COMPLETE']);
      return created;
    });
    await withEmulator({ dataDir }, async (emulator) => {
      assert.equal((await getImport(emulator, complete.import_id)).import_status, 'COMPLETE');
      const moved = new URL(waiting.upload_url);
      assert.equal((await put(`${emulator.baseUrl}${moved.pathname}${moved.search}`, jsonl(LINES), JSONL)).status, 200);
      await waitForImport(emulator, waiting.import_id, ['COMPLETE']);
    });
  });

  test('fault injection applies to the older import routes', async () => {
    const faulty = await startTestEmulator({ faults: { rate: 1, kinds: ['503'], seed: 1, delayMs: 0 } });
    try {
      assertError(await call(faulty, 'POST', '/v1/import'), 503);
      assertError(await call(faulty, 'GET', '/v1/import/imp_000000000000000000000000'), 503);
    } finally {
      await faulty.close();
    }
  });
});
