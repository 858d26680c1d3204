import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../../src/core/errors.js';
import { durationMs, parseDuration, parseNonNegativeInt, parsePositiveDuration, sizeBytes } from '../../../src/core/cli/duration.js';

const usage = (message: string) => (error: unknown) => error instanceof UsageError && error.message === message;

describe('parseDuration', () => {
  it('reads a bare number as seconds, fractions rounded to the millisecond', () => {
    assert.equal(parseDuration('90', '--x'), 90_000);
    assert.equal(parseDuration(' 1.25 ', '--x'), 1_250);
    assert.equal(parseDuration('0.0015', '--x'), 2);
  });

  it('reads each unit, and units in sequence', () => {
    assert.deepEqual(
      ['7ms', '3s', '1.5s', '1.25s', '2m', '1h', '1h30m', '10ms', '1m30s'].map((text) => parseDuration(text, '--x')),
      [7, 3_000, 1_500, 1_250, 120_000, 3_600_000, 5_400_000, 10, 90_000],
    );
    assert.equal(parseDuration('0.4ms', '--x'), 0);
  });

  it('refuses anything else, quoting the text and naming the flag', () => {
    for (const text of ['', 'x5', '5x', '5s junk', '1h 30m', 'ms', '1.s', '.5s', '-1s']) {
      assert.throws(() => parseDuration(text, '--timeout'), usage(`--timeout: expected a duration such as 30, 30s, 5m or 1h, got "${text}"`), text);
    }
  });
});

describe('parsePositiveDuration', () => {
  it('takes the smallest duration above zero and refuses zero and below, naming the flag', () => {
    assert.equal(parsePositiveDuration('1ms', '--timeout'), 1);
    for (const text of ['0', '0ms', '0.0004', '-5s', '-1', ' -0.5m']) {
      assert.throws(() => parsePositiveDuration(text, '--timeout'), usage(`--timeout: expected a duration greater than 0, got "${text}"`), text);
    }
    assert.throws(() => parsePositiveDuration('-x', '--timeout'), usage('--timeout: expected a duration such as 30, 30s, 5m or 1h, got "-x"'));
  });
});

describe('parseNonNegativeInt', () => {
  it('takes whole numbers from 0, spaces around them allowed', () => {
    assert.equal(parseNonNegativeInt('0', '--n'), 0);
    assert.equal(parseNonNegativeInt(' 12 ', '--n'), 12);
  });

  it('refuses signs, fractions and trailing or leading text', () => {
    for (const text of ['-1', '1.5', '1a', 'a1', '']) {
      assert.throws(() => parseNonNegativeInt(text, '--max-retries'), usage(`--max-retries: expected a whole number, got "${text}"`), text);
    }
  });
});

describe('durationMs and sizeBytes', () => {
  it('reads a plain number in the unit the flag always had, and a duration with a unit in milliseconds', () => {
    assert.equal(durationMs('50', 1), 50, 'a plain --latency is milliseconds');
    assert.equal(durationMs('90'), 90_000, 'a plain --timeout is seconds');
    assert.equal(durationMs('1s', 1), 1_000);
    assert.equal(durationMs('1m30s', 1), 90_000);
    assert.equal(durationMs('fast', 1), undefined);
  });

  it('reads a size: kB, MB and GB by 1000, KiB, MiB and GiB by 1024, a plain number as bytes', () => {
    assert.equal(sizeBytes('1000000'), 1_000_000);
    assert.equal(sizeBytes('5MB'), 5_000_000);
    assert.equal(sizeBytes('1GB'), 1_000_000_000);
    assert.equal(sizeBytes('2MiB'), 2 * 1024 * 1024);
    assert.equal(sizeBytes('5ZB'), undefined);
    assert.equal(sizeBytes('-5MB'), undefined);
    assert.equal(sizeBytes(' 1.25 MB '), 1_250_000, 'a fraction, a space before the unit, spaces around');
    assert.equal(sizeBytes('5 MB x'), undefined, 'nothing after the unit');
  });
});
