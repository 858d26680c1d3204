import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { partsFrameBytes, sendStreamParts, watchStream } from '../../src/api/streams.js';
import { ServerError, UnexpectedResponseError } from '../../src/core/errors.js';
import type { HttpClient } from '../../src/core/http/client.js';
import { closeServer, listenOnLoopback, loopbackClient } from '../helpers/server.js';

/** The stream calls against a loopback server answering each request with the next status of `statuses` (then 200) and `answer`. */
describe('stream calls', () => {
  let server: Server;
  let http: HttpClient;
  let answer: unknown;
  let statuses: number[];
  const requests: Array<{ url: string; body: string }> = [];

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        requests.push({ url: req.url!, body: Buffer.concat(chunks).toString() });
        const status = statuses.shift() ?? 200;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(status === 200 ? answer : { error: { message: `status ${status}` } }));
      });
    });
    http = loopbackClient(await listenOnLoopback(server));
  });
  after(async () => {
    await http.close();
    closeServer(server);
  });
  beforeEach(() => {
    answer = { requestId: 'req_1', status: 'accepted' };
    statuses = [];
    requests.length = 0;
  });

  it('watchStream posts {id, stream_url} to the namespace and returns the accepted request', async () => {
    assert.deepEqual(await watchStream(http, 'live ns', { id: 'show-42', stream_url: 'rtmp://x/live' }), answer);
    assert.deepEqual(requests, [{ url: '/v1/streams/live%20ns', body: '{"id":"show-42","stream_url":"rtmp://x/live"}' }]);
  });

  it('sendStreamParts posts {id, data} with the parts exactly as serialised', async () => {
    const parts = ['{"type":"audio_url","timestamp":"2026-11-21T10:00:00Z","url":"https://a/1.aac"}', '{"type":"transcript","text":"é","timestamp":"2026-11-21T10:00:01Z"}'];
    assert.deepEqual(await sendStreamParts(http, 'live', 'show-"42"', parts), answer);
    const expected = `{"id":"show-\\"42\\"","data":[${parts.join(',')}]}`;
    assert.deepEqual(requests, [{ url: '/v1/streams/live/parts', body: expected }]);
    assert.equal(partsFrameBytes('show-"42"') + parts.reduce((sum, part) => sum + Buffer.byteLength(part) + 1, 0), Buffer.byteLength(expected));
  });

  it('a 2xx that is not the accepted answer is a failure naming the request, never a success', async () => {
    for (const body of [{ requestId: 'r' }, { status: 'accepted' }, ['accepted'], 'ok']) {
      answer = body;
      await assert.rejects(sendStreamParts(http, 'live', 's', ['{}']), (error: unknown) => error instanceof UnexpectedResponseError && /^POST \/v1\/streams\/live\/parts: unexpected response/.test(error.message));
      await assert.rejects(watchStream(http, 'live', { id: 's', stream_url: 'https://x' }), (error: unknown) => error instanceof UnexpectedResponseError && /^POST \/v1\/streams\/live: unexpected response/.test(error.message));
    }
  });

  it('parts are retried on 429 and 503, which were not processed, and never after a 500, which may have been', async () => {
    statuses = [429, 503];
    assert.deepEqual(await sendStreamParts(http, 'live', 's', ['{}']), answer);
    assert.equal(requests.length, 3);

    requests.length = 0;
    statuses = [500];
    await assert.rejects(sendStreamParts(http, 'live', 's', ['{}']), ServerError);
    assert.equal(requests.length, 1);
  });
});
