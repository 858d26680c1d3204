import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { classifyContent } from '../../src/api/content.js';
import { addData, encodeAddBody, getDownloadUrl, getRequest, putSettings, requestImport } from '../../src/api/data.js';
import { encodeBatch, ingestEvents, sendEvents } from '../../src/api/events.js';
import { createAccessToken } from '../../src/api/tokens.js';
import { UnexpectedResponseError } from '../../src/core/errors.js';
import type { HttpClient } from '../../src/core/http/client.js';
import { DEFAULT_RETRY_POLICY } from '../../src/core/http/retry.js';
import { closeServer, listenOnLoopback, loopbackClient } from '../helpers/server.js';

/**
 * Every api/ call against a real loopback server that answers with the body the test sets: what
 * the call returns is the parsed, typed answer, extra fields and unknown values kept; a 2xx
 * without what the commands rely on is UnexpectedResponseError, naming the request.
 */
describe('api calls parse their answers', () => {
  let server: Server;
  let http: HttpClient;
  let answer: unknown = {};
  const requests: Array<{ method: string; url: string; version?: string }> = [];

  before(async () => {
    server = createServer((req, res) => {
      requests.push({ method: req.method!, url: req.url!, version: req.headers['service-version'] as string | undefined });
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      });
    });
    http = loopbackClient(await listenOnLoopback(server), { ...DEFAULT_RETRY_POLICY, maxRetries: 0 });
  });
  after(async () => {
    await http.close();
    closeServer(server);
  });

  const answering = async <T>(body: unknown, call: () => Promise<T>): Promise<T> => {
    answer = body;
    requests.length = 0;
    return call();
  };
  const refused = (body: unknown, call: () => Promise<unknown>, what: RegExp) =>
    assert.rejects(answering(body, call), (error: unknown) => error instanceof UnexpectedResponseError && what.test(error.message));

  const request = { content: [{ type: 'text' as const, text: 'hi' }], user_id: 'u1' };

  it('classifyContent: the current answer, unknown decisions and fields kept', async () => {
    const body = { labels: [{ type: 'classifier', label: 'spam', decision: 'escalated', score: 0.5, new: 1 }], trace: 't' };
    assert.deepEqual(await answering(body, () => classifyContent(http, request, '2026-08-11')), body);
    assert.deepEqual(requests, [{ method: 'POST', url: '/v1/content', version: '2026-08-11' }]);
  });

  it('classifyContent: the previous version answer is read with its own schema', async () => {
    const body = { policies: [{ policy_id: 'p', decision: 'review', score: 0.6 }] };
    assert.deepEqual(await answering(body, () => classifyContent(http, request, '2026-08-05')), body);
    assert.equal(requests[0]!.version, '2026-08-05');
    await refused({ labels: [] }, () => classifyContent(http, request, '2026-08-05'), /^POST \/v1\/content: unexpected response from the service: policies: /);
  });

  it('classifyContent: no labels array is an error, never zero labels', async () => {
    await refused({}, () => classifyContent(http, request, '2026-08-11'), /^POST \/v1\/content: unexpected response from the service: labels: /);
    await refused({ labels: [{ label: 'x', decision: 'match' }] }, () => classifyContent(http, request, '2026-08-11'), /labels\[0\]\.type: /);
  });

  it('createAccessToken: the token and its lifetime', async () => {
    const body = { access_token: 'at_1', expires_at: '2026-01-01T00:00:00Z', expires_in: 900, token_type: 'bearer', scope: 'x' };
    assert.deepEqual(await answering(body, () => createAccessToken(http, { user_id: 'u1' })), body);
    await refused({ expires_in: 900, expires_at: 'x', token_type: 'bearer' }, () => createAccessToken(http, {}), /^POST \/v1\/access_tokens: unexpected response from the service: access_token: /);
    await refused({ access_token: 'at', expires_at: 'x', expires_in: '900', token_type: 'bearer' }, () => createAccessToken(http, {}), /expires_in: /);
  });

  it('putSettings, addData, requestImport, getRequest', async () => {
    const settings = { namespace: 'ns', status: 'created_or_updated', extra: true };
    assert.deepEqual(await answering(settings, () => putSettings(http, 'ns', {})), settings);
    await refused({ status: 'ok' }, () => putSettings(http, 'ns', {}), /^PUT \/v1\/data\/ns\/settings: .*namespace: /);

    const added = { requestId: 'req_1', status: 'queued_new_status' };
    assert.deepEqual(await answering(added, () => addData(http, 'a b', encodeAddBody(['{"id":"1"}']))), added);
    assert.equal(requests[0]!.url, '/v1/data/a%20b');
    await refused({ request_id: 'req_1', status: 'pending' }, () => addData(http, 'ns', encodeAddBody([])), /^POST \/v1\/data\/ns: .*requestId: /);

    const upload = { expires_at: 'x', objectKey: 'k', requestId: 'req_2', status: 'pending', upload_url: 'https://u' };
    assert.deepEqual(await answering(upload, () => requestImport(http, 'ns')), upload);
    await refused({ ...upload, upload_url: undefined }, () => requestImport(http, 'ns'), /upload_url: /);

    const record = { request_id: 'req_1', status: 'succeeded', data: [{ id: '1', output: { labels: [{ label: 'ok', decision: 'new' }] } }] };
    assert.deepEqual(await answering(record, () => getRequest(http, 'ns', 'req/1')), record);
    assert.equal(requests[0]!.url, '/v1/data/ns/requests/req%2F1');
    await refused({ request_id: 'req_1' }, () => getRequest(http, 'ns', 'req_1'), /^GET \/v1\/data\/ns\/requests\/req_1: .*status: /);
    // Request ids of either form the service has used, `request_…` (its docs) and `req_…` (the emulator), pass as they are.
    for (const id of ['request_6f1c2a', 'req_6f1c2a']) {
      const answered = await answering({ request_id: id, status: 'queued', data: [] }, () => getRequest(http, 'ns', id));
      assert.equal(answered.request_id, id);
      assert.equal(requests[0]!.url, `/v1/data/ns/requests/${id}`);
      const url = { request_id: id, status: 'queued', data_count: null, data_url: null, data_expires_at: null };
      assert.deepEqual(await answering(url, () => getDownloadUrl(http, 'ns', id)), url);
      assert.equal(requests[0]!.url, `/v1/data/ns/requests/${id}/results/download-url`);
    }
  });

  it('sendEvents and ingestEvents', async () => {
    const batch = encodeBatch(['{"a":1}', '{"a":2}']);
    assert.deepEqual(await answering({ status: 'queued', queued_events: 2 }, () => sendEvents(http, batch, true)), undefined);
    await refused({ status: 'queued' }, () => sendEvents(http, batch, true), /^POST \/v1\/async\/events: .*queued_events: /);
    assert.deepEqual(await answering({ status: 'ok', event_ids: ['e1', 'e2'] }, () => ingestEvents(http, batch, 2, true)), ['e1', 'e2']);
    await refused({ status: 'ok', event_ids: ['e1'] }, () => ingestEvents(http, batch, 2, true), /^POST \/v1\/events: unexpected response from the service: 1 event ids for 2 events$/);
  });
});
