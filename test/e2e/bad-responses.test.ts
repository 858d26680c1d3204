import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { runCsafe, tempDir } from '../helpers/cli.js';
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
