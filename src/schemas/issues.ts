import type { z } from 'zod';

/** How a validation problem is told: where (a field path, in one notation) and what was expected there. */

export type FieldPath = ReadonlyArray<PropertyKey>;

/** One validation problem, in the spec's words: where (field path) and what was expected. */
export interface FieldProblem {
  path: FieldPath;
  message: string;
}

/** Error map of a required field: "is required: " and the expectation when it is absent, the expectation otherwise; the user sees which of the two it is. */
export const expecting = (expected: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `is required: ${expected}` : expected);

/** The message for a required field that is absent, rather than zod's "expected string, received undefined". */
export const MISSING = 'missing';

/**
 * Error map of a required field: "missing" when it is absent, else `expected`
 * (or, without one, zod's own message for a value of the wrong kind).
 */
export const missingOr =
  (expected?: string) =>
  (issue: { input?: unknown }): string | undefined =>
    issue.input === undefined ? MISSING : expected;

/** How the user supplies a missing field, by its path: `{user_id: 'give --user-id or …'}`. */
export type MissingFieldHints = Readonly<Record<string, string>>;

/** `content[3].source.data` — the notation every error message uses for a field path. */
export function formatPath(path: FieldPath): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

/** Zod issues as problems; an unknown key is reported at its own path, not its parent's. */
export function problemsFromZod(error: z.ZodError): FieldProblem[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: [...issue.path, key], message: 'unknown field' }))
      : [{ path: issue.path, message: issue.message }],
  );
}

export function describeProblem(problem: FieldProblem): string {
  return `${formatPath(problem.path)}: ${problem.message}`;
}

/** describeProblem, followed for a missing field by how to supply it: `user_id: missing; give --user-id or …`. */
export const describeProblemWith =
  (hints: MissingFieldHints) =>
  (problem: FieldProblem): string => {
    const hint = problem.message === MISSING ? hints[formatPath(problem.path)] : undefined;
    return hint === undefined ? describeProblem(problem) : `${describeProblem(problem)}; ${hint}`;
  };
