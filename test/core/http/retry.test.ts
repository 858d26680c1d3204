import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, decideRetry, DEFAULT_RETRY_POLICY, serverRequestedDelay, shouldRetry } from '../../../src/core/http/retry.js';

const response = (status: number, headers: Record<string, string | string[]> = {}) => ({ kind: 'response' as const, status, headers });
const NOW = Date.parse('2026-11-21T12:00:00Z');

describe('shouldRetry', () => {
  it('retries connection errors, timeouts, 408, 409, 429 and every 5xx, as the SDKs of the service do', () => {
    for (const status of [408, 409, 429, 500, 501, 502, 503, 504, 599]) assert.equal(shouldRetry(response(status)), true, String(status));
    assert.equal(shouldRetry({ kind: 'network-error', sent: true }), true);
    assert.equal(shouldRetry({ kind: 'network-error', sent: false }), true);
    assert.equal(shouldRetry({ kind: 'timeout' }), true);
  });

  it('retries a request that must not be replayed only when it cannot have been processed', () => {
    assert.equal(shouldRetry(response(429), false), true);
    assert.equal(shouldRetry(response(503), false), true);
    assert.equal(shouldRetry({ kind: 'network-error', sent: false }, false), true);
    for (const status of [408, 409, 500, 502, 504]) assert.equal(shouldRetry(response(status), false), false, String(status));
    assert.equal(shouldRetry({ kind: 'network-error', sent: true }, false), false);
    assert.equal(shouldRetry({ kind: 'timeout' }, false), false);
  });

  it('never retries another 4xx, nor a 3xx or 2xx', () => {
    for (const status of [200, 304, 400, 401, 403, 404, 407, 410, 413, 422, 499]) assert.equal(shouldRetry(response(status)), false, String(status));
  });

  it('lets x-should-retry override the status rule both ways, for any request', () => {
    assert.equal(shouldRetry(response(503, { 'x-should-retry': 'false' })), false);
    assert.equal(shouldRetry(response(400, { 'x-should-retry': 'true' })), true);
    assert.equal(shouldRetry(response(500, { 'x-should-retry': 'true' }), false), true);
    assert.equal(shouldRetry(response(429, { 'x-should-retry': 'false' }), false), false);
    assert.equal(shouldRetry(response(500, { 'x-should-retry': 'maybe' })), true);
    assert.equal(shouldRetry(response(400, { 'x-should-retry': ['true', 'false'] })), true);
  });
});

describe('serverRequestedDelay', () => {
  it('reads Retry-After in seconds', () => {
    assert.equal(serverRequestedDelay({ 'retry-after': '3' }, NOW), 3000);
  });

  it('reads Retry-After as an HTTP date', () => {
    assert.equal(serverRequestedDelay({ 'retry-after': 'Sat, 21 Nov 2026 12:00:05 GMT' }, NOW), 5000);
  });

  it('treats a date in the past as no wait', () => {
    assert.equal(serverRequestedDelay({ 'retry-after': 'Sat, 21 Nov 2026 11:00:00 GMT' }, NOW), 0);
  });

  it('prefers retry-after-ms', () => {
    assert.equal(serverRequestedDelay({ 'retry-after-ms': '250', 'retry-after': '9' }, NOW), 250);
  });

  it('ignores nonsense', () => {
    assert.equal(serverRequestedDelay({ 'retry-after': 'soon' }, NOW), undefined);
    assert.equal(serverRequestedDelay({}, NOW), undefined);
  });
});

describe('backoff', () => {
  const policy = DEFAULT_RETRY_POLICY;

  it('waits 0.5 s·2ⁿ when the jitter takes nothing off', () => {
    assert.deepEqual([0, 1, 2, 3].map((n) => backoffDelay(n, policy, () => 0)), [500, 1000, 2000, 4000]);
  });

  it('takes at most 25 % off, so a wait is never 0 ms', () => {
    assert.deepEqual([0, 1, 2, 3].map((n) => backoffDelay(n, policy, () => 0.999_999)), [375, 750, 1500, 3000]);
    assert.equal(backoffDelay(0, policy, () => 0.5), 437);
  });

  it('caps the wait at 8 s before the jitter', () => {
    assert.equal(backoffDelay(4, policy, () => 0), 8000);
    assert.equal(backoffDelay(10, policy, () => 0), 8000);
    assert.equal(backoffDelay(10, policy, () => 0.999_999), 6000);
    assert.equal(backoffDelay(1, { ...policy, maxDelayMs: 600 }, () => 0), 600);
  });
});

describe('decideRetry', () => {
  it('stops after maxRetries', () => {
    assert.equal(decideRetry(response(503), 1, DEFAULT_RETRY_POLICY, NOW).retry, true);
    assert.equal(decideRetry(response(503), 2, DEFAULT_RETRY_POLICY, NOW).retry, false);
    assert.equal(decideRetry(response(503), 0, { ...DEFAULT_RETRY_POLICY, maxRetries: 0 }, NOW).retry, false);
  });

  it('uses the server delay when one is given, and says so', () => {
    assert.deepEqual(decideRetry(response(429, { 'retry-after': '2' }), 0, DEFAULT_RETRY_POLICY, NOW), { retry: true, delayMs: 2000, serverRequested: true });
    assert.deepEqual(decideRetry(response(503, { 'retry-after-ms': '40' }), 0, DEFAULT_RETRY_POLICY, NOW), { retry: true, delayMs: 40, serverRequested: true });
    const own = decideRetry(response(500), 1, DEFAULT_RETRY_POLICY, NOW, () => 0);
    assert.deepEqual(own, { retry: true, delayMs: 1000, serverRequested: false });
  });

  it('neither retries nor waits when the status is not retried', () => {
    assert.deepEqual(decideRetry(response(400, { 'retry-after': '2' }), 0, DEFAULT_RETRY_POLICY, NOW), { retry: false, delayMs: 0, serverRequested: false });
  });

  it('backs off after a connection error, which has no headers', () => {
    assert.deepEqual(decideRetry({ kind: 'network-error', sent: false }, 0, DEFAULT_RETRY_POLICY, NOW, () => 0, false), { retry: true, delayMs: 500, serverRequested: false });
    assert.equal(decideRetry({ kind: 'timeout' }, 0, DEFAULT_RETRY_POLICY, NOW, () => 0, false).retry, false);
  });
});
