import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectionError, RequestTimeoutError, ServerError, UnreachableError } from '../../../src/core/errors.js';
import { FailFast } from '../../../src/core/bulk/fail-fast.js';

const refused = () => Promise.reject(new ConnectionError('POST /v1/content: ECONNREFUSED', false));
const answered = () => Promise.resolve('ok');
const serverError = () => Promise.reject(new ServerError({ status: 500, method: 'POST', path: '/v1/content', serviceMessage: 'boom' }));
const timedOut = () => Promise.reject(new RequestTimeoutError('POST /v1/content: no answer within 60 s'));

/** Sends each request in turn; returns what each ended with. */
async function sendAll(failFast: FailFast, requests: Array<() => Promise<string>>): Promise<unknown[]> {
  const ends: unknown[] = [];
  for (const request of requests) ends.push(await failFast.send(request).catch((error: unknown) => error));
  return ends;
}

describe('FailFast', () => {
  it('stops at the nth connection failure in a row: that one and every later request end with one UnreachableError naming the host and the last error', async () => {
    const failFast = new FailFast(3, 'https://api.example.com/base');
    let sentAfterStop = 0;
    const ends = await sendAll(failFast, [refused, refused, refused, () => {
      sentAfterStop++;
      return answered();
    }]);
    assert.ok(ends[0] instanceof ConnectionError && ends[1] instanceof ConnectionError);
    assert.ok(ends[2] instanceof UnreachableError);
    assert.equal(ends[3], ends[2]);
    assert.equal(sentAfterStop, 0, 'nothing is sent once stopped');
    assert.equal((ends[2] as Error).message, 'the service at api.example.com is unreachable: 3 requests in a row could not connect (last: POST /v1/content: ECONNREFUSED)');
    assert.ok(failFast.isStop(ends[3]) && !failFast.isStop(ends[0]));
  });

  it('--max-consecutive-failures 1 stops at the first and says "1 request", not "1 requests"', async () => {
    const [end] = await sendAll(new FailFast(1, 'http://127.0.0.1:9'), [refused]);
    assert.equal((end as Error).message, 'the service at 127.0.0.1:9 is unreachable: 1 request in a row could not connect (last: POST /v1/content: ECONNREFUSED)');
  });

  it('any answer resets the count, an error status too; a timeout neither counts nor resets', async () => {
    const failFast = new FailFast(2, 'http://127.0.0.1:9');
    const ends = await sendAll(failFast, [refused, answered, refused, serverError, refused, timedOut, refused]);
    assert.equal(failFast.stoppedBy, ends[6]);
    assert.ok(ends.slice(0, 6).every((end) => !(end instanceof UnreachableError)));
  });

  it('a limit of 0 never stops', async () => {
    const failFast = new FailFast(0, 'http://127.0.0.1:9');
    const ends = await sendAll(failFast, Array.from({ length: 20 }, () => refused));
    assert.ok(ends.every((end) => end instanceof ConnectionError));
    assert.equal(failFast.stoppedBy, undefined);
  });
});
