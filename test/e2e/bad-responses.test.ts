import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { EXAMPLES, runCsafe, tempDir } from '../helpers/cli.js';
import { closeServer, listenOnLoopback } from '../helpers/server.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const send = (status: number, body: string, contentType = 'application/json'): Handler => (_req, res) => {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
};

const HTML = '<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>';
const CLASSIFIED = JSON.stringify({ content_id: 'c1', user_id: 'u', labels: [{ type: 'classifier', label: 'violence', decision: 'match', score: 0.9 }] });

/**
 * A stand-in for a misbehaving service (a proxy's HTML page, a cut body, an endless one): the
 * emulator deliberately never answers like this. Each test scripts the answer; the client is the real bin/csafe.
 */
describe('a service that answers 2xx with something unreadable', () => {
  let server: Server;
  let handler: Handler = send(200, CLASSIFIED);
  let baseUrl = '';
  const dir = tempDir();
  const connection = () => ['--base-url', baseUrl];
  // The key from the environment: --api-key would add a warning line to the one line each test expects.
  const withKey = { env: { CSAFE_API_KEY: 'sk_test_misbehaving_service' } };
  const classify = (...extra: string[]) => runCsafe([...connection(), 'classify', '--text', 'kill', '--user-id', 'u', ...extra], withKey);

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => handler(req, res));
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => {
    closeServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  const unreadable: Array<[string, Handler, RegExp]> = [
    ['an HTML page', send(200, HTML, 'text/html'), /not JSON/],
    ['truncated JSON', send(200, CLASSIFIED.slice(0, 40)), /not JSON/],
    ['null', send(200, 'null'), /expected object/],
    ['labels of the wrong type', send(200, JSON.stringify({ labels: 'none' })), /labels: .*expected array/],
    ['an empty body', send(200, ''), /empty/],
  ];
  for (const [what, answer, reason] of unreadable) {
    it(`classify --fail-on review exits 1 on ${what}, with one line naming the endpoint`, async () => {
      handler = answer;
      const { code, stdout, stderr } = await classify('--fail-on', 'review', '--json');
      assert.equal(code, 1, stderr);
      assert.equal(stdout, '', 'nothing printed as a result');
      assert.match(stderr, /^error: POST \/v1\/content: /);
      assert.match(stderr, reason);
      assert.equal(stderr.trim().split('\n').filter((line) => !line.startsWith('hint:')).length, 1, stderr);
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
    });
  }

  it('classify of the previous version requires a policies array', async () => {
    handler = send(200, CLASSIFIED);
    const { code, stderr } = await classify('--api-version', '2026-08-05');
    assert.equal(code, 1, stderr);
    assert.match(stderr, /POST \/v1\/content: .*policies: .*expected array/);
  });

  it('classify --batch writes a line with an unreadable answer to the failed file (exit 1: none classified)', async () => {
    handler = send(200, HTML, 'text/html');
    const input = join(dir, 'batch.jsonl');
    const failed = join(dir, 'batch-failed.jsonl');
    writeFileSync(input, '{"text":"a"}\n');
    const { code, stdout, stderr } = await runCsafe([...connection(), 'classify', '--batch', input, '--user-id', 'u', '--failed', failed, '--fail-on', 'review'], withKey);
    assert.equal(code, 1, stderr);
    assert.equal(stdout, '');
    assert.equal(readFileSync(failed, 'utf8'), '{"text":"a"}\n');
    assert.match(stderr, new RegExp(`^${input}:1: POST /v1/content: .*not JSON`, 'm'));
  });

  it('token create never prints HTML as a token', async () => {
    handler = send(200, HTML, 'text/html');
    const { code, stdout, stderr } = await runCsafe([...connection(), 'token', 'create', '--json'], withKey);
    assert.equal(code, 1, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /^error: POST \/v1\/access_tokens: .*not JSON/);
  });

  it('token create requires access_token to be a string', async () => {
    handler = send(200, JSON.stringify({ access_token: 42, expires_at: '2026-01-01T00:00:00Z', expires_in: 3600, token_type: 'Bearer' }));
    const { code, stdout, stderr } = await runCsafe([...connection(), 'token', 'create', '--json'], withKey);
    assert.equal(code, 1, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /POST \/v1\/access_tokens: .*access_token: .*expected string/);
  });

  it('refuses JSON nested deeper than the limit, without a stack trace', async () => {
    const depth = 200_000;
    handler = send(200, '['.repeat(depth) + ']'.repeat(depth));
    const { code, stdout, stderr } = await classify('--fail-on', 'review');
    assert.equal(code, 1, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /^error: POST \/v1\/content: the response is nested deeper than 512 levels/);
    assert.doesNotMatch(stderr, /RangeError|\n\s+at /);
  });

  it('stops reading an endless body at the size limit', async () => {
    const chunk = Buffer.alloc(1 << 20, ' ');
    let sent = 0;
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"labels":[');
      // Bounded so a client that never stops cannot make the test run for ever.
      const pump = () => {
        while (sent < 512 * chunk.length && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    };
    const { code, stdout, stderr } = await classify('--fail-on', 'review');
    assert.equal(code, 1, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /^error: POST \/v1\/content: the response is larger than 64 MB/);
    assert.ok(sent < 512 * chunk.length, `the client stopped reading (server sent ${sent} bytes)`);
  });

  it('a 403 from the service is "key refused", exit 3', async () => {
    handler = send(403, JSON.stringify({ error: { type: 'permission_denied', message: 'invalid API key' } }));
    const { code, stderr } = await classify();
    assert.equal(code, 3, stderr);
    assert.match(stderr, /403 permission_denied: invalid API key/);
  });
});

/**
 * README "Retries and timeouts": a 2xx is not a success until its body is what the command relies
 * on. Whether it cannot be read as JSON at all or is JSON of another shape, the service may have
 * applied the request: retried where sending it again is harmless, else in the unconfirmed file.
 */
describe('bulk commands: the first answer a 2xx that is not what the command relies on', () => {
  // Answers the first request with the bad 2xx, every later one as the service would; records each request's body.
  let bad = '';
  let requests: Array<{ body: string }> = [];
  let server: Server;
  let baseUrl = '';
  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        requests.push({ body });
        if (requests.length === 1) {
          res.writeHead(200, { 'content-type': bad.startsWith('<') ? 'text/html' : 'application/json' }).end(bad);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(goodAnswer(req.url ?? '', body)));
      });
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => closeServer(server));

  const goodAnswer = (path: string, body: string): unknown => {
    if (path === '/v1/content') return JSON.parse(CLASSIFIED);
    if (path === '/v1/async/events') return { status: 'queued', queued_events: (JSON.parse(body) as unknown[]).length };
    if (path === '/v1/agent_decisions') return { safetykitCorrect: true };
    if (path === '/v1/deletion_requests') return { deletion_request_id: `dr_${requests.length}`, status: 'accepted', external_request_id: (JSON.parse(body) as { external_request_id: string }).external_request_id };
    return { requestId: `req_${requests.length}`, status: 'queued' };
  };

  const part = (text: string) => JSON.stringify({ type: 'chat_message', sender_id: 'u7', sender_display_name: 'Ann', text, timestamp: '2026-11-21T10:00:00Z' });
  // Without an idempotency_key: csafe adds one, unless --no-auto-idempotency.
  const event = (n: number) => JSON.stringify({ type: 'content_uploaded', event_name: 'post_published', timestamp: `2026-11-21T10:00:0${n}Z`, user_id: 'u1', content: [{ type: 'text', text: `post ${n}` }] });
  // Two records each, one request each, one at a time: the first meets the bad answer. IN, FAILED and UNCONFIRMED name the run's files.
  const one = ['--concurrency', '1'];
  const unconfirmedFile = ['--unconfirmed', 'UNCONFIRMED'];
  const commands = [
    { name: 'data add', args: ['data', 'add', 'ns', 'IN', '--batch-size', '1', ...one], records: ['{"id":"a"}', '{"id":"b"}'], idempotent: true },
    { name: 'events send', args: ['events', 'send', 'IN', '--batch-size', '1', ...unconfirmedFile], records: [event(1), event(2)], idempotent: true },
    { name: 'events send --no-auto-idempotency', args: ['events', 'send', 'IN', '--batch-size', '1', '--no-auto-idempotency', ...unconfirmedFile], records: [event(1), event(2)], idempotent: false },
    { name: 'classify --batch', args: ['classify', '--batch', 'IN', '--user-id', 'u1', ...one], records: ['{"text":"a"}', '{"text":"b"}'], idempotent: true },
    { name: 'stream parts', args: ['stream', 'parts', 'ns', '--id', 's1', 'IN', '--batch-size', '1', ...unconfirmedFile], records: [part('a'), part('b')], idempotent: false },
    { name: 'agent-decision send', args: ['agent-decision', 'send', 'IN', ...one, ...unconfirmedFile], records: readFileSync(join(EXAMPLES, 'agent-decisions.jsonl'), 'utf8').split('\n').slice(0, 2), idempotent: false },
    { name: 'deletion-request send', args: ['deletion-request', 'send', 'IN', ...one], records: readFileSync(join(EXAMPLES, 'deletion-requests.jsonl'), 'utf8').split('\n').slice(0, 2), idempotent: true },
  ];
  const kinds = [
    { kind: 'an HTML page (not JSON)', answer: HTML },
    { kind: 'JSON of another shape ({})', answer: '{}' },
  ];
  for (const { name, args, records, idempotent } of commands) {
    for (const { kind, answer } of kinds) {
      it(`${name}, ${kind}: ${idempotent ? 'retried, and every record delivered once' : 'not sent again: the record is in the unconfirmed file'}`, async () => {
        bad = answer;
        requests = [];
        const dir = tempDir();
        const input = join(dir, 'in.jsonl');
        writeFileSync(input, `${records.join('\n')}\n`);
        const files: Record<string, string> = { IN: input, FAILED: join(dir, 'failed.jsonl'), UNCONFIRMED: join(dir, 'unconfirmed.jsonl') };
        const [failed, unconfirmed] = [files.FAILED!, files.UNCONFIRMED!];
        const { code, stderr } = await runCsafe(['--base-url', baseUrl, ...[...args, '--failed', 'FAILED'].map((arg) => files[arg] ?? arg)], { env: { CSAFE_API_KEY: 'sk_test_misbehaving_service' } });
        const linesOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
        assert.deepEqual(linesOf(failed), [], `nothing in the failed file\n${stderr}`);
        if (idempotent) {
          assert.equal(code, 0, stderr);
          // The first request sent again as it was: its key (or id) makes the service apply it once.
          assert.equal(requests.length, 3, stderr);
          assert.equal(requests[1]!.body, requests[0]!.body, 'the retry is the same request');
          assert.notEqual(requests[2]!.body, requests[0]!.body);
          assert.deepEqual(linesOf(unconfirmed), []);
        } else {
          assert.equal(code, 5, stderr);
          assert.equal(requests.length, 2, `sent once each\n${stderr}`);
          assert.deepEqual(linesOf(unconfirmed).map((line) => JSON.parse(line) as unknown), [JSON.parse(records[0]!)]);
        }
      });
    }
  }
});

