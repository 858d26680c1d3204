import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import { z } from 'zod';
import { UsageError } from '../../../src/core/errors.js';
import { batchFlags } from '../../../src/core/cli/bulk-flags.js';
import type { FlagDecl, Flags } from '../../../src/core/cli/flags.js';
import { bodyFromFlags, integerFlag, parseFlags, parseOptions, requireId } from '../../../src/core/cli/options.js';
import { addFlags, optionOf } from '../../../src/commands/program.js';

/** A command with the given flags, parsed as its action would: through commander, then the schema derived from the flags. */
function parsed(flags: Flags, argv: string[]) {
  const command = addFlags(new Command().exitOverride(), flags);
  command.parse(argv, { from: 'user' });
  return parseFlags(flags, command.opts()) as Record<string, unknown>;
}
const usage = (message: string) => (error: unknown) => error instanceof UsageError && error.message === message;

describe('batchFlags', () => {
  const flags = {
    batchSize: batchFlags.batchSize('objects'),
    maxBatchBytes: batchFlags.maxBatchBytes(5_000_000),
    concurrency: batchFlags.concurrency(),
    failed: batchFlags.failed('append what could not be sent', 'data-add'),
    skipInvalid: batchFlags.skipInvalid('send the valid objects'),
  };

  it('says what each flag takes, naming what the command sends, with its default', () => {
    const help = (key: string, flag: FlagDecl) => {
      const option = optionOf(key, flag);
      return [option.flags, option.description, option.defaultValue];
    };
    assert.deepEqual(help('batchSize', flags.batchSize), ['--batch-size <n>', 'objects per request', '100']);
    assert.deepEqual(help('maxBatchBytes', flags.maxBatchBytes), ['--max-batch-bytes <size>', 'bytes per request, at most 6000000 (6MB); a size such as 1MB or 512kB', '5000000']);
    assert.deepEqual(help('concurrency', flags.concurrency), ['--concurrency <n>', 'requests in flight', '4']);
    assert.deepEqual(help('concurrency', batchFlags.concurrency(' with --batch')), ['--concurrency <n>', 'requests in flight with --batch', '4']);
    assert.deepEqual(help('failed', flags.failed), ['--failed <file>', 'append what could not be sent (default: csafe-data-add-failed-<time>.jsonl)', undefined]);
    assert.deepEqual(help('skipInvalid', flags.skipInvalid), ['--skip-invalid <file>', 'send the valid objects (default: send nothing if any is invalid)', undefined]);
  });

  it('gives the defaults as numbers when no flag is given', () => {
    assert.deepEqual(parsed(flags, []), { batchSize: 100, maxBatchBytes: 5_000_000, concurrency: 4 });
    assert.equal(parsed({ maxBatchBytes: batchFlags.maxBatchBytes(1_000_000) }, []).maxBatchBytes, 1_000_000);
  });

  it('takes each count at its bounds and refuses one past them, naming the flag', () => {
    const at = (argv: string[]) => parsed(flags, argv);
    assert.deepEqual(at(['--batch-size', '1', '--max-batch-bytes', '1024', '--concurrency', '1']), { batchSize: 1, maxBatchBytes: 1024, concurrency: 1 });
    assert.deepEqual(at(['--batch-size', '10000', '--max-batch-bytes', '6000000', '--concurrency', '64']), { batchSize: 10_000, maxBatchBytes: 6_000_000, concurrency: 64 });
    assert.throws(() => at(['--batch-size', '0']), usage('--batch-size: expected a whole number ≥ 1'));
    assert.throws(() => at(['--batch-size', '10001']), usage('--batch-size: expected at most 10000'));
    assert.throws(() => at(['--max-batch-bytes', '1023']), usage('--max-batch-bytes: expected a size in bytes ≥ 1024, e.g. 1000000, 1MB or 512kB'));
    assert.throws(() => at(['--max-batch-bytes', '6000001']), usage('--max-batch-bytes: expected at most 6000000'));
    assert.throws(() => at(['--concurrency', '0']), usage('--concurrency: expected a whole number ≥ 1'));
    assert.throws(() => at(['--concurrency', '65']), usage('--concurrency: expected at most 64'));
    assert.throws(() => at(['--concurrency', '2.5']), usage('--concurrency: expected a whole number ≥ 1'));
  });

  it('takes only plain decimal digits: no hex, exponent, sign, fraction, spaces or empty value', () => {
    const at = (argv: string[]) => parsed(flags, argv);
    assert.deepEqual(at(['--batch-size', '007', '--max-batch-bytes', '0001024']), { batchSize: 7, maxBatchBytes: 1024, concurrency: 4 });
    for (const value of ['0x10', '1e2', '1E2', '+5', '5.0', '.5', ' 5', '5 ', '', '0b11', '0o7', '1_000', '5n', 'Infinity', '١٢']) {
      assert.throws(() => at(['--batch-size', value]), usage('--batch-size: expected a whole number ≥ 1'), JSON.stringify(value));
      assert.throws(() => at(['--concurrency', value]), usage('--concurrency: expected a whole number ≥ 1'), JSON.stringify(value));
    }
    assert.throws(() => at(['--batch-size', '9'.repeat(400)]), usage('--batch-size: expected at most 10000'));
  });

  it('takes a size for --max-batch-bytes, as README writes it (5MB), a plain number being bytes', () => {
    const bytes = (value: string) => parsed(flags, ['--max-batch-bytes', value]).maxBatchBytes;
    for (const [value, expected] of [['5MB', 5_000_000], ['5 MB', 5_000_000], ['512kB', 512_000], ['512KB', 512_000], ['4MiB', 4 * 1024 * 1024], ['1.5MB', 1_500_000], ['6000000', 6_000_000], ['2048B', 2048], ['1KiB', 1024]] as const) {
      assert.equal(bytes(value), expected, value);
    }
    for (const value of ['5XB', '0x10', '', '-5MB', 'MB', '5 M B', '1e6', '١٢']) {
      assert.throws(() => bytes(value), usage('--max-batch-bytes: expected a size in bytes ≥ 1024, e.g. 1000000, 1MB or 512kB'), JSON.stringify(value));
    }
    assert.throws(() => bytes('7MB'), usage('--max-batch-bytes: expected at most 6000000'));
  });

  it('takes a file name for --failed and --skip-invalid, and refuses an empty one', () => {
    assert.deepEqual(parsed(flags, ['--failed', 'f.jsonl', '--skip-invalid', 'i.jsonl']), {
      batchSize: 100, maxBatchBytes: 5_000_000, concurrency: 4, failed: 'f.jsonl', skipInvalid: 'i.jsonl',
    });
    assert.throws(() => parsed(flags, ['--failed', '']), (error) => error instanceof UsageError && error.message.startsWith('--failed: '));
    assert.throws(() => parsed(flags, ['--skip-invalid', '']), (error) => error instanceof UsageError && error.message.startsWith('--skip-invalid: '));
  });
});

