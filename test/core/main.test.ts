import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { emulatorDataDir, invokedGroup, timeoutsByPlace } from '../../src/main.js';

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

/** `--timeout` after a command that declares its own is that command's; before the command it is the per-request timeout. */
describe('timeoutsByPlace', () => {
  it('tells the global --timeout from the one after the command, in both spellings', () => {
    assert.deepEqual(timeoutsByPlace(['--timeout', '2m', 'data', 'import', 'ns', 'f', '--wait', '--timeout', '30m']), { global: '2m', local: '30m' });
    assert.deepEqual(timeoutsByPlace(['data', 'import', 'ns', 'f', '--timeout=5s']), { local: '5s' });
    assert.deepEqual(timeoutsByPlace(['--timeout=1s', '--profile', 'data', 'classify']), { global: '1s' });
  });

  it('stops at --', () => {
    assert.deepEqual(timeoutsByPlace(['data', 'import', 'ns', '--', '--timeout', '1s']), {});
  });
});

describe('emulatorDataDir', () => {
  it('is CSAFE_EMULATOR_DATA_DIR, else under XDG_STATE_HOME, else under ~/.local/state', () => {
    assert.equal(emulatorDataDir({ CSAFE_EMULATOR_DATA_DIR: '/d', XDG_STATE_HOME: '/s' }, '/home/u'), '/d');
    assert.equal(emulatorDataDir({ XDG_STATE_HOME: '/s' }, '/home/u'), '/s/csafe/emulator');
    assert.equal(emulatorDataDir({ XDG_STATE_HOME: '' }, '/home/u'), '/home/u/.local/state/csafe/emulator');
  });
});
