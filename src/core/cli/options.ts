// How a command's options are checked, the one way for every command: a zod schema derived from
// its flag declarations (core/cli/flags.ts), which a command may extend with checks of its own;
// the first problem is one line naming the flag (exit 2).

import * as z from 'zod';
import { UsageError } from '../errors.js';
import { durationMs, sizeBytes } from './duration.js';
import { shardFlagSchema } from '../bulk/shard.js';
import { kebab, type FlagDecl, type Flags, type OptionsOf } from './flags.js';

/** Parses a command's commander options through its zod schema; the first problem becomes a usage error naming the flag. */
export function parseOptions<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const flag = issue.path.length > 0 ? `--${kebab(String(issue.path[0]))}: ` : '';
  throw new UsageError(`${flag}${issue.message}`);
}

/**
 * A whole-number flag value within [min, max], from commander's text: plain decimal digits only,
 * as a user means them; Number() would also take `0x10`, `1e2`, ` 5` and an empty value (0).
 */
export function integerFlag(min: number, max = Number.MAX_SAFE_INTEGER, expected = `expected a whole number ≥ ${min}`, unit?: 'bytes' | 'ms') {
  const quantity = unit === undefined ? (text: string) => (/^\d+$/.test(text) ? Number(text) : undefined) : QUANTITY[unit];
  return z
    .string({ error: expected })
    .transform((text, ctx) => quantity(text) ?? (ctx.addIssue({ code: 'custom', message: expected }), z.NEVER))
    // Only Infinity, from digits past 1.8e308, is not a number here.
    .pipe(z.number({ error: `expected at most ${max}` }).min(min, { error: expected }).max(max, { error: `expected at most ${max}` }));
}

/** How a quantity flag's text becomes its whole number, or undefined when it is not one. */
const QUANTITY: Record<'bytes' | 'ms', (text: string) => number | undefined> = {
  bytes: sizeBytes,
  ms: (text) => durationMs(text.trim(), 1),
};

const RATE_EXPECTED = 'expected requests a second above 0, e.g. 20, 20/s or 0.5/s';
/** A rate flag's value: a decimal number of requests a second, `/s` optional. */
const rateFlag = z
  .string({ error: RATE_EXPECTED })
  .regex(/^\d+(\.\d+)?(\/s)?$/, { error: RATE_EXPECTED })
  .transform((text) => Number.parseFloat(text))
  .pipe(z.number().positive({ error: RATE_EXPECTED }).max(1_000_000, { error: 'expected at most 1000000/s' }));

/** The check of one declared flag, with its default when not given. */
function flagSchema(flag: FlagDecl): z.ZodType {
  switch (flag.type) {
    case 'switch':
      return z.boolean().default(Boolean(flag.negate));
    case 'text':
      if (flag.repeat) return z.array(z.string()).default([]);
      return flag.default === undefined ? z.string().optional() : z.string().default(flag.default);
    case 'count': {
      const count = integerFlag(flag.min, flag.max, flag.expected, flag.unit);
      return flag.default === undefined ? count.optional() : count.default(flag.default);
    }
    case 'rate':
      return rateFlag.optional();
    case 'file':
      return z.string().min(1, { error: 'expected a file name, got an empty one' }).optional();
    case 'choice': {
      const choice = z.enum(flag.choices as [string, ...string[]], { error: `expected ${flag.choices.join(' or ')}` });
      return flag.default === undefined ? choice.optional() : choice.default(flag.default);
    }
    case 'shard':
      return shardFlagSchema;
    case 'absent':
      return z.undefined({ error: flag.reason }).optional();
  }
}

/** The schema of a command's options, from its flags; `.extend()` it for a check of the command's own (a stream id, a date-time). */
export function optionsSchema<F extends Flags>(flags: F): z.ZodObject<{ -readonly [K in keyof F]: z.ZodType<OptionsOf<F>[K]> }> {
  const shape = Object.fromEntries(Object.entries(flags).map(([key, flag]) => [key, flagSchema(flag)]));
  return z.object(shape) as never;
}

/** A command's options checked against its flag declarations alone. */
export const parseFlags = <F extends Flags>(flags: F, raw: unknown): OptionsOf<F> => parseOptions(optionsSchema(flags), raw) as OptionsOf<F>;

/**
 * An id argument (`<decision-id>`), refused when empty: it would name the collection, not one of
 * its members, and the service's answer would not say what was wrong.
 */
export function requireId(id: string, argument: string, example: { command: string; id: string }): string {
  if (id === '') throw new UsageError(`${argument} is empty`, { hint: `give the id \`${example.command}\` printed, e.g. ${example.id}` });
  return id;
}

/**
 * A request body whose fields each come from one flag (`flagOf`: field → flag key), checked with
 * the request's own schema before anything is sent: the first problem names its flag (exit 2).
 */
export function bodyFromFlags<S extends z.ZodType>(schema: S, flagOf: Readonly<Record<string, string>>, options: Readonly<Record<string, unknown>>, what: string): z.infer<S> {
  const fields = Object.fromEntries(Object.entries(flagOf).flatMap(([field, flag]) => (options[flag] === undefined ? [] : [[field, options[flag]]])));
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const flag = flagOf[String(issue.path[0])];
  throw new UsageError(`${flag === undefined ? what : `--${kebab(flag)}`}: ${issue.message}`);
}