describe('--max-rate', () => {
  const flags = { maxRate: batchFlags.maxRate() };
  const at = (argv: string[]) => parsed(flags, argv).maxRate;
  const refused = usage('--max-rate: expected requests a second above 0, e.g. 20, 20/s or 0.5/s');

  it('takes requests a second as a decimal number, /s optional; none given is no limit', () => {
    assert.equal(at([]), undefined);
    assert.equal(at(['--max-rate', '20']), 20);
    assert.equal(at(['--max-rate', '20/s']), 20);
    assert.equal(at(['--max-rate', '0.5/s']), 0.5);
    assert.equal(at(['--max-rate', '1000000']), 1_000_000);
  });

  it('refuses 0, a sign, another unit, an exponent, spaces and an empty value, naming the flag', () => {
    for (const value of ['0', '0/s', '0.0', '-1', '+1', '20/m', '20/', '/s', '1e2', ' 20', '20 ', '', '.5', '5.', 'Infinity']) {
      assert.throws(() => at(['--max-rate', value]), refused, JSON.stringify(value));
    }
    assert.throws(() => at(['--max-rate', '1000001']), usage('--max-rate: expected at most 1000000/s'));
  });
});

describe('integerFlag', () => {
  const parse = (schema: z.ZodType, value: unknown) => parseOptions(z.object({ port: schema }), { port: value }).port as unknown;
  it('is a whole number from plain decimal digits within its bounds, with the message given or the default one', () => {
    const port = integerFlag(0, 65_535, 'expected a port number from 0 to 65535');
    assert.equal(parse(port, '0'), 0);
    assert.equal(parse(port, '65535'), 65_535);
    for (const value of ['0x10', '1e2', '-1', '', ' 80', '80.0', undefined, 80]) {
      assert.throws(() => parse(port, value), usage('--port: expected a port number from 0 to 65535'), JSON.stringify(value));
    }
    assert.throws(() => parse(port, '65536'), usage('--port: expected at most 65535'));
    const unbounded = integerFlag(0);
    assert.equal(parse(unbounded, '9007199254740991'), Number.MAX_SAFE_INTEGER);
    assert.throws(() => parse(unbounded, '9007199254740992'), usage('--port: expected at most 9007199254740991'));
    assert.throws(() => parse(unbounded, '1e3'), usage('--port: expected a whole number ≥ 0'));
    assert.equal(parse(unbounded.default(5), undefined), 5);
  });

  it('reads a duration in milliseconds for a flag in ms, a plain number being milliseconds, spaces around it ignored', () => {
    const latency = integerFlag(0, 60_000, 'expected a duration such as 250ms or 2s', 'ms');
    assert.equal(parse(latency, ' 2s '), 2_000);
    assert.equal(parse(latency, '250'), 250);
    assert.throws(() => parse(latency, 'soon'), usage('--port: expected a duration such as 250ms or 2s'));
  });
});

