import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { MAX_LINE_BYTES } from '../../src/core/input/lines.js';
import { jsonl, put, rawHttp, requestImport, s3Code, waitForStatus, waitForTerminal, getRecord, manualClock } from './data-support.js';
import { waitFor } from '../helpers/wait.js';
import { assertError, call, useTestEmulator } from './support.js';

const OBJECTS = [
  { id: 'o1', text: 'hello there' },
  { id: 'o2', text: 'you are stupid' },
  { id: 'o3', photo: 'https://example.com/3.png' },
];

describe('emulator: data import and the object store', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });

  test('an import issues a pre-signed upload URL for its object key, valid for 12 hours', async () => {
    const before = Date.now();
    const issued = await requestImport(emulator, 'listings');
    assert.equal(issued.status, 'pending_upload');
    assert.match(issued.requestId, /^req_[0-9a-f]{24}$/);
    assert.equal(issued.objectKey, `imports/listings/${issued.requestId}.jsonl`);
    const url = new URL(issued.upload_url);
    assert.equal(`${url.origin}${url.pathname}`, `${emulator.baseUrl}/_storage/${issued.objectKey}`);
    assert.match(url.searchParams.get('X-Csafe-Signature')!, /^[0-9a-f]{64}$/);
    const expires = Number(url.searchParams.get('X-Csafe-Expires')) * 1000;
    assert.equal(Date.parse(issued.expires_at), expires);
    assert.ok(Math.abs(expires - before - 12 * 3600_000) < 5000);
    assert.equal((await getRecord(emulator, 'listings', issued.requestId)).status, 'queued');
    const withBody = await call(emulator, 'POST', '/v1/data/listings/import', { json: {} });
    assert.equal(withBody.status, 200);
    assert.equal((await call(emulator, 'POST', '/v1/data/listings/import', { json: { file: 'x' } })).status, 400);
  });

  test('a streamed upload is stored (200, ETag) and processed: data_count, then a downloadable data_url', async () => {
    const issued = await requestImport(emulator, 'listings');
    await call(emulator, 'PUT', '/v1/data/listings/settings', { json: { schema: { photo: { content_type: 'image_url' } } } });
    const body = jsonl(OBJECTS);
    const reply = await put(issued.upload_url, body);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.text, '');
    assert.equal(reply.headers.etag, `"${createHash('md5').update(body).digest('hex')}"`);

    const record = await waitForTerminal(emulator, 'listings', issued.requestId);
    assert.equal(record.status, 'succeeded', JSON.stringify(record));
    assert.equal(record.data_count, 3);
    assert.equal(record.data, undefined);
    assert.ok(Date.parse(record.data_expires_at!) > Date.now() + 23 * 3600_000);

    const download = await fetch(record.data_url!);
    assert.equal(download.status, 200);
    const lines = (await download.text()).trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((line) => line.id), ['o1', 'o2', 'o3']);
    assert.deepEqual(lines[1].output.labels, [{ label: 'harassment', score: 0.55, decision: 'review' }]);
    assert.match(lines[2].url, new RegExp(`^${emulator.baseUrl}/_emulator/review/listings/o3\\?X-Csafe-Signature=[0-9a-f]{64}$`));
    const review = await fetch(lines[1].url);
    assert.deepEqual(await review.json(), { namespace: 'listings', request_id: issued.requestId, ...lines[1] });
  });

  test('GET …/results/download-url answers the URL shape in every state, the data fields null until the output exists', async () => {
    const issued = await requestImport(emulator, 'listings');
    const url = `/v1/data/listings/requests/${issued.requestId}/results/download-url`;
    assert.deepEqual((await call(emulator, 'GET', url)).body, { data_count: null, data_expires_at: null, data_url: null, namespace: 'listings', request_id: issued.requestId, status: 'queued' });
    assert.equal((await put(issued.upload_url, jsonl(OBJECTS))).status, 200);
    await waitForTerminal(emulator, 'listings', issued.requestId);
    const ready = (await call(emulator, 'GET', url)).body as { data_count: number; data_url: string; status: string };
    assert.deepEqual([ready.status, ready.data_count], ['succeeded', 3]);
    const lines = (await (await fetch(ready.data_url)).text()).trim().split('\n');
    assert.equal(lines.length, 3);
    assert.equal((await call(emulator, 'GET', '/v1/data/listings/requests/req_nope/results/download-url')).status, 404);
  });

  test('each look-up of a succeeded import signs its data_url afresh; expired_download_urls hands out one already expired (403)', async () => {
    const issued = await requestImport(emulator, 'listings');
    assert.equal((await put(issued.upload_url, jsonl(OBJECTS))).status, 200);
    await waitForTerminal(emulator, 'listings', issued.requestId);
    await call(emulator, 'POST', '/_emulator/quirks', { json: { expired_download_urls: 1 } });
    const stale = await getRecord(emulator, 'listings', issued.requestId);
    assert.ok(Date.parse(stale.data_expires_at!) < Date.now(), stale.data_expires_at!);
    const refused = await fetch(stale.data_url!);
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /Request has expired/);
    const fresh = await getRecord(emulator, 'listings', issued.requestId);
    assert.notEqual(fresh.data_url, stale.data_url);
    assert.ok(Date.parse(fresh.data_expires_at!) > Date.now() + 23 * 3600_000);
    assert.equal((await fetch(fresh.data_url!)).status, 200);
  });

  test('a namespace outside [0-9a-z_-] is not found, as the service answers it, naming the rule; nothing is issued', async () => {
    for (const namespace of ['catalogue:été+1', 'Listings']) {
      const error = assertError(await call(emulator, 'POST', `/v1/data/${encodeURIComponent(namespace)}/import`), 404);
      assert.equal(error.message, `no namespace ${JSON.stringify(namespace)}: a namespace name has lowercase letters, digits, "_" and "-" only ([0-9a-z_-], case-sensitive)`);
    }
  });

  test('an invalid line fails the import, naming the line; so does an unprocessable object', async () => {
    await call(emulator, 'PUT', '/v1/data/listings/settings', { json: { schema: { photo: { content_type: 'image_url' } } } });
    const cases: Array<[string, RegExp]> = [
      [`${jsonl(OBJECTS)}\n{"id": "o5", "text": }\n`, /^line 5: invalid JSON at column 22: Unexpected token/],
      [`\uFEFF${JSON.stringify(OBJECTS[0])}\r\n{"text":"no id"}\r\n`, /^line 2: id: missing; every object needs its own "id", a non-empty string$/],
      [jsonl([...OBJECTS, { id: 'o4', photo: 'photo.png' }]), /^line 4: photo: expected an http\(s\) URL/],
      [`${jsonl(OBJECTS.slice(0, 1))}{"id":"${'x'.repeat(MAX_LINE_BYTES)}"}\n`, /^line 2: line is longer than 10 MiB$/],
      ['[{"id":"o1"}]\n', /^line 1: expected a JSON object with a string "id"$/],
    ];
    for (const [body, message] of cases) {
      const issued = await requestImport(emulator, 'listings');
      assert.equal((await put(issued.upload_url, body)).status, 200);
      const record = await waitForTerminal(emulator, 'listings', issued.requestId);
      assert.equal(record.status, 'failed');
      assert.match(record.error!.message, message);
      assert.deepEqual([record.data_count, record.data_url, record.data_expires_at], [0, null, null]);
    }
  });

  test('chunked or without Content-Length is 411 MissingContentLength; nothing is stored', async () => {
    const issued = await requestImport(emulator, 'listings');
    const chunked = await rawHttp(issued.upload_url, 'PUT {path} HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked', '5\r\n{"id"\r\n0\r\n\r\n');
    assert.match(chunked, /^HTTP\/1\.1 411 /);
    assert.match(chunked, /Content-Type: application\/xml/i);
    assert.equal(s3Code(chunked), 'MissingContentLength');
    const noLength = await rawHttp(issued.upload_url, 'PUT {path} HTTP/1.1\r\nContent-Type: application/json');
    assert.match(noLength, /^HTTP\/1\.1 411 /);
    assert.equal((await getRecord(emulator, 'listings', issued.requestId)).status, 'queued');
  });

  test('an Authorization header is 400 InvalidArgument, and the log shows what reached the upload URL', async () => {
    const issued = await requestImport(emulator, 'listings');
    await call(emulator, 'DELETE', '/_emulator/requests');
    const reply = await put(issued.upload_url, jsonl(OBJECTS), { Authorization: `Bearer ${emulator.apiKey}` });
    assert.equal(reply.status, 400);
    assert.equal(s3Code(reply.text), 'InvalidArgument');
    assert.match(reply.text, /Only one auth mechanism allowed/);
    assert.equal((await put(issued.upload_url, jsonl(OBJECTS))).status, 200);
    const { requests } = (await call(emulator, 'GET', '/_emulator/requests')).body as { requests: Array<Record<string, unknown>> };
    const path = `/_storage/${issued.objectKey}`;
    assert.deepEqual(
      requests.map((entry) => [entry.method, entry.path, entry.auth, entry.status, entry.content_type, entry.content_length, entry.transfer_encoding]),
      [
        ['PUT', path, 'api_key', 400, 'application/json', jsonl(OBJECTS).length, null],
        ['PUT', path, 'missing', 200, 'application/json', jsonl(OBJECTS).length, null],
      ],
    );
  });

  test('a tampered signature, expiry or key, or another Content-Type, is 403 SignatureDoesNotMatch', async () => {
    const issued = await requestImport(emulator, 'listings');
    const url = new URL(issued.upload_url);
    const tamper = (change: (target: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return copy.href;
    };
    const signature = url.searchParams.get('X-Csafe-Signature')!;
    const attempts = [
      tamper((u) => u.searchParams.set('X-Csafe-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`)),
      tamper((u) => u.searchParams.set('X-Csafe-Expires', String(Number(u.searchParams.get('X-Csafe-Expires')) + 3600))),
      tamper((u) => u.searchParams.delete('X-Csafe-Signature')),
      tamper((u) => (u.pathname = u.pathname.replace('listings', 'other'))),
    ];
    for (const attempt of attempts) {
      const reply = await put(attempt, jsonl(OBJECTS));
      assert.equal(reply.status, 403, attempt);
      assert.equal(s3Code(reply.text), 'SignatureDoesNotMatch');
    }
    const wrongType = await put(issued.upload_url, jsonl(OBJECTS), { 'Content-Type': 'application/x-ndjson' });
    assert.equal(wrongType.status, 403);
    assert.equal(s3Code(wrongType.text), 'SignatureDoesNotMatch');
    assert.equal((await getRecord(emulator, 'listings', issued.requestId)).status, 'queued');
  });

  test('a body shorter than its Content-Length stores nothing; a later complete upload is processed', async () => {
    const issued = await requestImport(emulator, 'listings');
    const head = 'PUT {path} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 1000';
    await rawHttp(issued.upload_url, head, '{"id":"cut short"', { hangUp: true });
    await waitForLoggedStatus(400);
    assert.equal((await getRecord(emulator, 'listings', issued.requestId)).status, 'queued');
    assert.equal((await put(issued.upload_url, jsonl(OBJECTS))).status, 200);
    assert.equal((await waitForTerminal(emulator, 'listings', issued.requestId)).data_count, 3);
  });

  test('quirks: failing_uploads answers 503 SlowDown storing nothing; expired_upload_urls hands out expired URLs', async () => {
    await call(emulator, 'POST', '/_emulator/quirks', { json: { failing_uploads: 1, expired_upload_urls: 1 } });
    const expired = await requestImport(emulator, 'listings');
    assert.ok(Date.parse(expired.expires_at) < Date.now());
    const refused = await put(expired.upload_url, jsonl(OBJECTS));
    assert.equal(refused.status, 403);
    assert.equal(s3Code(refused.text), 'AccessDenied');
    assert.match(refused.text, /<Message>Request has expired<\/Message>/);
    const expiredRecord = await getRecord(emulator, 'listings', expired.requestId);
    assert.equal(expiredRecord.status, 'failed');
    assert.match(expiredRecord.error!.message, /expired .* without an upload/);

    const issued = await requestImport(emulator, 'listings');
    const slowDown = await put(issued.upload_url, jsonl(OBJECTS));
    assert.equal(slowDown.status, 503);
    assert.equal(s3Code(slowDown.text), 'SlowDown');
    assert.equal((await getRecord(emulator, 'listings', issued.requestId)).status, 'queued');
    assert.equal((await put(issued.upload_url, jsonl(OBJECTS))).status, 200);
    assert.equal((await waitForTerminal(emulator, 'listings', issued.requestId)).status, 'succeeded');
    assert.equal((await call(emulator, 'POST', '/_emulator/quirks', { json: { failing_uploads: -1 } })).status, 400);
  });

  test('reset forgets imports and their uploads', async () => {
    const issued = await requestImport(emulator, 'listings');
    await put(issued.upload_url, jsonl(OBJECTS));
    await call(emulator, 'POST', '/_emulator/reset');
    assert.equal((await call(emulator, 'GET', `/v1/data/listings/requests/${issued.requestId}`)).status, 404);
    const again = await put(issued.upload_url, jsonl(OBJECTS));
    assert.equal(again.status, 404);
    assert.equal(s3Code(again.text), 'NoSuchUpload');
  });

  async function waitForLoggedStatus(status: number) {
    await waitFor(async () => {
      const { requests } = (await call(emulator, 'GET', '/_emulator/requests')).body as { requests: Array<{ status: number }> };
      return requests.some((entry) => entry.status === status);
    }, { what: `a request logged with status ${status}` });
  }
});

describe('emulator: upload URL expiry', () => {
  const clock = manualClock();
  const emulator = useTestEmulator({ now: clock.now, uploadTtlMs: 60_000 });

  test('past --upload-ttl the URL is 403 AccessDenied "Request has expired", and the import failed', async () => {
    const issued = await requestImport(emulator, 'listings');
    assert.equal(Date.parse(issued.expires_at), clock.now() + 60_000);
    clock.advance(60_000);
    const reply = await put(issued.upload_url, jsonl(OBJECTS));
    assert.equal(reply.status, 403);
    assert.equal(s3Code(reply.text), 'AccessDenied');
    const { error, ...record } = await getRecord(emulator, 'listings', issued.requestId);
    assert.deepEqual(record, importShape(issued.requestId, 'failed'));
    assert.match(error!.message, /expired .* without an upload/);
  });

  test('the record has the import shape in every state: queued, uploading while the file arrives, ingesting, succeeded', async () => {
    const issued = await requestImport(emulator, 'listings');
    assert.deepEqual(await getRecord(emulator, 'listings', issued.requestId), importShape(issued.requestId, 'queued'));
    const body = new PassThrough();
    const upload = put(issued.upload_url, body, { 'Content-Length': Buffer.byteLength(jsonl(OBJECTS)) });
    body.write(jsonl(OBJECTS).slice(0, 10));
    assert.deepEqual(await waitForStatus(emulator, 'listings', issued.requestId, ['uploading']), importShape(issued.requestId, 'uploading'));
    body.end(jsonl(OBJECTS).slice(10));
    assert.equal((await upload).status, 200);
    assert.deepEqual(await getRecord(emulator, 'listings', issued.requestId), importShape(issued.requestId, 'ingesting'));
    clock.advance(1000);
    const done = await waitForStatus(emulator, 'listings', issued.requestId, ['succeeded']);
    assert.equal(done.data_count, 3);
    assert.match(done.data_url ?? '', /\/_storage\/outputs\//);
    assert.equal(typeof done.data_expires_at, 'string');
  });

});

/** An import-type record before its output exists: data_count 0, data_url and data_expires_at null. */
const importShape = (requestId: string, status: string) => ({
  namespace: 'listings',
  request_id: requestId,
  status,
  data_count: 0,
  data_url: null,
  data_expires_at: null,
});
