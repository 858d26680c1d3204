import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../../../src/core/errors.js';
import { dotSegmentProblem, pathSegment } from '../../../src/core/http/path-segment.js';

// An id or a namespace put into a request path: one segment, whatever it holds, or refused
// before anything is sent when no encoding can keep it one.

describe('pathSegment', () => {
  it('encodes a value as one segment: a slash, a question mark, a hash or a space cannot change the address', () => {
    assert.equal(pathSegment('dec_123', '<decision-id>'), 'dec_123');
    assert.equal(pathSegment('a/b?c#d e', '<decision-id>'), 'a%2Fb%3Fc%23d%20e');
    assert.equal(pathSegment('..a', 'NAMESPACE'), '..a', 'dots inside a longer value are a name like any other');
    assert.equal(pathSegment('...', 'NAMESPACE'), '...');
  });

  it('refuses an empty value, naming the argument as help shows it', () => {
    assert.throws(() => pathSegment('', '<batch-id>'), (error: unknown) => error instanceof UsageError && error.message === '<batch-id> is empty');
  });

  for (const dots of ['.', '..']) {
    it(`refuses "${dots}", which a URL reads as ${dots === '.' ? '"this"' : '"parent"'}, saying why`, () => {
      assert.throws(
        () => pathSegment(dots, 'NAMESPACE'),
        (error: unknown) =>
          error instanceof UsageError &&
          error.message === `NAMESPACE "${dots}": "." and ".." cannot name one: in the URL path they mean "this" and "parent", so the request would go to another address`,
      );
    });
  }

  it('dotSegmentProblem names the problem of "." and ".." only', () => {
    assert.match(dotSegmentProblem('.') ?? '', /"this" and "parent"/);
    assert.match(dotSegmentProblem('..') ?? '', /"this" and "parent"/);
    for (const value of ['', '...', '.a', 'a.', 'a..b']) assert.equal(dotSegmentProblem(value), undefined, JSON.stringify(value));
  });
});
