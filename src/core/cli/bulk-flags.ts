import { defaultFailedPath } from '../files/failed-path.js';
import { parseDuration } from './duration.js';
import { DRY_RUN_FLAG, type AbsentFlag, type CountFlag, type FileFlag, type RateFlag, type ShardFlag, type TextFlag } from './flags.js';
import { REQUEST_BYTES } from '../../schemas/names.js';

// The declarations of the flags every bulk command shares, as data (core/cli/flags.ts): free of
// zod so that `--help` does not load it; core/cli/options.ts derives their checks.

const count = (value: string, help: string, bounds: { min: number; max: number; default: number }): CountFlag & { default: number } => ({ type: 'count', value, help, ...bounds });

const file = (help: string): FileFlag => ({ type: 'file', value: 'file', help });

/**
 * The flags of the commands that send records in batches (data add, events send, classify
 * --batch, stream parts): the same flag text, defaults and validation everywhere, in the words of the command.
 */
export const batchFlags = {
  /** `items`: what one request carries, e.g. `objects`. */
  batchSize: (items: string) => count('n', `${items} per request`, { min: 1, max: 10_000, default: 100 }),
  maxBatchBytes: (defaultBytes: number): CountFlag & { default: number } => ({
    ...count('size', `bytes per request, at most ${REQUEST_BYTES} (6MB); a size such as 1MB or 512kB`, { min: 1_024, max: REQUEST_BYTES, default: defaultBytes }),
    unit: 'bytes',
    expected: 'expected a size in bytes ≥ 1024, e.g. 1000000, 1MB or 512kB',
  }),
  /** `note`: what the command adds about it, e.g. ` with --batch`; `max`: the most it allows. */
  concurrency: (note = '', max = 64) => count('n', `requests in flight${note}`, { min: 1, max, default: 4 }),
  /** `command`: as it is named in the default file's name. */
  failed: (what: string, command: string) => file(`${what} (default: ${defaultFailedPath(command, '<time>')})`),
  /** `items`: what the command sends, e.g. `objects`; `when`: what the flag needs, e.g. `with --batch: `. */
  checkpoint: (items: string, when = '') => file(`${when}record the ${items} the service acknowledged here; a re-run of the same command sends only the rest`),
  /** For records without an idempotency key: where a batch goes whose request the service may have applied. */
  unconfirmed: (what: string, command: string) => file(`${what} (default: ${defaultFailedPath(command, '<time>', 'unconfirmed')})`),
  skipInvalid: (what: string) => file(`${what} (default: send nothing if any is invalid)`),
  /** `when`: what the flag needs, e.g. `with --batch: `. */
  maxRate: (when = ''): RateFlag => ({ type: 'rate', value: 'n/s', help: `${when}start at most n requests a second (20, 20/s, 0.5/s), so that --shard workers can share one API quota` }),
  maxConsecutiveFailures: () =>
    count('n', 'stop once n requests in a row could not reach the service (refused, DNS, TLS); the rest go to the failed file; 0 never stops', { min: 0, max: 1_000_000, default: 5 }),
  /** A shared bulk flag this command leaves out on purpose (`stream parts --shard`), with why. */
  absent: (value: string, reason: string): AbsentFlag => ({ type: 'absent', value, reason }),
  /** `item`: what a batch holds, e.g. `object`; `when`: what the flag needs, e.g. `with --follow: `. */
  flushInterval: (item: string, when = ''): TextFlag & { default: string } => ({
    type: 'text',
    value: 'duration',
    help: `${when}send a batch that is not full once its oldest ${item} has waited this long for more input`,
    default: '1s',
  }),
  /** What is read ahead while a batch is sent, for a command that follows a pipe. */
  maxBuffer: (items: string) => count('n', `with --follow: ${items} read ahead while a batch is sent or retried; reading pauses when it is full`, { min: 1, max: 1_000_000, default: 10_000 }),
};

/** --flush-interval in milliseconds; a value that is no duration is a usage error (exit 2). */
export const flushAfterMs = (options: { flushInterval: string }): number => parseDuration(options.flushInterval, '--flush-interval');

/**
 * The flag of every command that sends record by record and can be split over workers;
 * `records`: what a worker keeps, in the command's words (`the users`, `the objects`);
 * `when`: what the flag needs, e.g. `with --batch: `.
 */
export const shardFlag = (records: string, when = ''): ShardFlag => ({ type: 'shard', help: `${when}send only ${records} of worker i of n (0-based), e.g. 3/16` });

/** `--from-line`: where an interrupted run of one request per line goes on; `when`: what the flag needs, e.g. `with --batch: `. */
export const fromLineFlag = (when = ''): CountFlag => ({ type: 'count', value: 'n', help: `${when}start at line n of the input, skipping the lines before it (an interrupted run prints the command)`, min: 1 });

/**
 * The flags of a command that sends each line of a JSONL file as a request of its own
 * (core/bulk/line-requests.ts): `command` as the default failed file names it; `what` the lines'
 * requests, e.g. `verdicts`.
 */
export const lineRequestFlags = (command: string, what: string) => ({
  dryRun: DRY_RUN_FLAG,
  concurrency: batchFlags.concurrency(),
  failed: batchFlags.failed('append each line that failed here, as read, to send again', command),
  skipInvalid: batchFlags.skipInvalid('send the valid lines; append each invalid line here as {line, error, record}'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
  maxRate: batchFlags.maxRate(),
  checkpoint: batchFlags.checkpoint(what),
  fromLine: fromLineFlag(),
  shard: shardFlag('the lines'),
});
