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
  it('is true when the answer was lost, a 5xx other than 503, or a 2xx csafe could not read', () => {
    for (const error of [
      new ServerError(details(500)), new ServerError(details(502)), new ServerError(details(504)), new ConnectionError('reset', true),
      new RequestTimeoutError('late'), new UnexpectedResponseError('html'), new ResponseTooLargeError('big'),
    ]) {
      assert.equal(mayHaveBeenApplied(error), true, String(error));
    }
  });

  it('is false when the service refused the request or never saw it', () => {
    for (const error of [
      new ServerError(details(503)), new RateLimitError(details(429)), new BadRequestError(details(400)), new ApiError(details(408)),
      new ApiError(details(409)), new ApiError(details(499)), new RequestTooLargeError(details(413)), new ConnectionError('refused', false),
      new InputError('line 3'), new CsafeError('other'), new Error('defect'), undefined,
    ]) {
      assert.equal(mayHaveBeenApplied(error), false, String(error));
    }
  });
});
