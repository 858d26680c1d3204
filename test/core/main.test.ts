import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { emulatorDataDir, invokedGroup } from '../../src/main.js';

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

describe('emulatorDataDir', () => {
  it('is CSAFE_EMULATOR_DATA_DIR, else under XDG_STATE_HOME, else under ~/.local/state', () => {
    assert.equal(emulatorDataDir({ CSAFE_EMULATOR_DATA_DIR: '/d', XDG_STATE_HOME: '/s' }, '/home/u'), '/d');
    assert.equal(emulatorDataDir({ XDG_STATE_HOME: '/s' }, '/home/u'), '/s/csafe/emulator');
    assert.equal(emulatorDataDir({ XDG_STATE_HOME: '' }, '/home/u'), '/home/u/.local/state/csafe/emulator');
  });
});
