import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError, ConnectionError, PermissionDeniedError, RequestTimeoutError, RetryAfterTooLongError, ServerError, UnreachableError } from '../../../src/core/errors.js';
import { FailFast, haltLine } from '../../../src/core/bulk/fail-fast.js';
import { Pace } from '../../../src/core/bulk/pace.js';

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

  it('a connection cut after the request was sent halts the run too, but keeps its own error: the service may have applied that request', async () => {
    const failFast = new FailFast(2, 'http://127.0.0.1:9');
    const cut = () => Promise.reject(new ConnectionError('POST /v1/events: socket hang up', true));
    const ends = await sendAll(failFast, [refused, cut, answered]);
    assert.ok(ends[1] instanceof ConnectionError && (ends[1] as ConnectionError).sent, 'its own error, which says it was sent');
    assert.ok(failFast.stoppedBy instanceof UnreachableError, 'the run halted');
    assert.ok(failFast.isStop(ends[2]), 'and the next request is not sent');
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

  it('halts at a refused key, 401 or 403, and at a Retry-After over --max-wait: later requests end with that same error, unsent', async () => {
    const details = { method: 'POST', path: '/v1/content', serviceMessage: 'no' };
    const halts = [new AuthenticationError({ ...details, status: 401 }), new PermissionDeniedError({ ...details, status: 403 }), new RetryAfterTooLongError(90_000, new Date(0), 429)];
    for (const halt of halts) {
      const failFast = new FailFast(0, 'http://127.0.0.1:9');
      let sentAfter = 0;
      const ends = await sendAll(failFast, [answered, () => Promise.reject(halt), () => (sentAfter++, answered())]);
      assert.deepEqual(ends, ['ok', halt, halt], halt.name);
      assert.equal(sentAfter, 0, `${halt.name}: nothing is sent once halted`);
      assert.ok(failFast.isStop(halt) && failFast.stoppedBy === halt);
    }
  });

  it('keeps the first halt: a refusal answered later to a request already in flight ends with the first', async () => {
    const failFast = new FailFast(0, 'http://127.0.0.1:9');
    const first = new AuthenticationError({ method: 'POST', path: '/v1/content', serviceMessage: 'revoked', status: 401 });
    const second = new AuthenticationError({ method: 'POST', path: '/v1/content', serviceMessage: 'revoked', status: 401 });
    const ends = await Promise.all([failFast.send(() => Promise.reject(first)).catch((error: unknown) => error), failFast.send(() => Promise.reject(second)).catch((error: unknown) => error)]);
    assert.deepEqual(ends, [first, first]);
  });

  it('takes the pace before each request, and sends nothing that waited its turn once the run has halted', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const clock = { now: () => 0, sleep: () => new Promise<void>((resolve) => (release = resolve)) };
    const failFast = new FailFast(0, 'http://127.0.0.1:9', new Pace(1, clock));
    const halt = new AuthenticationError({ method: 'POST', path: '/v1/content', serviceMessage: 'no', status: 401 });
    const first = failFast.send(() => (order.push('first'), Promise.reject(halt))).catch((error: unknown) => error);
    const waiting = failFast.send(() => (order.push('second'), answered())).catch((error: unknown) => error);
    assert.equal(await first, halt);
    release();
    assert.equal(await waiting, halt, 'it waited its turn, then found the run halted');
    assert.deepEqual(order, ['first']);
  });

  it('says why the run halted and where what was not sent is, in one line for every cause', () => {
    const details = { method: 'POST', path: '/v1/content', serviceMessage: 'no' };
    assert.equal(haltLine(new AuthenticationError({ ...details, status: 401 }), 'f.jsonl'), 'stopped: the service refused the credentials (401); what was not sent is in f.jsonl');
    assert.equal(haltLine(new PermissionDeniedError({ ...details, status: 403 }), 'f.jsonl'), 'stopped: the service refused the credentials (403); what was not sent is in f.jsonl');
    assert.equal(haltLine(new UnreachableError('h:1', 2, 'ECONNREFUSED'), 'f.jsonl'), 'stopped: the service at h:1 is unreachable: 2 requests in a row could not connect (last: ECONNREFUSED); what was not sent is in f.jsonl');
  });
});
