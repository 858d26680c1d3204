import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importKeepingSignals } from '../../src/core/signals.js';

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
