import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeNetworkError } from '../../../src/core/http/network-words.js';

const failure = (code: string, message = 'raw') => Object.assign(new Error(message), { code });
/** As undici throws it: a TypeError whose cause carries the code. */
const wrapped = (code: string, message: string) => Object.assign(new TypeError('fetch failed'), { cause: failure(code, message) });

describe('describeNetworkError', () => {
  it('says what happened, to which host, in words instead of Node or undici codes', () => {
    assert.equal(describeNetworkError(wrapped('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), 'http://127.0.0.1:9/v1/content'), 'cannot connect to 127.0.0.1:9 (connection refused)');
    assert.equal(describeNetworkError(failure('ENOTFOUND'), 'https://api.nosuch.example/v1/content'), 'cannot find the host api.nosuch.example (no such name in DNS)');
    assert.equal(describeNetworkError(failure('EAI_AGAIN'), 'https://api.example:8443/x'), 'cannot look up the host api.example (DNS did not answer; try again)');
    assert.equal(describeNetworkError(failure('UND_ERR_SOCKET', 'other side closed'), 'http://127.0.0.1:4477/v1/x'), 'the connection to 127.0.0.1:4477 closed before the answer was complete');
    assert.equal(describeNetworkError(failure('ECONNRESET'), 'https://api.example/v1/x'), 'the connection to api.example was reset before the answer came');
    assert.equal(describeNetworkError(failure('CERT_HAS_EXPIRED'), 'https://api.example/v1/x'), 'the TLS certificate of api.example has expired');
  });

  it('never shows a pre-signed address\'s query, only its host', () => {
    const text = describeNetworkError(failure('ECONNRESET'), 'https://uploads.example/u/1?X-Signature=secret');
    assert.ok(!text.includes('secret'), text);
  });

  it('keeps the code and message of a failure it has no words for', () => {
    assert.equal(describeNetworkError(wrapped('EWEIRD', 'something odd'), 'http://h/x'), 'EWEIRD something odd');
    assert.equal(describeNetworkError(new Error('plain'), 'http://h/x'), 'plain');
  });
});
