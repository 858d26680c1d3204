import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import { parseResponse } from '../../src/api/responses.js';
import { UnexpectedResponseError } from '../../src/core/errors.js';

describe('an answer of another shape', () => {
  const schema = z.looseObject({ id: z.string(), labels: z.array(z.object({ label: z.string() })) });

  it('is refused naming the endpoint and each field that is wrong, by its path', () => {
    assert.throws(
      () => parseResponse(schema, { labels: [{ label: 'spam' }, {}] }, 'GET /v1/things/t1'),
      (error: unknown) => error instanceof UnexpectedResponseError && /^GET \/v1\/things\/t1: unexpected response from the service: id: .*; labels\[1\]\.label: /.test(error.message),
    );
  });

  it('names its first ten problems and counts the rest: a hostile answer of 100,000 wrong labels is not a line of megabytes', () => {
    const error = (() => {
      try {
        parseResponse(schema, { id: 't1', labels: Array.from({ length: 100_000 }, () => 1) }, 'GET /v1/things/t1');
      } catch (caught) {
        return caught as Error;
      }
      assert.fail('no error');
    })();
    assert.ok(error instanceof UnexpectedResponseError);
    assert.match(error.message, /labels\[0\]: .*labels\[9\]: [^;]*; and 99990 more$/);
    assert.doesNotMatch(error.message, /labels\[10\]/);
    assert.ok(error.message.length < 2_000, `${error.message.length} characters`);
  });
});
