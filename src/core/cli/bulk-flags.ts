import { Option } from 'commander';
import { defaultFailedPath } from '../files/failed-file.js';

// The flags' commander half, free of zod so that `--help` does not load it; their validation is in core/cli/whole-number.

/** The service's request size limit (spec: 6 MB); no batch may be larger. */
const MAX_REQUEST_BYTES = 6_000_000;

/** A whole-number flag; core/cli/whole-number (countSchema) validates it within its bounds. */
export interface CountFlag {
  option: Option;
  bounds: { min: number; max: number; default: number };
}

/** A flag naming a file; core/cli/whole-number (fileSchema) validates it. */
export interface FileFlag {
  option: Option;
}

/** A shared flag a command refuses, with why. */
export interface AbsentFlag {
  option: Option;
  reason: string;
}

const countFlag = (flags: string, description: string, bounds: CountFlag['bounds']): CountFlag => ({
  option: new Option(flags, description).default(String(bounds.default)),
  bounds,
});

const fileFlag = (flags: string, description: string): FileFlag => ({ option: new Option(flags, description) });

/**
 * The flags of the commands that send records in batches (data add, events send, classify
 * --batch, stream parts): the same flag text, defaults and validation everywhere, in the words of the command.
 */
export const batchFlags = {
  /** `items`: what one request carries, e.g. `objects`. */
  batchSize: (items: string) => countFlag('--batch-size <n>', `${items} per request`, { min: 1, max: 10_000, default: 100 }),
  maxBatchBytes: (defaultBytes: number) =>
    countFlag('--max-batch-bytes <n>', `bytes per request, at most ${MAX_REQUEST_BYTES}`, { min: 1_024, max: MAX_REQUEST_BYTES, default: defaultBytes }),
  /** `note`: what the command adds about it, e.g. ` with --batch`; `max`: the most it allows. */
  concurrency: (note = '', max = 64) => countFlag('--concurrency <n>', `requests in flight${note}`, { min: 1, max, default: 4 }),
  /** `command`: as it is named in the default file's name. */
  failed: (what: string, command: string) => fileFlag('--failed <file>', `${what} (default: ${defaultFailedPath(command, '<time>')})`),
  /** `items`: what the command sends, e.g. `objects`. */
  checkpoint: (items: string) => fileFlag('--checkpoint <file>', `record the ${items} the service acknowledged here; a re-run of the same command sends only the rest`),
  /** For records without an idempotency key: where a batch goes whose request the service may have applied. */
  unconfirmed: (what: string, command: string) => fileFlag('--unconfirmed <file>', `${what} (default: ${defaultFailedPath(command, '<time>', 'unconfirmed')})`),
  skipInvalid: (what: string) => fileFlag('--skip-invalid <file>', `${what} (default: send nothing if any is invalid)`),
  maxConsecutiveFailures: () =>
    countFlag('--max-consecutive-failures <n>', 'stop once n requests in a row could not reach the service (refused, DNS, TLS); the rest go to the failed file; 0 never stops', { min: 0, max: 1_000_000, default: 5 }),
  /**
   * A shared bulk flag this command leaves out on purpose (`stream parts --shard`): hidden from help, and
   * refused with the reason (core/cli/whole-number, absentSchema), where commander would call it unknown and suggest a look-alike flag.
   */
  absent: (flags: string, reason: string): AbsentFlag => ({ option: new Option(flags).hideHelp(), reason }),
  /** What is read ahead while a batch is sent, for a command that follows a pipe. */
  maxBuffer: (items: string) =>
    countFlag('--max-buffer <n>', `with --follow: ${items} read ahead while a batch is sent or retried; reading pauses when it is full`, { min: 1, max: 1_000_000, default: 10_000 }),
};

/**
 * The flag of every command that sends record by record and can be split over workers;
 * `records`: what a worker keeps, in the command's words (`the users`, `the objects`);
 * `when`: what the flag needs, e.g. `with --batch: `.
 */
export const shardFlag = (records: string, when = '') => ({
  option: new Option('--shard <i/n>', `${when}send only ${records} of worker i of n (0-based), e.g. 3/16`),
});

/** commander's argParser of a repeatable flag: every value given, in order. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];
