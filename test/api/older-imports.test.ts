import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { UnconfirmedCreationError } from '../../src/api/create.js';
import { createImport, getImport } from '../../src/api/older-imports.js';
import { UnexpectedResponseError } from '../../src/core/errors.js';
import type { HttpClient } from '../../src/core/http/client.js';
import { DEFAULT_RETRY_POLICY } from '../../src/core/http/retry.js';
import { closeServer, listenOnLoopback, loopbackClient } from '../helpers/server.js';

/** createImport and getImport against a loopback server answering with the body the test sets. */
describe('older import calls parse their answers', () => {
  let server: Server;
  let http: HttpClient;
  let answer: unknown = {};
  const requests: Array<{ method: string; url: string; length?: string }> = [];

  before(async () => {
    server = createServer((req, res) => {
      requests.push({ method: req.method!, url: req.url!, length: req.headers['content-length'] });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
    });
    http = loopbackClient(await listenOnLoopback(server), { ...DEFAULT_RETRY_POLICY, maxRetries: 0 });
  });
  after(async () => {
    await http.close();
    closeServer(server);
  });

  const answering = <T>(body: unknown, call: () => Promise<T>): Promise<T> => {
    answer = body;
    requests.length = 0;
    return call();
  };
  const refused = (body: unknown, call: () => Promise<unknown>, what: RegExp) =>
    assert.rejects(answering(body, call), (error: unknown) => error instanceof UnexpectedResponseError && what.test(error.message));

  it('createImport: POST /v1/import without a body; extra fields and unknown statuses kept; no upload_url is a failure', async () => {
    const created = { import_id: 'imp_1', import_status: 'QUEUED_SOMEHOW', upload_url: 'https://store/u?sig=1', extra: 1 };
    assert.deepEqual(await answering(created, () => createImport(http)), created);
    assert.equal(requests[0]!.method, 'POST');
    assert.equal(requests[0]!.url, '/v1/import');
    assert.ok(requests[0]!.length === undefined || requests[0]!.length === '0');
    // The service made the import, but the answer is of no use: it may exist, and is not asked for again.
    await assert.rejects(answering({ import_id: 'imp_1', import_status: 'WAITING_FOR_UPLOAD' }, () => createImport(http)), (error: unknown) =>
      error instanceof UnconfirmedCreationError && error.cause instanceof UnexpectedResponseError && /^the import may have been created: POST \/v1\/import: unexpected response from the service: upload_url: /.test(error.message));
  });

  it('getImport: the id in the path, encoded; optional fields may be absent or null; no created_at is a failure', async () => {
    const record = { import_id: 'imp/2', import_status: 'COMPLETE', s3_key: null, created_at: '2026-11-20T10:00:00Z', new_field: [1] };
    assert.deepEqual(await answering(record, () => getImport(http, 'imp/2')), record);
    assert.equal(requests[0]!.url, '/v1/import/imp%2F2');
    await refused({ import_id: 'imp_2', import_status: 'COMPLETE' }, () => getImport(http, 'imp_2'), /^GET \/v1\/import\/imp_2: .*created_at: /);
  });
});
