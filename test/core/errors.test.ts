import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiError,
  apiErrorFor,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  CorruptConfigError,
  CsafeError,
  InputError,
  InterruptedError,
  mayHaveBeenApplied,
  MissingCredentialsError,
  NotFoundError,
  PermissionDeniedError,
  RequestTimeoutError,
  ResponseTooLargeError,
  RateLimitError,
  RequestTooLargeError,
  RetryAfterTooLongError,
  ServerError,
  stopsTheRun,
  UnexpectedResponseError,
  UsageError,
  WaitTimeoutError,
} from '../../src/core/errors.js';
import { shouldRetry, type AttemptOutcome } from '../../src/core/http/retry.js';

const details = (status: number) => ({ status, method: 'POST', path: '/v1/data/ns', serviceMessage: 'no', errorType: 'some_error' });

/** The one rule data add, events send and classify --batch share for when a failure ends the whole run. */
describe('stopsTheRun', () => {
  it('stops on failures no later request could escape', () => {
    for (const error of [
      new AuthenticationError(details(401)), new PermissionDeniedError(details(403)), new MissingCredentialsError('no key'),
      new UsageError('bad flag'), new CorruptConfigError('/c', 'is not JSON'), new InterruptedError(), new RetryAfterTooLongError(90_000, new Date(0), 429),
    ]) {
      assert.equal(stopsTheRun(error), true, error.name);
    }
  });

  it('goes on after failures of one batch', () => {
    for (const error of [
      new BadRequestError(details(400)), new NotFoundError(details(404)), new RequestTooLargeError(details(413)), new RateLimitError(details(429)),
      new ServerError(details(503)), new ConnectionError('reset', true), new UnexpectedResponseError('html'), new InputError('line 3'),
      new WaitTimeoutError('late'), new CsafeError('other'), new Error('defect'), undefined,
    ]) {
      assert.equal(stopsTheRun(error), false, String(error));
    }
  });
});

describe('apiErrorFor', () => {
  it('picks the class by status, naming method, path, status, type and message', () => {
    const cases: Array<[number, new (...args: never[]) => ApiError]> = [
      [400, BadRequestError], [401, AuthenticationError], [403, PermissionDeniedError], [404, NotFoundError],
      [413, RequestTooLargeError], [429, RateLimitError], [500, ServerError], [503, ServerError], [599, ServerError],
    ];
    for (const [status, type] of cases) {
      const error = apiErrorFor(details(status));
      assert.equal(error.constructor, type, String(status));
      assert.equal(error.status, status);
      assert.equal(error.message, `POST /v1/data/ns: ${status} some_error: no`);
    }
    const other = apiErrorFor(details(409));
    assert.equal(other.constructor, ApiError);
    assert.equal(apiErrorFor({ ...details(422), errorType: undefined }).message, 'POST /v1/data/ns: 422: no');
  });

  it('hints at the key on a 401 only', () => {
    assert.match(apiErrorFor(details(401)).hint!, /csafe auth status/);
    assert.equal(apiErrorFor(details(403)).hint, undefined);
  });

  it('says how long a Retry-After asks to wait, and the flag that would wait for it', () => {
    const error = new RetryAfterTooLongError(90_500, new Date('2026-11-21T12:01:31Z'), 429);
    assert.equal(error.message, 'service answered 429 and asked to wait 91 s (until 2026-11-21T12:01:31.000Z)');
    assert.equal(error.hint, 'retry after that time, or pass --max-wait 91 to wait for it');
    assert.equal(error.name, 'RetryAfterTooLongError');
  });
});

/** What a command without idempotency keys (stream parts) may resend without applying a request twice. */
describe('mayHaveBeenApplied', () => {
  it('is true when the answer was lost, a 408, a 409, a 5xx other than 503, or a 2xx csafe could not read', () => {
    for (const error of [
      new ServerError(details(500)), new ServerError(details(502)), new ServerError(details(504)), new ApiError(details(408)), new ApiError(details(409)), new ConnectionError('reset', true),
      new RequestTimeoutError('late'), new UnexpectedResponseError('html'), new ResponseTooLargeError('big'),
    ]) {
      assert.equal(mayHaveBeenApplied(error), true, String(error));
    }
  });

  it('is false when the service refused the request or never saw it', () => {
    for (const error of [
      new ServerError(details(503)), new RateLimitError(details(429)), new BadRequestError(details(400)), new ApiError(details(499)), new RequestTooLargeError(details(413)), new ConnectionError('refused', false),
      new InputError('line 3'), new CsafeError('other'), new Error('defect'), undefined,
    ]) {
      assert.equal(mayHaveBeenApplied(error), false, String(error));
    }
  });
});

/** One rule answers "may the service have applied it?" for the retry policy and for the commands that report lost answers. */
describe('mayHaveBeenApplied and the retry policy', () => {
  const response = (status: number): AttemptOutcome => ({ kind: 'response', status, headers: {} });
  // outcome, the error it ends in, then: retried when replay-safe, retried when not, may have been applied.
  const table: Array<[string, AttemptOutcome, unknown, boolean, boolean, boolean]> = [
    ...[400, 401, 403, 404, 413, 422].map((status): [string, AttemptOutcome, unknown, boolean, boolean, boolean] => [String(status), response(status), apiErrorFor(details(status)), false, false, false]),
    ['408', response(408), apiErrorFor(details(408)), true, false, true],
    ['409', response(409), apiErrorFor(details(409)), true, false, true],
    ['429', response(429), apiErrorFor(details(429)), true, true, false],
    ['500', response(500), apiErrorFor(details(500)), true, false, true],
    ['502', response(502), apiErrorFor(details(502)), true, false, true],
    ['503', response(503), apiErrorFor(details(503)), true, true, false],
    ['504', response(504), apiErrorFor(details(504)), true, false, true],
    ['refused', { kind: 'network-error', sent: false }, new ConnectionError('refused', false), true, true, false],
    ['reset', { kind: 'network-error', sent: true }, new ConnectionError('reset', true), true, false, true],
    ['timeout', { kind: 'timeout' }, new RequestTimeoutError('late'), true, false, true],
  ];

  it('holds the table over status × replaySafe', () => {
    for (const [name, outcome, error, safeRetried, unsafeRetried, applied] of table) {
      assert.deepEqual([shouldRetry(outcome, true), shouldRetry(outcome, false), mayHaveBeenApplied(error)], [safeRetried, unsafeRetried, applied], name);
    }
  });

  it('retries a request that must not be replayed exactly when the attempt failed in a retried way and cannot have been applied', () => {
    for (const [name, outcome, error] of table) {
      assert.equal(shouldRetry(outcome, false), shouldRetry(outcome, true) && !mayHaveBeenApplied(error), name);
    }
  });
});
