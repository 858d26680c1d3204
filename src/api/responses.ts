import type { z } from 'zod';
import { ApiError, UnexpectedResponseError } from '../core/errors.js';
import type { HttpClient, RequestSpec } from '../core/http/client.js';
import { describeProblem, problemsFromZod } from '../schemas/issues.js';

/** How an answer from the service is read: checked against its schema, and the error message of a failed record found. */

/** The response checked against a tolerant schema: missing promised fields fail, extra fields are kept. */
export function parseResponse<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = problemsFromZod(parsed.error);
  const shown = problems.slice(0, SHOWN_PROBLEMS).map(describeProblem).join('; ');
  const more = problems.length > SHOWN_PROBLEMS ? `; and ${problems.length - SHOWN_PROBLEMS} more` : '';
  throw new UnexpectedResponseError(`${what}: unexpected response from the service: ${shown}${more}`);
}

/** The problems an error names: an answer of a hundred thousand wrong labels made a line of megabytes, the first few say what is wrong. */
const SHOWN_PROBLEMS = 10;

/**
 * Sends the request and gives its 2xx answer as `read` reads it. The HTTP client reads it within
 * the attempt (RequestSpec.readAnswer), so an answer that is JSON but not what `read` relies on is,
 * to the one retry policy, an answer that cannot be read: retried where the request may be sent
 * twice, else not (and then, in a bulk run, unconfirmed).
 */
export async function readAnswerOf<T>(http: HttpClient, spec: RequestSpec, read: (body: unknown) => T): Promise<T> {
  return (await http.request({ ...spec, readAnswer: read })).body as T;
}

/** The same, its answer checked against `schema` (parseResponse). */
export const checkedAnswerOf = <S extends z.ZodType>(http: HttpClient, spec: RequestSpec, schema: S): Promise<z.infer<S>> =>
  readAnswerOf(http, spec, (body) => parseResponse(schema, body, `${spec.method} ${spec.path ?? ''}`));

/** The `error.message` the service puts on a failed record (an import, an unprocessable object), if any. */
export function errorMessage(value: object): string | undefined {
  const error = (value as { error?: unknown }).error;
  if (error === undefined) return undefined;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}

/**
 * Whether an error may mean the service has no such endpoint (404 or 405): what a service with
 * only the spec's endpoints answers to one its docs add. Nothing was done there, so the spec's way
 * may follow; a 404 of a missing record looks the same, so the caller's next request must tell.
 */
export const mayLackEndpoint = (error: unknown): error is ApiError => error instanceof ApiError && (error.status === 404 || error.status === 405);
