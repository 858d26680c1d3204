import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HttpClient, serviceMessage } from '../../../src/core/http/client.js';
import { AuthenticationError, BadRequestError, ConnectionError, CsafeError, InputError, InterruptedError, RequestTimeoutError, ResponseTooLargeError, RetryAfterTooLongError, ServerError, UnexpectedResponseError, mayHaveBeenApplied } from '../../../src/core/errors.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/http/retry.js';
import { bufferIO } from '../../helpers/io.js';
import { closeServer, listenOnLoopback } from '../../helpers/server.js';

type Handler = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

/** A real local server whose answer per attempt the test scripts; the client under test is the real one. */
describe('HttpClient', () => {
  let server: Server;
  let baseUrl: string;
  let handler: Handler = () => {};
  let attempts = 0;
  const seen: IncomingMessage[] = [];
  const bodies: string[] = [];
  const sleeps: number[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        bodies.push(body);
        handler(req, res, ++attempts);
      });
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => {
    closeServer(server);
  });

  const client = (
    overrides: { maxRetries?: number; maxWaitMs?: number; timeoutMs?: number; verbose?: boolean; maxResponseBytes?: number; now?: () => number; signal?: AbortSignal; baseUrl?: string } = {},
  ) => {
    attempts = 0;
    seen.length = 0;
    bodies.length = 0;
    sleeps.length = 0;
    const streams = bufferIO({ verbose: overrides.verbose });
    const http = new HttpClient({
      baseUrl: overrides.baseUrl ?? baseUrl,
      apiKey: 'sk_test_secret_key',
      timeoutMs: overrides.timeoutMs ?? 2000,
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: overrides.maxRetries ?? 2, maxWaitMs: overrides.maxWaitMs ?? 60_000 },
      userAgent: 'csafe/test',
      io: streams.io,
      now: overrides.now ?? (() => Date.now()),
      signal: overrides.signal,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      maxResponseBytes: overrides.maxResponseBytes,
    });
    return { http, stderr: streams.stderr, io: streams.io };
  };
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  it('sends auth, user agent and JSON, and parses the answer', async () => {
    handler = (_req, res) => json(res, 200, { ok: true });
    const { http } = client();
    assert.deepEqual(await http.json('POST', '/v1/content', { a: 1 }), { ok: true });
    assert.equal(seen[0]!.headers.authorization, 'Bearer sk_test_secret_key');
    assert.equal(seen[0]!.headers['user-agent'], 'csafe/test');
    assert.equal(seen[0]!.headers['content-type'], 'application/json');
    assert.deepEqual(bodies, ['{"a":1}']);
    await http.close();
  });

  it('retries 503 with backoff, then succeeds', async () => {
    handler = (_req, res, n) => (n < 3 ? json(res, 503, { error: { type: 'service_unavailable', message: 'busy' } }) : json(res, 200, { ok: n }));
    const { http } = client();
    const response = await http.request({ method: 'POST', path: '/v1/content', json: {} });
    assert.deepEqual(response.body, { ok: 3 });
    assert.equal(response.retries, 2);
    assert.deepEqual(sleeps, [437, 875]);
    await http.close();
  });

  it('honours Retry-After in seconds and as an HTTP date on 429', async () => {
    const date = new Date(Date.now() + 3000).toUTCString();
    handler = (_req, res, n) =>
      n === 1 ? json(res, 429, {}, { 'retry-after': '2' }) : n === 2 ? json(res, 429, {}, { 'retry-after': date }) : json(res, 200, {});
    const { http } = client();
    await http.request({ method: 'GET', path: '/x' });
    assert.equal(sleeps[0], 2000);
    assert.ok(sleeps[1]! > 1000 && sleeps[1]! <= 3000, String(sleeps[1]));
    await http.close();
  });

  it('fails with the time to wait when Retry-After exceeds --max-wait', async () => {
    handler = (_req, res) => json(res, 429, {}, { 'retry-after': '120' });
    const { http } = client();
    await assert.rejects(http.request({ method: 'GET', path: '/x' }), (error: unknown) => {
      assert.ok(error instanceof RetryAfterTooLongError);
      assert.match(error.message, /asked to wait 120 s/);
      assert.match(error.hint!, /--max-wait 120/);
      return true;
    });
    assert.equal(attempts, 1);
    await http.close();
  });

  it('never retries 400, 401 or 413, and builds typed errors with the service message', async () => {
    handler = (_req, res) => json(res, 400, { error: { type: 'invalid_request', message: 'content[0].text: expected string', field: 'content[0].text' } });
    const { http } = client();
    await assert.rejects(http.json('POST', '/v1/content', {}), (error: unknown) => {
      assert.ok(error instanceof BadRequestError);
      assert.equal(error.message, 'POST /v1/content: 400 invalid_request: content[0].text: expected string');
      assert.equal(error.details.field, 'content[0].text');
      return true;
    });
    assert.equal(attempts, 1);
    handler = (_req, res) => json(res, 401, { message: 'bad key' });
    await assert.rejects(http.json('GET', '/v1/x'), AuthenticationError);
    await http.close();
  });

  it('obeys x-should-retry: false on a 503', async () => {
    handler = (_req, res) => json(res, 503, {}, { 'x-should-retry': 'false' });
    const { http } = client();
    await assert.rejects(http.json('GET', '/v1/x'), ServerError);
    assert.equal(attempts, 1);
    await http.close();
  });

  it('retries a connection reset and reports it after the last retry', async () => {
    handler = (req) => req.socket.destroy();
    const { http } = client({ maxRetries: 1 });
    await assert.rejects(http.json('GET', '/v1/x'), (error: unknown) => error instanceof ConnectionError && /after 1 retry/.test(error.message));
    assert.equal(attempts, 2);
    await http.close();
  });

  it('times out a slow answer and retries it', async () => {
    handler = (_req, res, n) => (n === 1 ? setTimeout(() => json(res, 200, { late: true }), 800) : json(res, 200, { ok: true }));
    const { http } = client({ timeoutMs: 200 });
    assert.deepEqual(await http.json('GET', '/v1/x'), { ok: true });
    const { http: noRetry } = client({ timeoutMs: 200, maxRetries: 0 });
    handler = (_req, res) => setTimeout(() => json(res, 200, {}), 800);
    await assert.rejects(noRetry.json('GET', '/v1/x'), RequestTimeoutError);
    await http.close();
    await noRetry.close();
  });

  it('traces with --verbose but never the key; absolute URLs get no Authorization', async () => {
    handler = (_req, res) => json(res, 200, {});
    const { http, stderr } = client({ verbose: true });
    await http.json('GET', '/v1/x');
    await http.request({ method: 'PUT', url: `${baseUrl}/upload?signature=s3cr3t&expires=1`, body: { open: () => Buffer.from('x'), length: 1, contentType: 'application/json' } });
    assert.equal(seen[1]!.headers.authorization, undefined);
    assert.equal(seen[1]!.headers['content-length'], '1');
    assert.ok(!stderr().includes('sk_test_secret_key'));
    assert.ok(!stderr().includes('s3cr3t'));
    assert.match(stderr(), /signature=\[REDACTED\]/);
    await http.close();
  });
  it('never sends a user name or password from a URL: none to an upload address, none to the base URL, none in a trace', async () => {
    handler = (_req, res) => json(res, 200, {});
    const withUser = (url: string) => url.replace('http://', 'http://user:pa55word@');
    const { http, stderr } = client({ verbose: true, baseUrl: withUser(baseUrl) });
    await http.json('GET', '/v1/x');
    await http.request({ method: 'PUT', url: withUser(`${baseUrl}/upload?signature=s3cr3t`), body: { open: () => Buffer.from('x'), length: 1, contentType: 'application/json' } });
    await http.request({ method: 'GET', url: withUser(`${baseUrl}/result.csv`), onBody: async (body) => void (await body.toArray()) });
    assert.deepEqual(seen.map((req) => req.headers.authorization), ['Bearer sk_test_secret_key', undefined, undefined]);
    assert.ok(!stderr().includes('pa55word') && !stderr().includes('user:'), stderr());
    await http.close();
  });

  it('drops a user name given alone, or a password given alone, from an upload address', async () => {
    handler = (_req, res) => json(res, 200, {});
    const { http } = client();
    const put = (url: string) => http.request({ method: 'PUT', url, body: { open: () => Buffer.from('x'), length: 1, contentType: 'application/json' } });
    await put(baseUrl.replace('http://', 'http://user@') + '/upload');
    await put(baseUrl.replace('http://', 'http://:pa55word@') + '/upload');
    assert.deepEqual(seen.map((req) => req.headers.authorization), [undefined, undefined]);
    await http.close();
  });

  it('fetches an absolute address only over http(s): a file: URL is an unexpected answer, never tried', async () => {
    const { http } = client();
    await assert.rejects(http.request({ method: 'PUT', url: 'file:///etc/passwd?signature=s3cr3t', body: { open: () => Buffer.from('x'), length: 1, contentType: 'text/csv' } }), (error: unknown) =>
      error instanceof UnexpectedResponseError && error.message === 'PUT file:///etc/passwd?signature=[REDACTED]: the service gave an address that is not an http:// or https:// URL; nothing was sent');
    assert.equal(attempts, 0);
    await http.close();
  });

  it('takes a fault of its own for no network failure: nothing retried, one error naming the request', async () => {
    handler = (_req, res) => json(res, 200, {});
    const { http } = client();
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    await assert.rejects(http.json('POST', '/v1/decisions', { content: deep }), (error: unknown) =>
      error instanceof CsafeError && !(error instanceof ConnectionError) && /^POST \/v1\/decisions: the request body could not be serialised: Maximum call stack size exceeded; nothing was sent$/.test(error.message));
    await assert.rejects(http.json('POST', '/v1/decisions', { n: 1n }), /^CsafeError: POST \/v1\/decisions: the request body could not be serialised: Do not know how to serialize a BigInt/);
    // undici refuses a header value with a line break before anything is sent.
    await assert.rejects(http.request({ method: 'GET', path: '/v1/x', headers: { 'x-note': 'a\nb' } }), (error: unknown) =>
      error instanceof CsafeError && !(error instanceof ConnectionError) && /^GET \/v1\/x: csafe could not make the request: /.test(error.message) && !/retr(y|ies)/.test(error.message));
    assert.equal(attempts, 0);
    await http.close();
  });

  /** A clock that moves on by `step` ms each time it is read. */
  const ticking = (step: number) => {
    let now = 0;
    return () => (now += step);
  };

  it('traces each attempt: method, redacted URL and headers, then status and time taken', async () => {
    handler = (_req, res) => json(res, 200, {});
    const { http, stderr } = client({ verbose: true, now: ticking(7) });
    await http.request({ method: 'GET', path: '/v1/x' });
    assert.equal(
      stderr(),
      `→ GET ${baseUrl}/v1/x {"user-agent":"csafe/test","accept":"application/json","authorization":"[REDACTED]"}\n← 200 GET /v1/x in 7 ms\n`,
    );
    await http.close();
  });

  it('sends to the base URL without its trailing slashes, to / when no path is given, with the headers given last', async () => {
    handler = (_req, res) => json(res, 200, { ok: 1 });
    const { http } = client({ baseUrl: `${baseUrl}//` });
    assert.deepEqual(await http.json('GET', '/v1/x', undefined, { accept: 'text/plain', 'x-extra': 'yes' }), { ok: 1 });
    await http.request({ method: 'GET' });
    assert.deepEqual(
      seen.map((req) => [req.url, req.headers.accept, req.headers['x-extra'], req.headers['content-type']]),
      [
        ['/v1/x', 'text/plain', 'yes', undefined],
        ['/', 'application/json', undefined, undefined],
      ],
    );
    await http.close();
  });

  it('takes any status under 300 as success, 204 with no body as no body, and 300 as a failure', async () => {
    handler = (_req, res) => json(res, 299, { ok: true });
    const { http } = client({ maxRetries: 0 });
    assert.deepEqual(await http.json('GET', '/v1/x'), { ok: true });
    handler = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    const empty = await http.request({ method: 'DELETE', path: '/v1/x' });
    assert.deepEqual([empty.status, empty.body, empty.retries], [204, undefined, 0]);
    handler = (_req, res) => json(res, 300, { message: 'choose' });
    await assert.rejects(http.json('GET', '/v1/x'), (error: unknown) => error instanceof Error && error.message === 'GET /v1/x: 300: choose');
    handler = (_req, res) => json(res, 200, {});
    const absolute = await http.request({ method: 'PUT', url: `${baseUrl}/upload`, body: { open: () => Buffer.from('{}'), length: 2, contentType: 'application/json' } });
    assert.equal(absolute.body, undefined, 'an absolute URL is not parsed');
    await http.close();
  });

  it('refuses a 200 of only white space as empty', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('  \n');
    };
    const { http } = client({ maxRetries: 0 });
    await assert.rejects(http.json('GET', '/v1/x'), (error: unknown) => error instanceof UnexpectedResponseError && error.message === 'GET /v1/x: the response is empty, expected JSON');
    await http.close();
  });

  it('counts the retries in the final error and takes the request id from the answer', async () => {
    handler = (_req, res, n) => json(res, 503, { error: { message: `busy ${n}`, type: 7 } }, n === 3 ? { 'request-id': 'req_3', 'retry-after-ms': '1' } : { 'x-request-id': `xreq_${n}`, 'retry-after-ms': '1' });
    const { http } = client({ maxRetries: 2 });
    await assert.rejects(http.json('GET', '/v1/x'), (error: unknown) => {
      assert.ok(error instanceof ServerError);
      assert.equal(error.message, 'GET /v1/x: 503: busy 3 (after 2 retries)');
      assert.equal(error.details.requestId, 'req_3');
      assert.equal(error.details.errorType, undefined);
      return true;
    });
    handler = (_req, res) => json(res, 503, {}, { 'x-request-id': 'xreq', 'request-id': 'other' });
    const once = client({ maxRetries: 0 });
    await assert.rejects(once.http.json('GET', '/v1/x'), (error: unknown) => error instanceof ServerError && error.details.requestId === 'xreq' && error.message === 'GET /v1/x: 503: HTTP 503');
    await http.close();
    await once.http.close();
  });

  it('announces a retry of 5 s or more without --verbose, a shorter one only in the trace', async () => {
    handler = (_req, res, n) => (n === 1 ? json(res, 503, { message: 'busy' }, { 'retry-after-ms': '5000' }) : json(res, 200, {}));
    const long = client();
    await long.http.json('GET', '/v1/x');
    assert.equal(long.stderr(), 'retry 1/2 of GET /v1/x in 5000 ms after: GET /v1/x: 503: busy\n');
    handler = (_req, res, n) => (n === 1 ? json(res, 503, { message: 'busy' }, { 'retry-after-ms': '4999' }) : json(res, 200, {}));
    const short = client();
    await short.http.json('GET', '/v1/x');
    assert.equal(short.stderr(), '');
    assert.deepEqual(sleeps, [4999]);
    const traced = client({ verbose: true });
    await traced.http.json('GET', '/v1/x');
    assert.match(traced.stderr(), /\nretry 1\/2 of GET \/v1\/x in 4999 ms after: GET \/v1\/x: 503: busy\n/);
    await Promise.all([long.http.close(), short.http.close(), traced.http.close()]);
  });

  it('sleeps through our own backoff whatever --max-wait says; only a server-requested wait may be too long', async () => {
    handler = (_req, res, n) => (n === 1 ? json(res, 503, {}) : json(res, 200, { ok: true }));
    const { http } = client({ maxWaitMs: 0 });
    assert.deepEqual(await http.json('GET', '/v1/x'), { ok: true });
    assert.equal(sleeps.length, 1);
    handler = (_req, res, n) => (n === 1 ? json(res, 503, {}, { 'retry-after-ms': '1000' }) : json(res, 200, { ok: true }));
    const exact = client({ maxWaitMs: 1000 });
    assert.deepEqual(await exact.http.json('GET', '/v1/x'), { ok: true }, 'a wait of exactly --max-wait is slept');
    handler = (_req, res) => json(res, 503, {}, { 'retry-after-ms': '1001' });
    const over = client({ maxWaitMs: 1000, now: () => 0 });
    await assert.rejects(over.http.json('GET', '/v1/x'), (error: unknown) =>
        error instanceof RetryAfterTooLongError && error.waitMs === 1001 && error.message === 'service answered 503 and asked to wait 2 s (until 1970-01-01T00:00:01.001Z)',
    );
    await Promise.all([http.close(), exact.http.close(), over.http.close()]);
  });

  it('names a refused connection, and retries it even for a request that must not be applied twice', async () => {
    const { createServer: create } = await import('node:http');
    const gone = create();
    const goneUrl = await listenOnLoopback(gone);
    closeServer(gone);
    const { http, stderr } = client({ baseUrl: goneUrl, maxRetries: 1, verbose: true, now: ticking(3) });
    const port = new URL(goneUrl).port;
    await assert.rejects(
      http.request({ method: 'POST', path: '/v1/data', json: {}, replaySafe: false }),
      (error: unknown) =>
        error instanceof ConnectionError && !error.sent && error.message === `POST /v1/data: cannot connect to 127.0.0.1:${port} (connection refused) (after 1 retry)`,
    );
    assert.equal(sleeps.length, 1);
    assert.match(stderr(), new RegExp(`← POST /v1/data: cannot connect to 127\\.0\\.0\\.1:${port} \\(connection refused\\) POST /v1/data after 3 ms\n`));
    await http.close();
  });

  it('does not replay a request that must not be applied twice once the connection was cut after sending', async () => {
    handler = (req) => req.socket.destroy();
    const { http } = client({ maxRetries: 2 });
    await assert.rejects(
      http.request({ method: 'POST', path: '/v1/data', json: {}, replaySafe: false }),
      (error: unknown) => error instanceof ConnectionError && error.sent,
    );
    assert.equal(attempts, 1);
    await http.close();
  });

  it('hands a download body over as a stream, past the response size limit, and still reads an error answer', async () => {
    handler = (_req, res, n) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end('x'.repeat(5000));
        return;
      }
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
    };
    const { http } = client({ maxResponseBytes: 1000, maxRetries: 0 });
    let received = 0;
    const onBody = async (body: NodeJS.ReadableStream) => {
      for await (const chunk of body) received += (chunk as Buffer).length;
    };
    const response = await http.request({ method: 'GET', url: `${baseUrl}/result.csv`, onBody });
    assert.equal(response.body, undefined);
    assert.equal(received, 5000);
    assert.equal(seen[0]!.headers.authorization, undefined);
    await assert.rejects(http.request({ method: 'GET', url: `${baseUrl}/result.csv`, onBody }), /403 .*Request has expired/);
    assert.equal(received, 5000);
    await http.close();
  });

  it('reports a download that breaks off in its body once, without retrying it', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': '100' });
      res.write('a,b\n');
      setTimeout(() => res.destroy(), 20);
    };
    const { http } = client({ maxRetries: 2 });
    const onBody = async (body: NodeJS.ReadableStream) => {
      for await (const chunk of body) void chunk;
    };
    await assert.rejects(http.request({ method: 'GET', url: `${baseUrl}/result.csv`, onBody }), (error: unknown) => error instanceof ConnectionError && /the download broke off/.test(error.message));
    assert.equal(attempts, 1);
    await http.close();
  });

  it('names the endpoint and the limit of a request that timed out', async () => {
    handler = (_req, res) => setTimeout(() => json(res, 200, {}), 1_000);
    const { http } = client({ timeoutMs: 200, maxRetries: 0 });
    await assert.rejects(
      http.json('GET', '/v1/slow'),
      (error: unknown) => error instanceof RequestTimeoutError && error.message === 'GET /v1/slow: no answer within 0.2 s' && error.hint === 'raise --request-timeout (or CSAFE_REQUEST_TIMEOUT) if the service is slow',
    );
    await http.close();
  });

  it('stops a request on Ctrl-C or its own signal, but lets one that must finish finish', async () => {
    handler = (_req, res) => setTimeout(() => json(res, 200, { done: true }), 150);
    const interrupt = new AbortController();
    const { http } = client({ signal: interrupt.signal });
    const finishing = http.request({ method: 'POST', path: '/v1/data', json: {}, finishOnInterrupt: true });
    const cut = http.json('GET', '/v1/x');
    setTimeout(() => interrupt.abort(), 30);
    await assert.rejects(cut, InterruptedError);
    assert.deepEqual((await finishing).body, { done: true });
    const own = new AbortController();
    const plain = client();
    const stopped = plain.http.request({ method: 'GET', path: '/v1/x', signal: own.signal });
    setTimeout(() => own.abort(), 30);
    await assert.rejects(stopped, InterruptedError);
    await Promise.all([http.close(), plain.http.close()]);
  });

  it("says a request's note at once when Ctrl-C comes while it awaits its answer, and nothing once it has ended", async () => {
    let answer: (() => void) | undefined;
    const arrived = new Promise<void>((resolve) => {
      handler = (_req, res) => {
        answer = () => json(res, 200, { id: 'dec_1' });
        resolve();
      };
    });
    const awaitedAnswer = 'the answer to POST /v1/decisions';
    const interrupt = new AbortController();
    const { http, stderr } = client({ signal: interrupt.signal });
    const finishing = http.request({ method: 'POST', path: '/v1/decisions', json: {}, finishOnInterrupt: true, awaitedAnswer });
    await arrived;
    interrupt.abort('SIGINT');
    await new Promise(setImmediate);
    assert.equal(stderr(), 'interrupted: waiting for the answer to POST /v1/decisions (Ctrl-C again to leave without it)\n', 'said while the answer is awaited');
    answer!();
    assert.deepEqual((await finishing).body, { id: 'dec_1' });

    handler = (_req, res) => json(res, 200, { id: 'dec_2' });
    const later = new AbortController();
    const ended = client({ signal: later.signal });
    await ended.http.request({ method: 'POST', path: '/v1/decisions', json: {}, finishOnInterrupt: true, awaitedAnswer });
    later.abort();
    await new Promise(setImmediate);
    assert.equal(ended.stderr(), '', 'nothing is awaited any more');
    await Promise.all([http.close(), ended.http.close()]);
  });

  it("says, when the reader of stdout went away while a request's answer is awaited, that this stopped the run, and that one Ctrl-C leaves", async () => {
    let answer: (() => void) | undefined;
    const arrived = new Promise<void>((resolve) => {
      handler = (_req, res) => {
        answer = () => json(res, 200, { id: 'del_1' });
        resolve();
      };
    });
    const readerGone = new AbortController();
    const { http, stderr } = client({ signal: readerGone.signal });
    const finishing = http.request({ method: 'POST', path: '/v1/deletion_requests', json: {}, finishOnInterrupt: true, awaitedAnswer: 'the answer to POST /v1/deletion_requests' });
    await arrived;
    // As the launcher aborts the run when a write to stdout meets EPIPE: no signal has come.
    readerGone.abort('EPIPE');
    await new Promise(setImmediate);
    assert.equal(stderr(), 'the reader of stdout went away: waiting for the answer to POST /v1/deletion_requests (Ctrl-C to leave without it)\n');
    answer!();
    assert.deepEqual((await finishing).body, { id: 'del_1' });
    await http.close();
  });

  it('builds no trace line of a request without --verbose (redacting the URL is measurable at hundreds in flight)', async (t) => {
    handler = (_req, res) => json(res, 200, { ok: true });
    const { http, io } = client();
    const trace = t.mock.method(io, 'trace');
    await http.json('GET', '/v1/x');
    assert.deepEqual(trace.mock.calls.map((call) => typeof call.arguments[0]).slice(0, 1), ['function'], 'the request line is built on demand');
    await http.close();
  });

  it('gives each attempt one signal of its own and leaves no listener on Ctrl-C behind (no AbortSignal.timeout or .any per request)', async () => {
    handler = (_req, res) => json(res, 200, { ok: true });
    const interrupt = new AbortController();
    const { http } = client({ signal: interrupt.signal });
    await Promise.all(Array.from({ length: 20 }, () => http.json('GET', '/v1/x')));
    assert.equal(getEventListeners(interrupt.signal, 'abort').length, 0, 'every attempt removed its listener');
    // Their signals linger until garbage-collected: the client makes none (read from its code, as nothing global is replaced to count them).
    assert.doesNotMatch(readFileSync(fileURLToPath(import.meta.resolve('../../../src/core/http/client.js')), 'utf8'), /AbortSignal\.(timeout|any)\(/);
    await http.close();
  });

  it('reads a body of exactly the limit, declared or not, and names a limit in MB', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(20) });
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    };
    const exact = client({ maxResponseBytes: Buffer.byteLength(body) });
    assert.deepEqual(await exact.http.json('GET', '/v1/x'), { a: 'x'.repeat(20) });
    handler = (_req, res) => json(res, 200, { a: 'x'.repeat(20) }, { 'content-length': String(Buffer.byteLength(body)) });
    assert.deepEqual(await exact.http.json('GET', '/v1/x'), { a: 'x'.repeat(20) }, 'declared at exactly the limit');
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(3e9) });
      res.write('{');
    };
    const mb = client({ maxResponseBytes: 2 * 1024 * 1024 });
    await assert.rejects(mb.http.json('GET', '/v1/x'), (error: unknown) => error instanceof ResponseTooLargeError && error.message === 'GET /v1/x: the response is larger than 2 MB, the limit; stopped reading it');
    await Promise.all([exact.http.close(), mb.http.close()]);
  });

  it("keeps an error body's text when it is nested too deep to parse, and has none for an empty one", async () => {
    const deep = '['.repeat(600) + ']'.repeat(600);
    handler = (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(deep);
    };
    const { http } = client();
    await assert.rejects(http.json('GET', '/v1/x'), (error: unknown) => error instanceof BadRequestError && error.details.body === deep);
    handler = (_req, res) => {
      res.writeHead(400);
      res.end();
    };
    await assert.rejects(http.json('GET', '/v1/x'), (error: unknown) => error instanceof BadRequestError && error.details.body === undefined && error.message === 'GET /v1/x: 400: HTTP 400');
    await http.close();
  });

  it('bounds a request without a time limit of its own by the idle limits, and applies a shorter limit of its own', async () => {
    // undici checks its idle limits about once a second: the answer comes well after that.
    handler = (_req, res) => setTimeout(() => json(res, 200, {}), 2_500);
    const idle = client({ timeoutMs: 150, maxRetries: 0 });
    await assert.rejects(idle.http.request({ method: 'PUT', path: '/v1/x', timeoutMs: null }), (error: unknown) => error instanceof RequestTimeoutError && error.message === 'PUT /v1/x: no answer within 0.15 s');
    handler = (_req, res) => setTimeout(() => json(res, 200, {}), 600);
    const own = client({ timeoutMs: 5_000, maxRetries: 0 });
    await assert.rejects(own.http.request({ method: 'GET', path: '/v1/x', timeoutMs: 100 }), RequestTimeoutError);
    await Promise.all([idle.http.close(), own.http.close()]);
  });

  it('counts every retry it made across its requests (the bulk summary reports them)', async () => {
    handler = (_req, res, n) => (n % 2 === 1 ? json(res, 503, { error: { message: 'busy' } }) : json(res, 200, {}));
    const { http } = client();
    assert.equal(http.retries, 0);
    await http.json('POST', '/v1/a', {});
    attempts = 0;
    await http.json('POST', '/v1/b', {});
    assert.equal(http.retries, 2);
    await http.close();
  });

  it('takes an upload address answering 200 with no body, or a body that is not JSON, as done: an object store is not the service', async () => {
    const answers = ['', '<?xml version="1.0"?><PostResponse/>'];
    handler = (_req, res, n) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(answers[n - 1]);
    };
    const { http } = client({ maxRetries: 0 });
    for (let answered = 0; answered < answers.length; answered++) {
      const response = await http.request({ method: 'PUT', url: `${baseUrl}/upload?sig=1`, body: { open: () => Buffer.from('{"a":1}\n'), length: 8, contentType: 'application/x-ndjson' } });
      assert.equal(response.status, 200);
      assert.equal(response.body, undefined);
    }
    await http.close();
  });

  it('opens a body once per attempt, an upload\'s as a request\'s: opening a file body starts reading it', async () => {
    handler = (_req, res, n) => (n === 2 ? json(res, 503, {}) : json(res, 200, {}));
    const { http } = client({ maxRetries: 1 });
    const opened = { upload: 0, request: 0 };
    const body = (kind: keyof typeof opened) => ({ open: () => (opened[kind]++, Buffer.from('{}')), length: 2, contentType: 'application/json' });
    await http.request({ method: 'PUT', url: `${baseUrl}/upload?sig=1`, body: body('upload') });
    await http.request({ method: 'POST', path: '/v1/x', body: body('request'), replaySafe: true });
    assert.deepEqual(opened, { upload: 1, request: 2 }, 'the request answered 503 once is opened again for its retry');
    await http.close();
  });

  it('an upload whose own source fails (a check of the file found a bad line) fails with that error: no network failure, no retry', async () => {
    handler = (_req, res) => json(res, 200, {});
    const { http } = client({ maxRetries: 3 });
    const bad = new InputError('objects.jsonl:2: id: expected a string');
    const chunks = async function* () {
      yield Buffer.from('{"id":"a"}\n');
      throw bad;
    };
    await assert.rejects(http.request({ method: 'PUT', url: `${baseUrl}/upload`, body: { open: chunks, length: 100, contentType: 'application/x-ndjson' } }), (error: unknown) => error === bad);
    assert.deepEqual(sleeps, [], 'not retried');
    await http.close();
  });

  it('a download whose writer fails with an error of csafe\'s own (a file that cannot be written) fails with that error, not as a broken-off download', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('a,b\n');
    };
    const { http } = client({ maxRetries: 2 });
    const cannotWrite = new CsafeError('cannot write results.csv: permission denied');
    await assert.rejects(
      http.request({ method: 'GET', url: `${baseUrl}/result.csv`, onBody: async () => Promise.reject(cannotWrite) }),
      (error: unknown) => error === cannotWrite,
    );
    assert.equal(attempts, 1);
    await http.close();
  });

  it('calls an upload that stops moving a stall, and refuses a success answered before its last byte', async () => {
    // This store answers on the request's head and reads none of the body.
    let answer: (res: ServerResponse) => void = () => {};
    const store = createServer((req, res) => {
      req.pause();
      answer(res);
    });
    const storeUrl = `${await listenOnLoopback(store)}/upload`;
    const chunks = async function* () {
      for (let i = 0; i < 64; i++) yield Buffer.alloc(1 << 20);
    };
    const put = (http: HttpClient) => http.request({ method: 'PUT', url: storeUrl, body: { open: chunks, length: 64 << 20, contentType: 'application/json' }, timeoutMs: null });
    try {
      const stalled = client({ timeoutMs: 300, maxRetries: 0 });
      await assert.rejects(
        put(stalled.http),
        (error: unknown) => error instanceof RequestTimeoutError && error.message === `PUT ${storeUrl}: the upload stalled: no byte moved either way for 0.3 s` && error.hint === 'raise --request-timeout (or CSAFE_REQUEST_TIMEOUT) if the link is slow',
      );
      answer = (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      };
      const early = client({ maxRetries: 0 });
      await assert.rejects(put(early.http), (error: unknown) => error instanceof ConnectionError && /: the upload address answered 200 before the whole body was sent$/.test(error.message));
      await Promise.all([stalled.http.close(), early.http.close()]);
    } finally {
      closeServer(store);
    }
  });

  it('decodes a character split across chunks of the answer', async () => {
    const bytes = Buffer.from('{"a":"é"}');
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(bytes.subarray(0, 7));
      setTimeout(() => res.end(bytes.subarray(7)), 30);
    };
    const { http } = client();
    assert.deepEqual(await http.json('GET', '/v1/x'), { a: 'é' });
    await http.close();
  });

  it('names a connection cut by the server in words, with the host it went to', async () => {
    handler = (req) => req.socket.destroy();
    const { http } = client({ maxRetries: 0 });
    const host = new URL(http.baseUrl).host;
    await assert.rejects(http.json('GET', '/v1/x'), (error: unknown) => error instanceof ConnectionError && error.message === `GET /v1/x: the connection to ${host} closed before the answer was complete`);
    await http.close();
  });

  describe('a 2xx answer is JSON or an error, never a success', () => {
    const raw = (status: number, body: string, contentType = 'text/html') => (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(body);
    };
    const refused = async (pattern: RegExp, type: new (...args: never[]) => Error = UnexpectedResponseError) => {
      const { http } = client({ maxRetries: 0 });
      await assert.rejects(http.json('POST', '/v1/content', {}), (error: Error) => error instanceof type && pattern.test(error.message) && !error.message.includes('\n'));
      assert.equal(attempts, 1);
      await http.close();
    };

    it('retries an unreadable 2xx where a replay is safe (the work may be done, as after a cut connection), and never a request that is not', async () => {
      handler = raw(200, '<html>Service rerouted</html>');
      const { http } = client({ maxRetries: 2 });
      await assert.rejects(http.json('POST', '/v1/content', {}), (error: Error) => error instanceof UnexpectedResponseError && /is not JSON .*\(after 2 retries\)$/.test(error.message));
      assert.equal(attempts, 3);
      await assert.rejects(http.request({ method: 'POST', path: '/v1/decisions', json: {}, replaySafe: false }), (error: Error) => error instanceof UnexpectedResponseError && mayHaveBeenApplied(error));
      assert.equal(attempts, 4, 'a request that is not replay-safe is sent once');
      handler = (_req, res, n) => (n === 5 ? raw(200, '<html>rerouted</html>')(_req, res) : json(res, 200, { ok: true }));
      assert.deepEqual(await http.json('GET', '/v1/x'), { ok: true }, 'the retry reads the good answer');
      await http.close();
    });

    it('JSON of another shape than the caller reads (readAnswer) is unreadable alike: retried where a replay is safe, never where it is not', async () => {
      const readLabels = (body: unknown) => {
        if (!Array.isArray((body as { labels?: unknown } | null)?.labels)) throw new UnexpectedResponseError('POST /v1/content: unexpected response from the service: labels: expected array');
        return (body as { labels: unknown[] }).labels;
      };
      handler = (_req, res, n) => json(res, 200, n === 1 ? {} : { labels: ['x'] });
      const { http } = client({ maxRetries: 2 });
      const answer = await http.request({ method: 'POST', path: '/v1/content', json: {}, readAnswer: readLabels });
      assert.deepEqual(answer.body, ['x'], 'the body as read');
      assert.equal(attempts, 2, 'sent again after {}');
      handler = (_req, res) => json(res, 200, {});
      await assert.rejects(http.request({ method: 'POST', path: '/v1/decisions', json: {}, replaySafe: false, readAnswer: readLabels }), (error: Error) => error instanceof UnexpectedResponseError && mayHaveBeenApplied(error));
      assert.equal(attempts, 3, 'a request that is not replay-safe is sent once');
      await http.close();
    });

    it('refuses HTML, truncated JSON and an empty body, naming the endpoint', async () => {
      handler = raw(200, '<html><body>Welcome</body></html>');
      await refused(/^POST \/v1\/content: the response is not JSON \(it starts "<html><body>Welcome/);
      handler = raw(200, '{"labels": [', 'application/json');
      await refused(/^POST \/v1\/content: the response is not JSON/);
      handler = raw(200, '', 'application/json');
      await refused(/^POST \/v1\/content: the response is empty, expected JSON/);
    });

    it('quotes the start of an answer that is not JSON, after any white space, and says what may be answering', async () => {
      handler = raw(200, `\n  <html>${'x'.repeat(100)}  `);
      const { http } = client({ maxRetries: 0 });
      await assert.rejects(
        http.json('GET', '/v1/x'),
        (error: unknown) =>
          error instanceof UnexpectedResponseError &&
          error.message === `GET /v1/x: the response is not JSON (it starts "<html>${'x'.repeat(54)}")` &&
          error.hint === 'is the base URL right? A proxy or a login page may be answering instead of the service',
      );
      await http.close();
    });

    it('reads a non-JSON error body as the service message', async () => {
      handler = raw(502, '<html>Bad Gateway</html>');
      const { http } = client({ maxRetries: 0 });
      await assert.rejects(http.json('GET', '/v1/x'), (error: Error) => error instanceof ServerError && /502: <html>Bad Gateway/.test(error.message));
      await http.close();
    });

    it('refuses JSON nested deeper than the limit without recursing', async () => {
      handler = raw(200, '['.repeat(100_000) + ']'.repeat(100_000), 'application/json');
      await refused(/^POST \/v1\/content: the response is nested deeper than 512 levels/);
      handler = raw(200, `{"a":"${'['.repeat(5000)}"}`, 'application/json');
      const { http } = client();
      assert.deepEqual(await http.json('GET', '/v1/x'), { a: '['.repeat(5000) }, 'brackets inside strings do not count');
      await http.close();
    });

    it('refuses a body over the size limit from its Content-Length, and stops reading an endless one', async () => {
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(3e9) });
        res.write('{"a":');
      };
      const declared = client({ maxResponseBytes: 1000 });
      await assert.rejects(declared.http.json('GET', '/v1/x'), (error: Error) => error instanceof ResponseTooLargeError && /^GET \/v1\/x: the response is larger than 1000 bytes/.test(error.message));
      await declared.http.close();

      let closed: Promise<void> = Promise.resolve();
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        closed = new Promise((resolve) => res.on('close', () => resolve()));
        const chunk = Buffer.alloc(256, ' ');
        const pump = () => {
          while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
        };
        pump();
      };
      const endless = client({ maxResponseBytes: 100_000 });
      await assert.rejects(endless.http.json('GET', '/v1/x'), (error: Error) => error instanceof ResponseTooLargeError && /larger than 100000 bytes/.test(error.message));
      await closed;
      await endless.http.close();
    });
  });
});

