import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InterruptedError, TerminatedError } from '../../src/core/errors.js';
import { importKeepingSignals, interruptionOf } from '../../src/core/signals.js';

describe('importKeepingSignals', () => {
  it('takes off the signal hooks a module adds on import, and keeps the ones there before', async () => {
    const ours = () => {};
    const theirs = () => {};
    process.on('SIGINT', ours);
    try {
      const loaded = await importKeepingSignals(async () => {
        process.once('SIGINT', theirs);
        process.on('SIGTERM', theirs);
        return 'module';
      });
      assert.equal(loaded, 'module');
      assert.ok(process.listeners('SIGINT').includes(ours));
      assert.ok(!process.listeners('SIGINT').includes(theirs));
      assert.ok(!process.listeners('SIGTERM').includes(theirs));
    } finally {
      process.removeListener('SIGINT', ours);
    }
  });
});

describe('interruptionOf', () => {
  const aborted = (reason?: unknown) => {
    const controller = new AbortController();
    controller.abort(reason);
    return controller.signal;
  };

  it('is a TerminatedError for SIGTERM and an InterruptedError for Ctrl-C or any other reason', () => {
    assert.ok(interruptionOf(aborted('SIGTERM')) instanceof TerminatedError);
    for (const reason of ['SIGINT', undefined]) {
      const error = interruptionOf(aborted(reason));
      assert.ok(error instanceof InterruptedError && !(error instanceof TerminatedError), String(reason));
    }
  });
});
