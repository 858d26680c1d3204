import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, decideRetry, DEFAULT_RETRY_POLICY, serverRequestedDelay, shouldRetry } from '../../src/core/retry.js';

const response = (status: number, headers: Record<string, string> = {}) => ({ kind: 'response' as const, status, headers });
const NOW = Date.parse('2026-11-21T12:00:00Z');

describe('shouldRetry', () => {
  it('retries 408, 429, 502, 503, 504, network errors and timeouts', () => {
    for (const status of [408, 429, 502, 503, 504]) assert.equal(shouldRetry(response(status)), true, String(status));
    assert.equal(shouldRetry({ kind: 'network-error', sent: true }), true);
    assert.equal(shouldRetry({ kind: 'timeout' }), true);
  });

  it('retries a request that must not be replayed only when it cannot have been processed', () => {
    assert.equal(shouldRetry(response(429), false), true);
    assert.equal(shouldRetry(response(503), false), true);
    assert.equal(shouldRetry({ kind: 'network-error', sent: false }, false), true);
    for (const status of [408, 502, 504]) assert.equal(shouldRetry(response(status), false), false, String(status));
    assert.equal(shouldRetry({ kind: 'network-error', sent: true }, false), false);
    assert.equal(shouldRetry({ kind: 'timeout' }, false), false);
  });

  it('never retries 400, 401, 403, 413, 404 or 500', () => {
    for (const status of [400, 401, 403, 404, 413, 500]) assert.equal(shouldRetry(response(status)), false, String(status));
  });

  it('lets x-should-retry override the status rule both ways', () => {
    assert.equal(shouldRetry(response(503, { 'x-should-retry': 'false' })), false);
    assert.equal(shouldRetry(response(400, { 'x-should-retry': 'true' })), true);
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
  it('uses full jitter under an exponential ceiling capped at 8 s', () => {
    assert.equal(backoffDelay(0, DEFAULT_RETRY_POLICY, () => 0.999), 499);
    assert.equal(backoffDelay(3, DEFAULT_RETRY_POLICY, () => 0.5), 2000);
    assert.equal(backoffDelay(10, DEFAULT_RETRY_POLICY, () => 0.999), 7992);
    assert.equal(backoffDelay(2, DEFAULT_RETRY_POLICY, () => 0), 0);
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
    const own = decideRetry(response(503), 0, DEFAULT_RETRY_POLICY, NOW, () => 0.5);
    assert.deepEqual(own, { retry: true, delayMs: 250, serverRequested: false });
  });
});