describe('a flag of each type, checked from its declaration', () => {
  const flags = {
    verbose: { type: 'switch', help: 'trace' },
    autoIdempotency: { type: 'switch', help: 'derive keys', negate: true },
    metadata: { type: 'text', value: 'k=v', help: 'metadata', repeat: true },
    label: { type: 'text', value: 'text', help: 'a label', default: 'none' },
    note: { type: 'text', value: 'text', help: 'a note' },
    order: { type: 'choice', value: 'order', help: 'order', choices: ['asc', 'desc'], default: 'asc' },
    mode: { type: 'choice', value: 'mode', help: 'mode', choices: ['fast', 'exact'] },
    limit: { type: 'count', value: 'n', help: 'how many', min: 1, max: 10, default: 3 },
    wait: { type: 'count', value: 'n', help: 'how long', min: 0 },
    since: { type: 'absent', value: 'time', reason: '--since is not taken here: give --from' },
  } as const satisfies Flags;

  it('gives each its default when it is not given', () => {
    assert.deepEqual(parseFlags(flags, {}), { verbose: false, autoIdempotency: true, metadata: [], label: 'none', order: 'asc', limit: 3 });
  });

  it('takes what each is given', () => {
    const options = parseFlags(flags, { verbose: true, autoIdempotency: false, metadata: ['a=1', 'b=2'], label: 'x', note: 'n', order: 'desc', mode: 'exact', limit: '10', wait: '0' });
    assert.deepEqual(options, { verbose: true, autoIdempotency: false, metadata: ['a=1', 'b=2'], label: 'x', note: 'n', order: 'desc', mode: 'exact', limit: 10, wait: 0 });
  });

  it('refuses a choice not offered, naming them, and a flag this command does not take, with its reason', () => {
    assert.throws(() => parseFlags(flags, { mode: 'slow' }), usage('--mode: expected fast or exact'));
    assert.throws(() => parseFlags(flags, { order: 'random' }), usage('--order: expected asc or desc'));
    assert.throws(() => parseFlags(flags, { since: '1h' }), usage('--since: --since is not taken here: give --from'));
    assert.throws(() => parseFlags(flags, { limit: '11' }), usage('--limit: expected at most 10'));
  });
});

describe('parseOptions', () => {
  it('names no flag when the problem is with the options together', () => {
    const schema = z.object({ from: z.string(), to: z.string() }).refine((options) => options.from <= options.to, { error: 'give --from before --to' });
    assert.deepEqual(parseOptions(schema, { from: 'a', to: 'b' }), { from: 'a', to: 'b' });
    assert.throws(() => parseOptions(schema, { from: 'b', to: 'a' }), usage('give --from before --to'));
  });
});

describe('requireId', () => {
  it('takes an id, and refuses an empty one with where to find one', () => {
    const example = { command: 'csafe decision create', id: 'dec_123' };
    assert.equal(requireId('dec_1', '<decision-id>', example), 'dec_1');
    assert.throws(() => requireId('', '<decision-id>', example), (error: unknown) =>
      error instanceof UsageError && error.message === '<decision-id> is empty' && error.hint === 'give the id `csafe decision create` printed, e.g. dec_123');
  });
});

describe('bodyFromFlags', () => {
  const schema = z.object({ user_id: z.string().min(1, { error: 'expected a user id' }), max_items: z.number().int().max(100).optional() }).refine((body) => body.user_id !== 'root', { error: 'root is reserved' });
  const flagOf = { user_id: 'userId', max_items: 'maxItems' };

  it('builds the body from the flags given, leaving out those not given', () => {
    assert.deepEqual(bodyFromFlags(schema, flagOf, { userId: 'u-1', maxItems: undefined, other: 'x' }, 'the request'), { user_id: 'u-1' });
    assert.deepEqual(bodyFromFlags(schema, flagOf, { userId: 'u-1', maxItems: 5 }, 'the request'), { user_id: 'u-1', max_items: 5 });
  });

  it("names the flag of the first field the request's schema refuses, and the request when no one flag is at fault", () => {
    assert.throws(() => bodyFromFlags(schema, flagOf, { userId: '', maxItems: 500 }, 'the request'), usage('--user-id: expected a user id'));
    assert.throws(() => bodyFromFlags(schema, flagOf, { userId: 'u-1', maxItems: 500 }, 'the request'), (error: unknown) => error instanceof UsageError && error.message.startsWith('--max-items: '));
    assert.throws(() => bodyFromFlags(schema, flagOf, { userId: 'root' }, 'the request'), usage('the request: root is reserved'));
  });
});
