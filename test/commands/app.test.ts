import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CommanderError } from 'commander';
import { batchOutcome, runCounts, type RunCounts } from '../../src/commands/app.js';
import {
  AuthenticationError,
  CorruptConfigError,
  CommandNotFoundError,
  CommandNotRunnableError,
  CsafeError,
  InputError,
  InterruptedError,
  TerminatedError,
  ReaderGoneError,
  MissingCredentialsError,
  PermissionDeniedError,
  RetryAfterTooLongError,
  ServerError,
  UsageError,
  WaitTimeoutError,
  LockedError,
} from '../../src/core/errors.js';
import { emulatorDataDir, exitCodeOfError, exitCodeOfOutcome, exitCodeOfRun, invokedGroup } from '../../src/main.js';

/** Only the invoked command group is loaded; getting its name wrong would make the command unknown. */
describe('invokedGroup', () => {
  it('skips global flags and their values', () => {
    assert.equal(invokedGroup(['classify', '--text', 'x']), 'classify');
    assert.equal(invokedGroup(['--profile', 'staging', '-o', 'json', 'token', 'create']), 'token');
    assert.equal(invokedGroup(['--verbose', '--api-key', 'k', '--base-url', 'u', 'events', 'send', 'f']), 'events');
    assert.equal(invokedGroup(['--emulator', '--request-timeout', '5s', '--max-wait', '1m', '--max-retries', '3', 'classify']), 'classify');
  });

  it('reads nothing at all', () => {
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

  it('maps each error class to its code, anything else to 1', () => {
    const cases: Array<[unknown, number]> = [
      [new UsageError('u'), 2], [new CorruptConfigError('/c', 'bad'), 2], [new InputError('i'), 2],
      [new MissingCredentialsError('m'), 3], [new AuthenticationError(details), 3], [new PermissionDeniedError({ ...details, status: 403 }), 3],
      [new WaitTimeoutError('w'), 124], [new LockedError('l'), 75], [new InterruptedError(), 130], [new TerminatedError(), 143],
      // A bulk run the reader of stdout stopped (`| head`) with records left: as a run that could not send them.
      [new ReaderGoneError(3), 5], [new ReaderGoneError(0), 1],
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
    assert.equal(exitCodeOfOutcome({ kind: 'ranCommand', code: 7 }), 7, "emulator exec: the command's own code");
    assert.equal(exitCodeOfError(new CommandNotFoundError('x: not found')), 127);
    assert.equal(exitCodeOfError(new CommandNotRunnableError('x: cannot be run')), 126);
  });

  /** One row per ending of a bulk run, whatever the command (classify --batch, events send, data add, stream parts). */
  it('maps a run\'s counts by one table, the same for every bulk command', () => {
    const rows: Array<[string, Partial<RunCounts>, number]> = [
      ['all sent', { sent: 3 }, 0],
      ['nothing to send (a shard left none)', {}, 0],
      ['nothing left to send: an earlier run sent it all (--checkpoint)', { done: 3 }, 0],
      ['resumed: the rest sent now', { done: 2, sent: 1 }, 0],
      ['resumed: the valid records sent before, the invalid set aside again', { done: 3, skipped: 1 }, 5],
      ['resumed: the rest failed (an outage: nothing delivered by this run)', { done: 2, failed: 1 }, 1],
      ['resumed: the rest unconfirmed', { done: 2, unconfirmed: 1 }, 1],
      ['resumed: some of the rest delivered, some failed', { done: 2, sent: 1, failed: 1 }, 5],
      ['--shard: nothing of this worker\'s, the invalid records (of no shard) set aside', { otherShards: 3, skipped: 1 }, 5],
      ['--shard: every record of this worker failed', { otherShards: 3, failed: 2 }, 1],
      ['some failed', { sent: 2, failed: 1 }, 5],
      ['some unconfirmed', { sent: 2, unconfirmed: 1 }, 5],
      ['some set aside by --skip-invalid', { sent: 2, skipped: 1 }, 5],
      ['some failed, some set aside', { sent: 2, failed: 1, skipped: 1 }, 5],
      ['some met invalid without --skip-invalid (the input changed)', { sent: 3, invalid: 1 }, 5],
      ['none sent, all failed', { failed: 2 }, 1],
      ['none sent, all unconfirmed', { unconfirmed: 2 }, 1],
      ['none sent, failed and set aside', { failed: 1, skipped: 1 }, 1],
      ['none sent, failed and invalid', { failed: 1, invalid: 1 }, 1],
      ['--skip-invalid with nothing valid left', { skipped: 3 }, 2],
      ['checked: invalid input, nothing sent', { invalid: 2 }, 2],
      ['a --fail-on condition held', { sent: 3, flagged: 1 }, 4],
      ['partial wins over --fail-on', { sent: 3, failed: 1, flagged: 1 }, 5],
      ['partial (set aside) wins over --fail-on', { sent: 3, skipped: 1, flagged: 1 }, 5],
      ['a request failed after it was accepted', { sent: 3, failedRequests: 1 }, 1],
      ['a request failed after acceptance, others failed to send', { sent: 3, failed: 1, failedRequests: 1 }, 1],
      ['stopped by a refused key', { sent: 3, failed: 2, stoppedBy: new AuthenticationError(details) }, 3],
      ['stopped by a long Retry-After', { failed: 2, stoppedBy: new RetryAfterTooLongError(2000, new Date(0), 429) }, 1],
      ['stopped by an unreachable service after some were sent', { sent: 3, failed: 2, stoppedBy: new CsafeError('unreachable') }, 1],
      ['stopped by Ctrl-C', { sent: 3, failedRequests: 1, stoppedBy: new InterruptedError() }, 130],
      ['stopped by SIGTERM', { sent: 3, stoppedBy: new TerminatedError() }, 143],
    ];
    for (const [what, counts, code] of rows) {
      assert.equal(exitCodeOfRun(runCounts(counts)), code, what);
      assert.equal(exitCodeOfOutcome(batchOutcome(counts)), code, `${what} (as an outcome)`);
    }
  });

  it('maps a check with nothing sent and one classification by the same table', () => {
    assert.equal(exitCodeOfOutcome({ kind: 'checked', invalid: 0 }), exitCodeOfRun(runCounts({})));
    assert.equal(exitCodeOfOutcome({ kind: 'checked', invalid: 3 }), exitCodeOfRun(runCounts({ invalid: 3 })));
    assert.equal(exitCodeOfOutcome({ kind: 'classified', failOnHeld: true }), exitCodeOfRun(runCounts({ sent: 1, flagged: 1 })));
  });
});
