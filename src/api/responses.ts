import type { z } from 'zod';
import { UnexpectedResponseError } from '../core/errors.js';
import { describeProblem, problemsFromZod } from '../schemas/issues.js';

/** The response checked against a tolerant schema: missing promised fields fail, extra fields are kept. */
export function parseResponse<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = problemsFromZod(parsed.error).map(describeProblem).join('; ');
  throw new UnexpectedResponseError(`${what}: unexpected response from the service: ${problems}`);
}
