import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HttpClient } from '../../src/core/http.js';
import { AuthenticationError, BadRequestError, ConnectionError, RequestTimeoutError, ResponseTooLargeError, RetryAfterTooLongError, ServerError, UnexpectedResponseError } from '../../src/core/errors.js';
import { DEFAULT_RETRY_POLICY } from '../../src/core/retry.js';
import { bufferIO } from '../helpers/io.js';
import { closeServer, listenOnLoopback } from '../helpers/server.js';

type Handler = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

/** A real local server whose answer per attempt the test scripts; the client under test is the real one. */
describe('HttpClient', () => {
  let server: Server;
  let baseUrl: string;
  let handler: Handler = () => {};
  let attempts = 0;
  const seen: IncomingMessage[] = [];
  const sleeps: number[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      req.resume();
      req.on('end', () => handler(req, res, ++attempts));
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => {
    closeServer(server);
  });

  const client = (overrides: { maxRetries?: number; maxWaitMs?: number; timeoutMs?: number; verbose?: boolean; maxResponseBytes?: number } = {}) => {
    attempts = 0;
    seen.length = 0;
    sleeps.length = 0;
    const streams = bufferIO({ verbose: overrides.verbose });
    const http = new HttpClient({
      baseUrl,
      apiKey: 'sk_test_secret_key',
      timeoutMs: overrides.timeoutMs ?? 2000,
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: overrides.maxRetries ?? 2, maxWaitMs: overrides.maxWaitMs ?? 60_000 },
      userAgent: 'csafe/test',
      io: streams.io,
      now: () => Date.now(),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      maxResponseBytes: overrides.maxResponseBytes,
    });
    return { http, stderr: streams.stderr };
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
  describe('a 2xx answer is JSON or an error, never a success', () => {
    const raw = (status: number, body: string, contentType = 'text/html') => (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(body);
    };
    const refused = async (pattern: RegExp, type: new (...args: never[]) => Error = UnexpectedResponseError) => {
      const { http } = client();
      await assert.rejects(http.json('POST', '/v1/content', {}), (error: Error) => error instanceof type && pattern.test(error.message) && !error.message.includes('\n'));
      assert.equal(attempts, 1, 'not retried');
      await http.close();
    };

    it('refuses HTML, truncated JSON and an empty body, naming the endpoint', async () => {
      handler = raw(200, '<html><body>Welcome</body></html>');
      await refused(/^POST \/v1\/content: the response is not JSON \(it starts "<html><body>Welcome/);
      handler = raw(200, '{"labels": [', 'application/json');
      await refused(/^POST \/v1\/content: the response is not JSON/);
      handler = raw(200, '', 'application/json');
      await refused(/^POST \/v1\/content: the response is empty, expected JSON/);
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
