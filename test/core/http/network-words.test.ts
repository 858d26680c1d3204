import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeNetworkError, errorCode } from '../../../src/core/http/network-words.js';

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

  it('has words of its own for every failure of connecting, of the connection and of TLS, each naming the host (and port) or the host alone', () => {
    const withPort = 'https://api.example:8443/v1/x';
    const expected: Array<[string, string]> = [
      ['EHOSTUNREACH', 'cannot reach api.example:8443 (no route to the host)'],
      ['ENETUNREACH', 'cannot reach api.example:8443 (the network is unreachable)'],
      ['UND_ERR_CONNECT_TIMEOUT', 'cannot connect to api.example:8443 (no answer to the connection in time)'],
      ['EPIPE', 'the connection to api.example:8443 closed while the request was being sent'],
      ['UND_ERR_CLOSED', 'the connection to api.example:8443 was closed'],
      ['ERR_TLS_CERT_ALTNAME_INVALID', 'the TLS certificate of api.example is not for that name'],
      ['CERT_HAS_EXPIRED', 'the TLS certificate of api.example has expired'],
      ['DEPTH_ZERO_SELF_SIGNED_CERT', 'the TLS certificate of api.example is self-signed, so not trusted'],
      ['SELF_SIGNED_CERT_IN_CHAIN', 'the TLS certificate of api.example is signed by an untrusted (self-signed) authority'],
      ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'the TLS certificate of api.example cannot be verified (its issuer is unknown)'],
      ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'the TLS certificate of api.example cannot be verified (its issuer is unknown)'],
      ['ENOTFOUND', 'cannot find the host api.example (no such name in DNS)'],
    ];
    for (const [code, words] of expected) assert.equal(describeNetworkError(wrapped(code, `${code} raw`), withPort), words, code);
  });

  it('takes only the port off a host named by its IPv6 address', () => {
    assert.equal(describeNetworkError(failure('ENOTFOUND'), 'http://[::1]:4477/v1/x'), 'cannot find the host [::1] (no such name in DNS)');
    assert.equal(describeNetworkError(failure('ENOTFOUND'), 'http://[::1]/v1/x'), 'cannot find the host [::1] (no such name in DNS)');
  });

  it('names what it was given when the address cannot be parsed', () => {
    assert.equal(describeNetworkError(failure('ECONNREFUSED'), 'not a url'), 'cannot connect to not a url (connection refused)');
  });

  it('a failure that is not an Error still reads as itself', () => {
    assert.equal(describeNetworkError('socket gone', 'http://h/x'), 'socket gone');
    assert.equal(describeNetworkError(undefined, 'http://h/x'), 'undefined');
  });

  it('errorCode finds the code on the error or on any error that caused it, and only a string code', () => {
    assert.equal(errorCode(failure('ECONNRESET')), 'ECONNRESET');
    assert.equal(errorCode({ cause: { cause: { code: 'EPIPE' } } }), 'EPIPE');
    assert.equal(errorCode({ code: 42, cause: { code: 'EPIPE' } }), 'EPIPE', 'a number is not a code');
    assert.equal(errorCode(new Error('no code')), undefined);
    assert.equal(errorCode(null), undefined);
    assert.equal(errorCode('ECONNRESET'), undefined, 'a string is not an error with a code');
  });
});
