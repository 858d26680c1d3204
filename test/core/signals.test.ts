import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InterruptedError, ReaderGoneError, TerminatedError } from '../../src/core/errors.js';
import { importKeepingSignals, interruptionOf, onLeavingAtOnce, sayLastWords } from '../../src/core/signals.js';

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

  it('is a ReaderGoneError, with what was delivered, for a bulk run the reader of stdout stopped; a plain interruption for anything else it stopped', () => {
    const stopped = interruptionOf(aborted('EPIPE'), 7);
    assert.ok(stopped instanceof ReaderGoneError && stopped.delivered === 7);
    assert.ok(!(interruptionOf(aborted('EPIPE')) instanceof ReaderGoneError));
    assert.ok(!(interruptionOf(aborted('SIGINT'), 7) instanceof ReaderGoneError));
  });
});

describe('what is written when csafe leaves at once', () => {
  it('runs every registered write, in order, one that throws keeping none of the others from running; not those unregistered', () => {
    const written: string[] = [];
    const stops = [
      onLeavingAtOnce(() => written.push('first')),
      onLeavingAtOnce(() => {
        throw new Error('a full disk');
      }),
      onLeavingAtOnce(() => written.push('third')),
      onLeavingAtOnce(() => written.push('gone')),
    ];
    stops[3]!();
    sayLastWords();
    assert.deepEqual(written, ['first', 'third']);
    for (const stop of stops) stop();
    sayLastWords();
    assert.deepEqual(written, ['first', 'third']);
  });
});
