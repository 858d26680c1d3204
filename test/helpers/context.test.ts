import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RequestLogEntry } from '../../src/emulator/http/request-log.js';
import { FixedClock } from './clock.js';
import { jsonBody, verifyRequests } from './context.js';

const entry = (method: string, path: string, body: string | null = null) =>
  ({ method, path, status: 200, body, body_bytes: body?.length ?? 0, body_truncated: false }) as RequestLogEntry;

test('verifyRequests passes when exactly the expected requests came, in any order', () => {
  const log = [entry('GET', '/v1/a'), entry('POST', '/v1/b', '{"x":1}'), entry('GET', '/v1/a')];
  verifyRequests(log, [{ method: 'POST', path: '/v1/b', body: jsonBody({ x: 1 }) }, { method: 'GET', path: /^\/v1\/a$/, times: 2 }]);
  verifyRequests(log, [{ method: 'GET', path: '/v1/a', times: 'many' }, { method: 'POST', path: '/v1/b' }]);
});

test('verifyRequests fails on a request nobody expected, naming it with its body', () => {
  assert.throws(() => verifyRequests([entry('GET', '/v1/a'), entry('POST', '/v1/b', '{"x":2}')], [{ method: 'GET', path: '/v1/a' }]), {
    message: 'unexpected request: POST /v1/b → 200 {"x":2}',
  });
});

test('verifyRequests fails on a body that does not match, on a method that does not, and on one request too many', () => {
  assert.throws(() => verifyRequests([entry('POST', '/v1/b', '{"x":2}')], [{ method: 'POST', path: '/v1/b', body: jsonBody({ x: 1 }) }]), /unexpected request: POST \/v1\/b/);
  assert.throws(() => verifyRequests([entry('PUT', '/v1/b')], [{ method: 'POST', path: '/v1/b' }]), /unexpected request: PUT \/v1\/b/);
  assert.throws(() => verifyRequests([entry('GET', '/v1/a'), entry('GET', '/v1/a')], [{ method: 'GET', path: '/v1/a' }]), /unexpected request: GET \/v1\/a/);
});

test('verifyRequests fails when an expected request never came, or came too few times', () => {
  assert.throws(() => verifyRequests([], [{ method: 'GET', path: '/v1/a', body: () => true }]), {
    message: 'expected request did not come 1 time(s): GET /v1/a (with a body check)',
  });
  assert.throws(() => verifyRequests([entry('GET', '/v1/a')], [{ method: 'GET', path: '/v1/a', times: 2 }]), /did not come 2 time\(s\): GET \/v1\/a/);
  assert.throws(() => verifyRequests([], [{ method: 'GET', path: /a/, times: 'many' }]), /did not come at all: GET \/a\//);
});

test('the fixed clock moves only when advanced or slept on, and a sleep on an aborted signal rejects', async () => {
  const clock = new FixedClock(1_000);
  assert.equal(clock.now(), 1_000);
  await clock.sleep(250);
  clock.advance(5);
  assert.equal(clock.now(), 1_255);
  const aborted = AbortSignal.abort();
  await assert.rejects(clock.sleep(10, aborted), { name: 'AbortError' });
  assert.equal(clock.now(), 1_255);
});
