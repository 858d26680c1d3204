import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNamespace } from '../../src/commands/namespace.js';
import { UsageError } from '../../src/core/errors.js';

describe('parseNamespace', () => {
  it('quotes a short invalid namespace whole', () => {
    assert.throws(() => parseNamespace('a b'), (error: unknown) => error instanceof UsageError && /^NAMESPACE "a b": expected a namespace without/.test(error.message));
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
