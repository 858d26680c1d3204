import { z } from 'zod';
import { UsageError } from './errors.js';

const toFlag = (key: PropertyKey) => `--${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Parses a command's commander options through its zod schema; the first problem becomes a usage error naming the flag. */
export function parseOptions<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const flag = issue.path.length > 0 ? `${toFlag(issue.path[0]!)}: ` : '';
  throw new UsageError(`${flag}${issue.message}`);
}

/** A whole-number flag value (commander hands over text) within [min, max]. */
export const countOption = (min: number, max: number) => {
  const expected = `expected a whole number ≥ ${min}`;
  return z.coerce.number({ error: expected }).int({ error: expected }).min(min, { error: expected }).max(max, { error: `expected at most ${max}` });
};
