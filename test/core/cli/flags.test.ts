import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flagOfField, flagSpec, flagsWithValue, kebab, longFlag, type Flags } from '../../../src/core/cli/flags.js';
import { waitFlags } from '../../../src/core/cli/wait-flags.js';

const FLAGS = {
  output: { type: 'choice', value: 'format', help: 'the format', choices: ['table', 'json'] },
  quiet: { type: 'switch', help: 'say less', short: '-q' },
  autoIdempotency: { type: 'switch', help: 'derive keys', negate: true },
  apiKey: { type: 'text', value: 'key', help: 'the key', short: '-k' },
  batchSize: { type: 'count', value: 'n', help: 'per request', min: 1 },
  shard: { type: 'shard', help: 'worker i of n' },
} as const satisfies Flags;

describe('flag names and specs, from the declarations', () => {
  it('spells an option as its flag does, a negated switch as --no-…', () => {
    assert.equal(kebab('maxConsecutiveFailures'), 'max-consecutive-failures');
    assert.equal(kebab('json'), 'json');
    assert.equal(longFlag('autoIdempotency', FLAGS.autoIdempotency), '--no-auto-idempotency');
    assert.equal(longFlag('quiet', FLAGS.quiet), '--quiet');
    assert.equal(longFlag('batchSize', FLAGS.batchSize), '--batch-size');
    assert.equal(longFlag('negate', { type: 'text', value: 'x', help: 'a text flag named like the switch field' }), '--negate');
  });

  it('writes each flag as commander and help write it: short, long, the value name (i/n for a shard), none for a switch', () => {
    assert.deepEqual(
      Object.entries(FLAGS).map(([key, flag]) => flagSpec(key, flag)),
      ['--output <format>', '-q, --quiet', '--no-auto-idempotency', '-k, --api-key <key>', '--batch-size <n>', '--shard <i/n>'],
    );
  });

  it('lists every spelling of the flags that take the next argument as their value', () => {
    assert.deepEqual([...flagsWithValue(FLAGS)].sort(), ['--api-key', '--batch-size', '--output', '--shard', '-k']);
  });

  it('names the flag that fills a field of a request, and none for a field no flag fills', () => {
    const optionOf = { expires_in: 'expiresIn', user_id: 'userId' };
    assert.equal(flagOfField(optionOf, 'expires_in'), '--expires-in');
    assert.equal(flagOfField(optionOf, 'scope'), undefined);
    assert.equal(flagOfField(optionOf, Symbol.for('user_id')), undefined);
  });

  it('declares --wait and --timeout of a verb that waits, in its words', () => {
    assert.deepEqual(waitFlags('wait until the batch has finished', '2h'), {
      wait: { type: 'switch', help: 'wait until the batch has finished' },
      timeout: { type: 'text', value: 'duration', help: 'with --wait: how long to wait, e.g. 2h (default: for ever)' },
    });
  });
});
