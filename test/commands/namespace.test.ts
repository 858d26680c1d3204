import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNamespace } from '../../src/commands/namespace.js';
import { UsageError } from '../../src/core/errors.js';

describe('parseNamespace', () => {
  it('quotes a short invalid namespace whole', () => {
    assert.throws(() => parseNamespace('a b'), (error: unknown) => error instanceof UsageError && /^NAMESPACE "a b": expected lowercase letters, digits, "_" and "-" only/.test(error.message));
  });

  it('takes the names the service takes, [0-9a-z_-], and refuses the rest naming the rule (case-sensitive)', () => {
    for (const name of ['listings', 'user_42', 'a-b', '0']) assert.equal(parseNamespace(name), name);
    for (const name of ['Products', 'a.b', 'café', 'a/b', 'a?b', 'a#b']) {
      assert.throws(() => parseNamespace(name), (error: unknown) => error instanceof UsageError && error.message === `NAMESPACE "${name}": expected lowercase letters, digits, "_" and "-" only ([0-9a-z_-], case-sensitive)`, name);
    }
  });

  it('a file given where the namespace goes (the namespace left out) is told so, with the order to give them in', () => {
    assert.throws(
      () => parseNamespace('examples/listings.jsonl'),
      (error: unknown) =>
        error instanceof UsageError &&
        error.hint === '"examples/listings.jsonl" is a file: the namespace comes first, then the file',
    );
    assert.throws(() => parseNamespace('no/such.jsonl'), (error: unknown) => error instanceof UsageError && error.hint === undefined);
  });

  it('quotes a long invalid namespace cut short, with its length, not whole', () => {
    const name = 'n'.repeat(100_000);
    assert.throws(
      () => parseNamespace(name),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message === `NAMESPACE "${'n'.repeat(40)}…" (100000 characters): expected a namespace of at most 256 characters`,
    );
  });
});
