import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { assertError, call, exampleBase64, resetEmulator, startTestEmulator, useTestEmulator } from './support.js';
import { waitFor } from '../helpers/wait.js';

interface LogEntry {
  seq: number;
  method: string;
  path: string;
  status: number;
  auth: string;
  service_version: string | null;
  content_type: string | null;
  content_length: number | null;
  duration_ms: number;
}

const requestLog = async (emulator: RunningEmulator) =>
  ((await call(emulator, 'GET', '/_emulator/requests')).body as { requests: LogEntry[] }).requests;

const textContent = (text: string) => ({ user_id: 'user_1', content: [{ type: 'text', text }] });

describe('emulator control endpoints', () => {
  const emulator = useTestEmulator();

  test('health answers with the API key, and only with it', async () => {
    assertError(await call(emulator, 'GET', '/_emulator/health', { key: null }), 401);
    const reply = await call(emulator, 'GET', '/_emulator/health');
    assert.equal(reply.status, 200);
    const body = reply.body as { status: string; version: string; uptime_s: number };
    assert.equal(body.status, 'ok');
    assert.equal(body.version, 'emulator');
    assert.ok(Number.isInteger(body.uptime_s) && body.uptime_s >= 0);
  });

  test('baseUrl carries the real port picked for port 0', () => {
    assert.notEqual(emulator.port, 0);
    assert.equal(emulator.baseUrl, `http://127.0.0.1:${emulator.port}`);
  });

  test('an unknown path is 404 and a known path with the wrong method is 405 with Allow', async () => {
    assertError(await call(emulator, 'GET', '/v1/nothing_here'), 404);
    assertError(await call(emulator, 'GET', '/_emulator/nothing_here'), 404);
    const wrongMethod = await call(emulator, 'GET', '/v1/content');
    assertError(wrongMethod, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'POST');
  });

  test('a body that is not JSON is a 400 naming the parse problem', async () => {
    const error = assertError(await call(emulator, 'POST', '/v1/content', { body: '{"user_id": ' }), 400, '(body)');
    assert.match(error.message, /not valid JSON/);
  });

  test('the request log records /v1 requests, without the query string, and not /_emulator ones', async () => {
    await call(emulator, 'POST', '/v1/content?trace=1', {
      json: textContent('hello'),
      headers: { 'Service-Version': '2026-08-11', 'User-Agent': 'csafe-test' },
    });
    await call(emulator, 'GET', '/_emulator/health');
    const [entry, ...rest] = await requestLog(emulator);
    assert.equal(rest.length, 0);
    assert.ok(entry);
    assert.equal(entry.seq, 1);
    assert.equal(entry.method, 'POST');
    assert.equal(entry.path, '/v1/content');
    assert.equal(entry.status, 200);
    assert.equal(entry.auth, 'api_key');
    assert.equal(entry.service_version, '2026-08-11');
    assert.equal(entry.content_type, 'application/json');
    assert.equal(entry.content_length, JSON.stringify(textContent('hello')).length);
    assert.ok(entry.duration_ms >= 0);
  });

  test('the request log names the kind of credential and never holds the key or a token', async () => {
    const token = ((await call(emulator, 'POST', '/v1/access_tokens')).body as { access_token: string }).access_token;
    await call(emulator, 'POST', '/v1/content', { json: textContent('hi'), key: token });
    await call(emulator, 'POST', '/v1/content', { json: textContent('hi'), key: null });
    await call(emulator, 'POST', '/v1/content', { json: textContent('hi'), key: 'sk_wrong_key' });
    const log = await requestLog(emulator);
    assert.deepEqual(
      log.map((entry) => [entry.auth, entry.status]),
      [['api_key', 200], ['token', 200], ['missing', 401], ['invalid', 401]],
    );
    const serialised = JSON.stringify(log);
    for (const secret of [emulator.apiKey, token, 'sk_wrong_key']) assert.ok(!serialised.includes(secret));
  });

  test('DELETE /_emulator/requests clears the log', async () => {
    await call(emulator, 'POST', '/v1/content', { json: textContent('hi') });
    assert.equal((await call(emulator, 'DELETE', '/_emulator/requests')).status, 200);
    assert.deepEqual(await requestLog(emulator), []);
  });

  test('reset forgets tokens, the log, added reference sets and quirks', async () => {
    const token = ((await call(emulator, 'POST', '/v1/access_tokens')).body as { access_token: string }).access_token;
    const photo = exampleBase64('photo.png');
    await call(emulator, 'POST', '/_emulator/reference_sets', { json: { set_id: 'rs_added', images: [photo] } });
    await call(emulator, 'POST', '/_emulator/quirks', { json: { unknown_values: true } });

    await resetEmulator(emulator);

    assertError(await call(emulator, 'POST', '/v1/content', { json: textContent('hi'), key: token }), 401);
    const imageRequest = { user_id: 'user_1', content: [{ type: 'image', source: { type: 'base64', data: photo } }] };
    const reply = await call(emulator, 'POST', '/v1/content', { json: imageRequest });
    const body = reply.body as { labels: { type: string }[]; x_emulator?: unknown };
    assert.ok(body.labels.every((label) => label.type === 'classifier'), 'the added reference set is gone');
    assert.equal(body.x_emulator, undefined, 'quirks are off again');
    assert.deepEqual(
      (await requestLog(emulator)).map((entry) => entry.seq),
      [1, 2],
      'the log restarts after the reset',
    );
  });

  test('quirks reject unknown switches and non-boolean values', async () => {
    assertError(await call(emulator, 'POST', '/_emulator/quirks', { json: { unknown_values: 'yes' } }), 400, 'unknown_values');
    assertError(await call(emulator, 'POST', '/_emulator/quirks', { json: { slow: true } }), 400, 'slow');
  });

  test('held_requests holds the next /v1 requests, processed, until release; in_flight counts the /v1 requests being served', async () => {
    const inFlight = async () => (await call(emulator, 'GET', '/_emulator/in_flight')).body;
    await call(emulator, 'POST', '/_emulator/quirks', { json: { held_requests: 2 } });
    const held = [call(emulator, 'POST', '/v1/content', { json: textContent('one') }), call(emulator, 'POST', '/v1/content', { json: textContent('two') })];
    await waitFor(async () => ((await inFlight()) as { held: number }).held === 2, { what: 'both requests held' });
    assert.equal((await call(emulator, 'POST', '/v1/content', { json: textContent('three') })).status, 200, 'the third is answered at once');
    assert.deepEqual(await inFlight(), { in_flight: 2, max_in_flight: 3, held: 2 });
    assert.deepEqual((await requestLog(emulator)).map((entry) => entry.seq), [1], 'a held request is logged when it is answered');
    assert.deepEqual((await call(emulator, 'POST', '/_emulator/release')).body, { released: 2 });
    assert.deepEqual((await Promise.all(held)).map((reply) => reply.status), [200, 200]);
    assert.deepEqual(await inFlight(), { in_flight: 0, max_in_flight: 3, held: 0 });
  });

  test('reset answers held requests and restarts max_in_flight', async () => {
    await call(emulator, 'POST', '/_emulator/quirks', { json: { held_requests: 1 } });
    const held = call(emulator, 'POST', '/v1/content', { json: textContent('one') });
    await waitFor(async () => ((await call(emulator, 'GET', '/_emulator/in_flight')).body as { held: number }).held === 1, { what: 'the request held' });
    await resetEmulator(emulator);
    assert.equal((await held).status, 200);
    assert.deepEqual((await call(emulator, 'GET', '/_emulator/in_flight')).body, { in_flight: 0, max_in_flight: 1, held: 0 });
  });

  test('reference_sets rejects bytes that are not an image', async () => {
    const notAnImage = Buffer.from('plain text').toString('base64');
    const reply = await call(emulator, 'POST', '/_emulator/reference_sets', { json: { set_id: 'rs_x', images: [notAnImage] } });
    assertError(reply, 400, 'images[0]');
  });
});

