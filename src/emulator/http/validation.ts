import type { z } from 'zod';
import { NAMESPACE_RULE, namespaceNameSchema } from '../../schemas/data.js';
import { problemsFromZod, type FieldProblem } from '../../schemas/issues.js';
import { EmulatorError, invalidRequest } from './errors.js';
import type { RouteContext } from './router.js';

/** How a request's body and path parameters are checked with the shared schemas, any problem a 400 naming the field. */

/**
 * The {namespace} path segment. Namespaces are created on first use, so any valid name will do;
 * another name is not found, as the service answers it, with the rule in the message.
 */
export function namespaceParam(ctx: RouteContext): string {
  const name = ctx.params.namespace ?? '';
  const parsed = namespaceNameSchema.safeParse(name);
  if (!parsed.success) throw new EmulatorError(404, `no namespace ${JSON.stringify(name)}: a namespace name has ${NAMESPACE_RULE}`);
  return parsed.data;
}

/** A 400 with every problem `problemsOf` finds in the request body (a 400 too when there is no body). */
export function checkBody(body: unknown, problemsOf: (body: unknown) => FieldProblem[]): void {
  const problems = body === undefined ? EMPTY_BODY : problemsOf(body);
  if (problems.length > 0) throw invalidRequest(problems);
}

/**
 * The body of an endpoint whose fields are all optional: no body at all stands for `{}`. A JSON
 * null is a body, of the wrong type, and is refused as any value that is not an object.
 */
export const bodyOrEmptyObject = (body: unknown): unknown => (body === undefined ? {} : body);

const EMPTY_BODY: FieldProblem[] = [{ path: [], message: 'the request body is empty; expected a JSON object' }];

/**
 * Parses a request body with the shared contract schema, then runs the checks a schema cannot
 * express (sizes, counts). Any problem is a 400 naming the field.
 */
export function validateBody<T>(
  schema: z.ZodType<T>,
  body: unknown,
  limitProblems: (value: T) => FieldProblem[] = () => [],
): T {
  if (body === undefined) throw invalidRequest(EMPTY_BODY);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidRequest(problemsFromZod(parsed.error));
  const problems = limitProblems(parsed.data);
  if (problems.length > 0) throw invalidRequest(problems);
  return parsed.data;
}
