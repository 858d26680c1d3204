import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { invokedGroup, localTimeoutArgs } from '../../src/main.js';

/** Only the invoked command group is loaded; getting its name wrong would make the command unknown. */
describe('invokedGroup', () => {
  it('skips global flags and their values', () => {
    assert.equal(invokedGroup(['classify', '--text', 'x']), 'classify');
    assert.equal(invokedGroup(['--profile', 'staging', '-o', 'json', 'token', 'create']), 'token');
    assert.equal(invokedGroup(['--verbose', '--api-key', 'k', '--base-url', 'u', 'events', 'send', 'f']), 'events');
    assert.equal(invokedGroup(['--emulator', '--timeout', '5s', '--max-wait', '1m', '--max-retries', '3', 'classify']), 'classify');
  });

  it('reads `help <group>` and nothing at all', () => {
    assert.equal(invokedGroup(['help', 'events']), 'events');
    assert.equal(invokedGroup(['--help']), undefined);
    assert.equal(invokedGroup([]), undefined);
  });
});

/** `--timeout` after a data verb is how long --wait waits; before the group it stays the per-request timeout. */
describe('localTimeoutArgs', () => {
  it('renames a --timeout after the data group to the verb’s --wait-timeout', () => {
    assert.deepEqual(
      localTimeoutArgs(['--timeout', '2m', 'data', 'import', 'ns', 'f', '--wait', '--timeout', '30m']),
      ['--timeout', '2m', 'data', 'import', 'ns', 'f', '--wait', '--wait-timeout', '30m'],
    );
    assert.deepEqual(localTimeoutArgs(['data', 'import', 'ns', 'f', '--timeout=5s']), ['data', 'import', 'ns', 'f', '--wait-timeout=5s']);
  });

  it('leaves other groups, and anything after --, alone', () => {
    assert.deepEqual(localTimeoutArgs(['classify', '--text', 'x', '--timeout', '5s']), ['classify', '--text', 'x', '--timeout', '5s']);
    assert.deepEqual(localTimeoutArgs(['data', 'import', 'ns', '--', '--timeout']), ['data', 'import', 'ns', '--', '--timeout']);
    assert.deepEqual(localTimeoutArgs(['--profile', 'data', 'classify', '--timeout', '1s']), ['--profile', 'data', 'classify', '--timeout', '1s']);
  });
});
