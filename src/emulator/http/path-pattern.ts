import { EmulatorError } from './errors.js';

/** How a path matches a pattern with `:name` segments: the router's, and the fault script's. */

/** The pattern's `:name` values in `path`, or undefined when the path has another shape. */
export function matchPath(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, expected] of pattern.entries()) {
    const actual = segments[index] ?? '';
    if (expected.startsWith(':')) {
      if (actual === '') return undefined;
      params[expected.slice(1)] = decodeSegment(actual);
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}

/** Whether `path` has the shape of `pattern` (`:name` matching any one segment). */
export function pathMatches(pattern: string, path: string): boolean {
  try {
    return matchPath(pattern.split('/'), path.split('/')) !== undefined;
  } catch {
    return false;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new EmulatorError(400, `malformed percent-encoding in path segment "${segment}"`);
  }
}
