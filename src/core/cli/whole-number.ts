import * as z from 'zod';
import { UsageError } from '../errors.js';
import type { AbsentFlag, CountFlag } from './bulk-flags.js';

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

/** The validation of a count flag of core/cli/bulk-flags: whole numbers within its bounds, its default when not given. */
export const countSchema = ({ bounds }: CountFlag) => integerFlag(bounds.min, bounds.max).default(bounds.default);

/** The validation of a file flag of core/cli/bulk-flags (--failed, --checkpoint …). */
export const fileSchema = z.string().min(1, { error: 'expected a file name, got an empty one' }).optional();

/** The validation of a flag a command refuses (core/cli/bulk-flags, batchFlags.absent): its reason as the error. */
export const absentSchema = ({ reason }: AbsentFlag) => z.undefined({ error: reason }).optional();

/**
 * An id argument (`<decision-id>`), refused when empty: it would name the collection, not one of
 * its members, and the service's answer would not say what was wrong.
 */
export function requireId(id: string, argument: string, example: { command: string; id: string }): string {
  if (id === '') throw new UsageError(`${argument} is empty`, { hint: `give the id \`${example.command}\` printed, e.g. ${example.id}` });
  return id;
}
