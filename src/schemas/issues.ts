import type { z } from 'zod';

export type FieldPath = ReadonlyArray<PropertyKey>;

/** One validation problem, in the spec's words: where (field path) and what was expected. */
export interface FieldProblem {
  path: FieldPath;
  message: string;
}

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
