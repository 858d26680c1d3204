import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchFlags, fromLineFlag, lineRequestFlags, shardFlag } from '../../../src/core/cli/bulk-flags.js';

const FAILURES_HELP = 'stop once n requests in a row could not reach the service (refused, DNS, TLS); the rest go to the failed file; 0 never stops';
const RATE_HELP = 'start at most n requests a second (20, 20/s, 0.5/s), so that --shard workers can share one API quota';

/** The declarations are what --help, the man pages, completions and the checks of values are made from: their words, bounds and defaults are the interface. */
describe('the flags every bulk command shares', () => {
  it('have the same bounds and defaults everywhere, in the words of the command', () => {
    assert.deepEqual(batchFlags.batchSize('objects'), { type: 'count', value: 'n', help: 'objects per request', min: 1, max: 10_000, default: 100 });
    assert.deepEqual(batchFlags.maxBatchBytes(5_000_000), {
      type: 'count',
      value: 'size',
      help: 'bytes per request, at most 6000000 (6MB); a size such as 1MB or 512kB',
      min: 1024,
      max: 6_000_000,
      default: 5_000_000,
      unit: 'bytes',
      expected: 'expected a size in bytes ≥ 1024, e.g. 1000000, 1MB or 512kB',
    });
    assert.deepEqual(batchFlags.concurrency(), { type: 'count', value: 'n', help: 'requests in flight', min: 1, max: 64, default: 4 });
    assert.deepEqual(batchFlags.concurrency(' with --batch', 16), { type: 'count', value: 'n', help: 'requests in flight with --batch', min: 1, max: 16, default: 4 });
    assert.deepEqual(batchFlags.maxConsecutiveFailures(), { type: 'count', value: 'n', help: FAILURES_HELP, min: 0, max: 1_000_000, default: 5 });
    assert.deepEqual(batchFlags.maxBuffer('events'), {
      type: 'count',
      value: 'n',
      help: 'with --follow: events read ahead while a batch is sent or retried; reading pauses when it is full',
      min: 1,
      max: 1_000_000,
      default: 10_000,
    });
    assert.deepEqual(fromLineFlag(), { type: 'count', value: 'n', help: 'start at line n of the input, skipping the lines before it (an interrupted run prints the command)', min: 1 });
  });

  it('name the default files after the command, and say what each file holds', () => {
    assert.deepEqual(batchFlags.failed('append what could not be sent', 'data-add'), { type: 'file', value: 'file', help: 'append what could not be sent (default: csafe-data-add-failed-<time>.jsonl)' });
    assert.deepEqual(batchFlags.unconfirmed('append batches that may have been stored', 'events-send'), {
      type: 'file',
      value: 'file',
      help: 'append batches that may have been stored (default: csafe-events-send-unconfirmed-<time>.jsonl)',
    });
    assert.deepEqual(batchFlags.skipInvalid('send the valid objects'), { type: 'file', value: 'file', help: 'send the valid objects (default: send nothing if any is invalid)' });
    assert.deepEqual(batchFlags.checkpoint('objects', 'with --batch: '), {
      type: 'file',
      value: 'file',
      help: 'with --batch: record the objects the service acknowledged here; a re-run of the same command sends only the rest',
    });
    assert.equal(batchFlags.checkpoint('objects').help, 'record the objects the service acknowledged here; a re-run of the same command sends only the rest');
  });

  it('declare the rate, the shard and a flag left out with its reason', () => {
    assert.deepEqual(batchFlags.maxRate(), { type: 'rate', value: 'n/s', help: RATE_HELP });
    assert.equal(batchFlags.maxRate('with --batch: ').help, `with --batch: ${RATE_HELP}`);
    assert.deepEqual(shardFlag('the users', 'with --batch: '), { type: 'shard', help: 'with --batch: send only the users of worker i of n (0-based), e.g. 3/16' });
    assert.equal(shardFlag('the objects').help, 'send only the objects of worker i of n (0-based), e.g. 3/16');
    assert.deepEqual(batchFlags.absent('i/n', 'parts go in order'), { type: 'absent', value: 'i/n', reason: 'parts go in order' });
  });

  it('make the flags of a command that sends each line as a request of its own', () => {
    const flags = lineRequestFlags('agent-decision-send', 'verdicts');
    assert.deepEqual(Object.keys(flags), ['dryRun', 'concurrency', 'failed', 'skipInvalid', 'maxConsecutiveFailures', 'maxRate', 'checkpoint', 'fromLine', 'shard']);
    assert.equal(flags.failed.help, 'append each line that failed here, as read, to send again (default: csafe-agent-decision-send-failed-<time>.jsonl)');
    assert.equal(flags.skipInvalid.help, 'send the valid lines; append each invalid line here as {line, error, record} (default: send nothing if any is invalid)');
    assert.equal(flags.checkpoint.help, 'record the verdicts the service acknowledged here; a re-run of the same command sends only the rest');
    assert.equal(flags.shard.help, 'send only the lines of worker i of n (0-based), e.g. 3/16');
    assert.deepEqual(flags.concurrency, batchFlags.concurrency());
    assert.equal(flags.dryRun.type, 'switch');
  });
});