describe('emulator instances', () => {
  test('two instances in one process keep separate state', async () => {
    const [first, second] = await Promise.all([startTestEmulator(), startTestEmulator()]);
    try {
      await call(first, 'POST', '/v1/content', { json: textContent('hi') });
      assert.equal((await requestLog(first)).length, 1);
      assert.equal((await requestLog(second)).length, 0);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  test('latencyMs holds /v1 responses back but not control endpoints', async () => {
    const slow = await startTestEmulator({ latencyMs: 15_000 });
    const answered: string[] = [];
    const answer = (path: string) => () => void answered.push(path);
    // Both are cut off when the emulator closes, if still unanswered.
    const classifying = call(slow, 'POST', '/v1/content', { json: textContent('hi') }).then(answer('/v1/content'), () => undefined);
    const checking = call(slow, 'GET', '/_emulator/health').then(answer('/_emulator/health'), () => undefined);
    try {
      await waitFor(() => answered.length > 0, { what: 'an answer: the health check has no latency' });
      assert.deepEqual(answered, ['/_emulator/health'], '/v1/content, sent first, is still held back');
    } finally {
      await slow.close();
      await Promise.all([classifying, checking]);
    }
  });

  test('close() ends open connections, even one part-way through a request, rather than waiting for them', async (t) => {
    const emulator = await startTestEmulator();
    const socket = connect(emulator.port, emulator.host);
    t.after(() => socket.destroy());
    socket.on('error', () => {}); // the server resets it: that is the point
    await once(socket, 'connect');
    const socketClosed = new Promise((resolve) => socket.once('close', resolve));
    // Headers never finished: an active connection, which server.close() alone would wait on.
    await new Promise((resolve) => socket.write(`GET /_emulator/health HTTP/1.1\r\nHost: ${emulator.host}\r\n`, resolve));
    let closed = false;
    void emulator.close().then(() => (closed = true));
    await waitFor(() => closed, { what: 'close() to return while a connection was open' });
    await socketClosed;
  });
});

describe('a reset while requests are being processed', () => {
  const emulator = useTestEmulator();

  test('waits for them, and they for it: every write and listing answers, none with a 500 from a store emptied under it', async () => {
    const verdict = { content_type: 'listings', decision: 'match', policy_id: 'spam', agent_type: 'policy_expert' };
    const calls = Array.from({ length: 300 }, (_, index) =>
      index % 50 === 25
        ? call(emulator, 'POST', '/_emulator/reset', { json: {} })
        : index % 3 === 0
          ? call(emulator, 'GET', '/_emulator/agent_decisions')
          : call(emulator, 'POST', '/v1/agent_decisions', { json: { ...verdict, reference_id: `l-${index}` } }),
    );
    const statuses = (await Promise.all(calls)).map((reply) => reply.status);
    assert.deepEqual(statuses.filter((status) => status >= 300), []);
  });
});
