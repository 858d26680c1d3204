import type { z } from 'zod';
import { problemsFromZod, type FieldProblem } from '../../schemas/issues.js';
import { invalidRequest } from './errors.js';

/**
 * Parses a request body with the shared contract schema, then runs the checks a schema cannot
 * express (sizes, counts). Any problem is a 400 naming the field.
 */
export function validateBody<T>(
  schema: z.ZodType<T>,
  body: unknown,
  limitProblems: (value: T) => FieldProblem[] = () => [],
): T {
  if (body === undefined) throw invalidRequest([{ path: [], message: 'the request body is empty; expected a JSON object' }]);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidRequest(problemsFromZod(parsed.error));
  const problems = limitProblems(parsed.data);
  if (problems.length > 0) throw invalidRequest(problems);
  return parsed.data;
}
