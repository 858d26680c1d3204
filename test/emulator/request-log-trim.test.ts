import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { BodySample, logRequest, type RequestLogEntry } from '../../src/emulator/http/request-log.js';

describe('emulator request log: trimming', () => {
  test('a full log drops its oldest entry per request without copying the rest (no splice)', () => {
    const state = { requests: [] as RequestLogEntry[], nextRequestSeq: 1 };
    let spliced = 0;
    const splice = state.requests.splice.bind(state.requests);
    state.requests.splice = (...args: Parameters<typeof splice>) => (spliced++, splice(...args));
    const req = { headers: {}, method: 'POST' } as IncomingMessage;
    for (let n = 0; n < 50; n++) {
      logRequest(state, { req, path: `/v1/${n}`, status: 200, auth: 'api_key', fault: null, receivedAt: 0, durationMs: 1, body: new BodySample() }, 10);
    }
    assert.deepEqual(state.requests.map((entry) => entry.seq), [41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
    assert.equal(spliced, 0);
  });
});