/**
 * The emulator's control routes are read as the service's are: a 2xx that is not what the command
 * relies on is sent again where that is harmless (status; a reset, which leaves the emulator as the
 * first one did), and never where it makes something (a triggered event would be delivered twice).
 */
describe('emulator control commands: the first answer a 2xx that is not what the command relies on', () => {
  let bad = '';
  let requests: string[] = [];
  let server: Server;
  let baseUrl = '';
  const good: Record<string, unknown> = {
    '/_emulator/health': { status: 'ok', uptime_s: 3 },
    '/_emulator/reset': { status: 'reset' },
    '/_emulator/webhooks/trigger': { type: 'workflow.succeeded', webhook_id: 'wh_1', deliveries: 1 },
  };
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests.push(`${req.method} ${req.url}`);
        if (requests.length === 1) return void res.writeHead(200, { 'content-type': bad.startsWith('<') ? 'text/html' : 'application/json' }).end(bad);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(good[req.url ?? '']));
      });
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => closeServer(server));

  const commands = [
    { name: 'emulator status', args: ['emulator', 'status', '--json'], request: 'GET /_emulator/health', replaySafe: true },
    { name: 'emulator reset', args: ['emulator', 'reset', '--json'], request: 'POST /_emulator/reset', replaySafe: true },
    { name: 'webhooks trigger', args: ['webhooks', 'trigger', 'workflow.succeeded', '--json'], request: 'POST /_emulator/webhooks/trigger', replaySafe: false },
  ];
  const kinds = [
    { kind: 'an HTML page (not JSON)', answer: HTML, reason: /not JSON/ },
    { kind: 'JSON of another shape ({})', answer: '{}', reason: /expected string/ },
  ];
  for (const { name, args, request, replaySafe } of commands) {
    for (const { kind, answer, reason } of kinds) {
      it(`${name}, ${kind}: ${replaySafe ? 'sent again, and the good answer printed' : 'not sent again (exit 1)'}`, async () => {
        bad = answer;
        requests = [];
        const { code, stdout, stderr } = await runCsafe(['--base-url', baseUrl, ...args], { env: { CSAFE_API_KEY: 'sk_test_misbehaving_service' } });
        if (replaySafe) {
          assert.equal(code, 0, stderr);
          assert.deepEqual(requests, [request, request], stderr);
          assert.deepEqual(JSON.parse(stdout), { base_url: baseUrl, ...(good[request.split(' ')[1]!] as object) });
        } else {
          assert.equal(code, 1, stderr);
          assert.deepEqual(requests, [request], stderr);
          assert.equal(stdout, '');
          assert.match(stderr, new RegExp(`^error: ${request}: `));
          assert.match(stderr, reason);
        }
      });
    }
  }
});

describe('a service whose error message quotes the API key back', () => {
  const key = 'sk_test_quoted_back_0123456789';
  let server: Server;
  let baseUrl = '';
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const quoted = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        send(503, JSON.stringify({ error: { type: 'unavailable', message: `no capacity for key ${quoted}` } }))(req, res);
      });
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => closeServer(server));

  it('--verbose: the lines announcing each retry, and the error, show it redacted', async () => {
    const { code, stderr } = await runCsafe(['--base-url', baseUrl, '--verbose', '--max-retries', '1', 'classify', '--text', 'hi', '--user-id', 'u'], {
      env: { CSAFE_API_KEY: key },
      timeoutMs: 30_000,
    });
    assert.equal(code, 1, stderr);
    assert.match(stderr, /^retry 1\/1 of POST \/v1\/content in \d+ ms after: .*no capacity for key \[REDACTED\]/m);
    assert.match(stderr, /^error: .*no capacity for key \[REDACTED\]/m);
    assert.ok(!stderr.includes(key), stderr);
  });
});