describe('serviceMessage', () => {
  it("reads the service's own words from each shape of error body", () => {
    assert.deepEqual(serviceMessage({ error: { message: 'm', type: 't', field: 'f' } }, 400), { message: 'm', type: 't', field: 'f' });
    assert.deepEqual(serviceMessage({ error: { message: 'm', type: 1, field: null } }, 400), { message: 'm', type: undefined, field: undefined });
    assert.deepEqual(serviceMessage({ error: { type: 't' }, message: 'top' }, 400), { message: 'top' });
    assert.deepEqual(serviceMessage({ error: 'flat' }, 400), { message: 'flat' });
    assert.deepEqual(serviceMessage({ message: 'plain' }, 400), { message: 'plain' });
    assert.deepEqual(serviceMessage({ message: 1 }, 418), { message: 'HTTP 418' });
    assert.deepEqual(serviceMessage(null, 500), { message: 'HTTP 500' });
    assert.deepEqual(serviceMessage('   ', 502), { message: 'HTTP 502' });
    assert.deepEqual(serviceMessage('  gateway down \n', 502), { message: 'gateway down' });
    assert.equal(serviceMessage('x'.repeat(600), 502).message, 'x'.repeat(500));
  });

  it("reads an object store's XML error with or without a declaration, Code alone or Message alone", () => {
    assert.deepEqual(serviceMessage('<?xml version="1.0"?>\n<Error><Code>AccessDenied</Code></Error>', 403), { message: 'AccessDenied', type: 'AccessDenied' });
    assert.deepEqual(serviceMessage('<?xml version="1.0"?><Error><Code>A</Code></Error>', 403), { message: 'A', type: 'A' });
    assert.deepEqual(serviceMessage('<?xml version="1.0"?>\n\n<Error><Code>B</Code></Error>', 403), { message: 'B', type: 'B' });
    assert.deepEqual(serviceMessage('  <Error><Message> a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; </Message></Error>', 403), { message: 'a <b> & "c" \'d\'', type: undefined });
    assert.deepEqual(serviceMessage('<Error><Other>x</Other></Error>', 403), { message: '<Error><Other>x</Other></Error>' });
    assert.deepEqual(serviceMessage('x<Error><Code>C</Code></Error>', 403), { message: 'x<Error><Code>C</Code></Error>' });
  });
});
