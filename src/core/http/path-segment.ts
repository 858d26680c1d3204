import { UsageError } from '../errors.js';

/**
 * A value (an id, a namespace) as one segment of a request path, encoded. An empty value, `.` and
 * `..` are refused before anything is sent: encodeURIComponent leaves dots as they are, and every
 * URL parser reads these as nothing, "this" and "parent", so the request would go to another
 * endpoint (`GET /v1/decisions/..` is `GET /v1/`). `name` is the argument as help shows it.
 */
export function pathSegment(value: string, name: string): string {
  if (value === '') throw new UsageError(`${name} is empty`);
  const problem = dotSegmentProblem(value);
  if (problem !== undefined) throw new UsageError(`${name} "${value}": ${problem}`);
  return encodeURIComponent(value);
}

/** Why `.` or `..` cannot stand as a path segment; undefined for any other value. */
export const dotSegmentProblem = (value: string): string | undefined =>
  value === '.' || value === '..' ? '"." and ".." cannot name one: in the URL path they mean "this" and "parent", so the request would go to another address' : undefined;
