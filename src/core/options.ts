import { z } from 'zod';
import { Option } from 'commander';
import { UsageError } from './errors.js';
import { defaultFailedPath } from './failed-file.js';

const toFlag = (key: PropertyKey) => `--${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Parses a command's commander options through its zod schema; the first problem becomes a usage error naming the flag. */
export function parseOptions<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const flag = issue.path.length > 0 ? `${toFlag(issue.path[0]!)}: ` : '';
  throw new UsageError(`${flag}${issue.message}`);
}

/**
 * A whole-number flag value within [min, max], from commander's text: plain decimal digits only,
 * as a user means them; Number() would also take `0x10`, `1e2`, ` 5` and an empty value (0).
 */
export function integerFlag(min: number, max = Number.MAX_SAFE_INTEGER, expected = `expected a whole number ≥ ${min}`) {
  return z
    .string({ error: expected })
    .regex(/^\d+$/, { error: expected })
    .transform(Number)
    // Only Infinity, from digits past 1.8e308, is not a number here.
    .pipe(z.number({ error: `expected at most ${max}` }).min(min, { error: expected }).max(max, { error: `expected at most ${max}` }));
}

/** The service's request size limit (spec: 6 MB); no batch may be larger. */
const MAX_REQUEST_BYTES = 6_000_000;

const countFlag = (flags: string, description: string, bounds: { min: number; max: number; default: number }) => ({
  option: new Option(flags, description).default(String(bounds.default)),
  schema: integerFlag(bounds.min, bounds.max).default(bounds.default),
});

/** The value of a flag that names a file csafe writes (--failed, --checkpoint …). */
const fileNameFlag = z.string().min(1, { error: 'expected a file name, got an empty one' }).optional();

const fileFlag = (flags: string, description: string) => ({ option: new Option(flags, description), schema: fileNameFlag });

/**
 * The flags of the commands that send records in batches (data add, events send, classify
 * --batch, stream parts): the same flag text, defaults and validation everywhere, in the words of the command.
 */
export const batchFlags = {
  /** `items`: what one request carries, e.g. `objects`. */
  batchSize: (items: string) => countFlag('--batch-size <n>', `${items} per request`, { min: 1, max: 10_000, default: 100 }),
  maxBatchBytes: (defaultBytes: number) =>
    countFlag('--max-batch-bytes <n>', `bytes per request, at most ${MAX_REQUEST_BYTES}`, { min: 1_024, max: MAX_REQUEST_BYTES, default: defaultBytes }),
  /** `note`: what the command adds about it, e.g. ` with --batch`. */
  concurrency: (note = '') => countFlag('--concurrency <n>', `requests in flight${note}`, { min: 1, max: 64, default: 4 }),
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
   * refused with the reason, where commander would call it unknown and suggest a look-alike flag.
   */
  absent: (flags: string, reason: string) => ({ option: new Option(flags).hideHelp(), schema: z.undefined({ error: reason }).optional() }),
  /** What is read ahead while a batch is sent, for a command that follows a pipe. */
  maxBuffer: (items: string) =>
    countFlag('--max-buffer <n>', `with --follow: ${items} read ahead while a batch is sent or retried; reading pauses when it is full`, { min: 1, max: 1_000_000, default: 10_000 }),
};

/**
 * An id argument (`<decision-id>`), refused when empty: it would name the collection, not one of
 * its members, and the service's answer would not say what was wrong.
 */
export function requireId(id: string, argument: string, example: { command: string; id: string }): string {
  if (id === '') throw new UsageError(`${argument} is empty`, { hint: `give the id \`${example.command}\` printed, e.g. ${example.id}` });
  return id;
}
