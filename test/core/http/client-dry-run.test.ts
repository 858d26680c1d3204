import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpClient } from '../../../src/core/http/client.js';
import { DryRunEnded, DryRunPlan } from '../../../src/core/http/dry-run.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/http/retry.js';
import { bufferIO } from '../../helpers/io.js';

// --dry-run in the one request engine: every request is shown as it would go, the key redacted,
// and none is sent (the base URL points at a port nothing listens on: a request sent would fail).

function dryClient(apiKey = 'sk_test_secret_key') {
  const plan = new DryRunPlan();
  const http = new HttpClient({
    baseUrl: 'http://127.0.0.1:9',
    apiKey,
    timeoutMs: 1000,
    retry: DEFAULT_RETRY_POLICY,
    userAgent: 'csafe/test',
    io: bufferIO().io,
    now: () => 0,
    sleep: async () => undefined,
    dryRun: plan,
  });
  return { http, plan };
}

const ended = (error: unknown) => error instanceof DryRunEnded;

describe('HttpClient in a dry run', () => {
  it('ends the run at the first request whose answer it needs, showing it with its JSON body, its length and the key redacted', async () => {
    const { http, plan } = dryClient();
    await assert.rejects(http.request({ method: 'POST', path: '/v1/content', json: { text: 'héllo' }, headers: { 'idempotency-key': 'k1' } }), ended);
    assert.deepEqual(plan.requests, [
      {
        method: 'POST',
        url: 'http://127.0.0.1:9/v1/content',
        headers: { 'user-agent': 'csafe/test', accept: 'application/json', authorization: '[REDACTED]', 'content-type': 'application/json', 'idempotency-key': 'k1', 'content-length': '17' },
        body: { text: 'héllo' },
      },
    ]);
    assert.ok(!JSON.stringify(plan.requests).includes('sk_test_secret_key'));
  });

  it('records a request whose answer the run goes on without, and answers it as planned', async () => {
    const { http, plan } = dryClient();
    assert.deepEqual(await http.request({ method: 'PUT', path: '/v1/data/shop/settings', json: {}, answerUnused: true }), { status: 0, headers: {}, body: undefined, retries: 0, planned: true });
    await assert.rejects(http.request({ method: 'GET' }), ended);
    assert.deepEqual(
      plan.requests.map((request) => `${request.method} ${request.url}`),
      ['PUT http://127.0.0.1:9/v1/data/shop/settings', 'GET http://127.0.0.1:9/'],
    );
    assert.equal(plan.requests[1]!.body, undefined, 'no body for a request without one');
  });

  it('shows a batch made ready in memory as the JSON the service would read, and a file by its size; no key for a pre-signed address', async () => {
    const { http, plan } = dryClient();
    const batch = Buffer.from('{"objects":[{"id":"a"}]}');
    await assert.rejects(http.request({ method: 'POST', path: '/v1/data/shop/objects', body: { open: () => batch, length: batch.length, contentType: 'application/json' } }), ended);
    await assert.rejects(http.request({ method: 'PUT', url: 'https://uploads.example/u/1?X-Signature=s3cr3t', body: { open: () => Buffer.from('a,b\n'), length: 4, contentType: 'text/csv' } }), ended);
    const [inMemory, file] = plan.requests;
    assert.deepEqual(inMemory!.body, { objects: [{ id: 'a' }] });
    assert.equal(inMemory!.headers['content-length'], String(batch.length));
    assert.equal(file!.body_bytes, 4);
    assert.equal(file!.body, undefined);
    assert.equal(file!.headers.authorization, undefined, 'the key never goes to a pre-signed address');
    assert.ok(!String(file!.url).includes('s3cr3t'), String(file!.url));
  });

  it('with no key configured, shows no authorization header', async () => {
    const { http, plan } = dryClient('');
    await assert.rejects(http.request({ method: 'GET', path: '/v1/x' }), ended);
    assert.equal(plan.requests[0]!.headers.authorization, undefined);
  });

  it('plans the upload bound to follow a request: its address from that answer, its headers and its file', () => {
    const { http } = dryClient();
    const issuer = { method: 'POST', url: 'http://127.0.0.1:9/v1/data/shop/import?x=1', headers: {} };
    assert.deepEqual(http.plannedUpload(issuer, 'PUT', { name: 'objects.jsonl', length: 42, contentType: 'application/x-ndjson' }), {
      method: 'PUT',
      url: null,
      url_from: 'the upload address in the answer to POST /v1/data/shop/import',
      headers: { 'user-agent': 'csafe/test', accept: 'application/json', 'content-type': 'application/x-ndjson', 'content-length': '42' },
      body_file: 'objects.jsonl',
      body_bytes: 42,
    });
    assert.equal(http.plannedUpload({ ...issuer, url: '/v1/data/shop/import' }, 'PUT', { name: 'f', length: 1, contentType: 'text/csv' }).url_from, 'the upload address in the answer to POST /v1/data/shop/import', 'a path alone when no base URL is configured');
  });
});
