import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CommanderError } from 'commander';
import { batchOutcome, type BatchOutcome } from '../../src/commands/app.js';
import {
  AuthenticationError,
  CorruptConfigError,
  CsafeError,
  InputError,
  InterruptedError,
  TerminatedError,
  MissingCredentialsError,
  PermissionDeniedError,
  RetryAfterTooLongError,
  ServerError,
  UsageError,
  WaitTimeoutError,
} from '../../src/core/errors.js';
import { emulatorDataDir, exitCodeOfError, exitCodeOfOutcome, invokedGroup } from '../../src/main.js';

/** Only the invoked command group is loaded; getting its name wrong would make the command unknown. */
describe('invokedGroup', () => {
  it('skips global flags and their values', () => {
    assert.equal(invokedGroup(['classify', '--text', 'x']), 'classify');
    assert.equal(invokedGroup(['--profile', 'staging', '-o', 'json', 'token', 'create']), 'token');
    assert.equal(invokedGroup(['--verbose', '--api-key', 'k', '--base-url', 'u', 'events', 'send', 'f']), 'events');
    assert.equal(invokedGroup(['--emulator', '--request-timeout', '5s', '--max-wait', '1m', '--max-retries', '3', 'classify']), 'classify');
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

/** The exit-code table: every ending a run can have, and its code (README "Exit codes"). */
describe('exit codes', () => {
  const details = { status: 401, method: 'POST', path: '/v1/content', serviceMessage: 'no' };
  const batch = (counts: Partial<Omit<BatchOutcome, 'kind' | 'command'>>, command: BatchOutcome['command'] = 'events send') => exitCodeOfOutcome(batchOutcome(command, counts));

  it('maps each error class to its code, anything else to 1', () => {
    const cases: Array<[unknown, number]> = [
      [new UsageError('u'), 2], [new CorruptConfigError('/c', 'bad'), 2], [new InputError('i'), 2],
      [new MissingCredentialsError('m'), 3], [new AuthenticationError(details), 3], [new PermissionDeniedError({ ...details, status: 403 }), 3],
      [new WaitTimeoutError('w'), 124], [new InterruptedError(), 130], [new TerminatedError(), 143],
      [new CsafeError('c'), 1], [new ServerError({ ...details, status: 500 }), 1], [new RetryAfterTooLongError(2000, new Date(0), 429), 1],
      [new Error('defect'), 1], ['a string', 1], [undefined, 1],
    ];
    for (const [error, code] of cases) assert.equal(exitCodeOfError(error), code, String(error));
  });

  it('treats help and version as success, other commander errors as usage, and a closed stdout as success', () => {
    assert.equal(exitCodeOfError(new CommanderError(0, 'commander.helpDisplayed', '')), 0);
    assert.equal(exitCodeOfError(new CommanderError(0, 'commander.version', '')), 0);
    assert.equal(exitCodeOfError(new CommanderError(1, 'commander.unknownOption', '')), 2);
    assert.equal(exitCodeOfError(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })), 0);
    assert.equal(exitCodeOfError(Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' })), 1);
  });

  it('maps the outcomes of single commands', () => {
    assert.equal(exitCodeOfOutcome(undefined), 0);
    assert.equal(exitCodeOfOutcome({ kind: 'checked', invalid: 0 }), 0);
    assert.equal(exitCodeOfOutcome({ kind: 'checked', invalid: 1 }), 2);
    assert.equal(exitCodeOfOutcome({ kind: 'classified', failOnHeld: false }), 0);
    assert.equal(exitCodeOfOutcome({ kind: 'classified', failOnHeld: true }), 4);
    assert.equal(exitCodeOfOutcome({ kind: 'followed', failed: false }), 0);
    assert.equal(exitCodeOfOutcome({ kind: 'followed', failed: true }), 1);
    assert.equal(exitCodeOfOutcome({ kind: 'unauthenticated' }), 3);
    assert.equal(exitCodeOfOutcome({ kind: 'notSet' }), 1);
  });

  it('maps a batch: all sent 0, some failed 5, none sent 1 (5 for classify --batch and stream parts), flagged 4, 5 over 4', () => {
    assert.equal(batch({ sent: 3 }), 0);
    assert.equal(batch({}), 0);
    assert.equal(batch({ sent: 2, failed: 1 }), 5);
    assert.equal(batch({ sent: 0, failed: 1 }), 1);
    assert.equal(batch({ sent: 0, failed: 1 }, 'data add'), 1);
    assert.equal(batch({ sent: 0, failed: 1 }, 'classify --batch'), 5);
    // Issue 11: stream parts exits 5 whenever parts went to the failed file.
    assert.equal(batch({ sent: 0, failed: 1 }, 'stream parts'), 5);
    assert.equal(batch({ sent: 3, flagged: 1 }, 'classify --batch'), 4);
    assert.equal(batch({ sent: 3, failed: 1, flagged: 1 }, 'classify --batch'), 5);
    assert.equal(batch({ sent: 3, invalid: 1 }), 5);
    assert.equal(batch({ sent: 3, invalid: 1, failed: 1 }), 5);
    assert.equal(batch({ sent: 0, invalid: 1, failed: 1 }), 1);
  });

  it('lets a failed request after acceptance, then the failure that stopped the run, decide first', () => {
    assert.equal(batch({ sent: 3, failed: 1, failedRequests: 1 }, 'data add'), 1);
    assert.equal(batch({ sent: 3, failedRequests: 1 }, 'data add'), 1);
    assert.equal(batch({ sent: 3, failed: 2, stoppedBy: new AuthenticationError(details) }), 3);
    assert.equal(batch({ sent: 0, failed: 2, stoppedBy: new RetryAfterTooLongError(2000, new Date(0), 429) }), 1);
    assert.equal(batch({ sent: 3, failedRequests: 1, stoppedBy: new InterruptedError() }), 130);
  });
});
