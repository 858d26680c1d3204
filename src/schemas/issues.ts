import * as z from 'zod';

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

/** A non-empty string field, every message naming what it is for: absent, not a string, empty, or over `max` characters. */
export const describedText = (what: string, max?: number) => {
  const text = z.string({ error: (issue) => (issue.input === undefined ? `is required: ${what}` : `expected a string (${what})`) }).min(1, { error: `expected a non-empty string (${what})` });
  return max === undefined ? text : text.max(max, { error: `expected at most ${max} characters (${what})` });
};

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

/**
 * Zod issues as problems; an unknown key is reported at its own path, not its parent's, and, given
 * the schema and the value checked, with the field it likely meant (`userId: unknown field; did you mean "user_id"?`).
 */
export function problemsFromZod(error: z.ZodError, checked?: { schema: z.ZodType; value: unknown }): FieldProblem[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: [...issue.path, key], message: unknownFieldMessage(key, checked && fieldNamesAt(checked.schema, checked.value, issue.path)) }))
      : [{ path: issue.path, message: issue.message }],
  );
}

function unknownFieldMessage(key: string, known: readonly string[] | undefined): string {
  // A field of another option of a union is unknown here, and no typo.
  const meant = known && !known.includes(key) ? closestName(key, known) : undefined;
  return meant === undefined ? 'unknown field' : `unknown field; did you mean "${meant}"?`;
}

/** What zod 4 keeps of a schema's definition that says where its fields are. */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  items?: z.ZodType[];
  valueType?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
  /** A literal's values. */
  values?: unknown[];
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/**
 * The schemas `value` may be checked against, past wrappers (optional, default, pipe, lazy) and
 * across the options of a union: those whose literal fields (a `type`) the value matches, when any do.
 */
function alternatives(schema: z.ZodType, value: unknown, depth = 0): z.ZodType[] {
  if (depth > 32) return [];
  const def = defOf(schema);
  const inner = def.innerType ?? def.in ?? def.getter?.();
  if (inner !== undefined) return alternatives(inner, value, depth + 1);
  if (def.options !== undefined) {
    const options = def.options.flatMap((option) => alternatives(option, value, depth + 1));
    const chosen = options.filter((option) => literalsMatch(option, value));
    return chosen.length > 0 ? chosen : options;
  }
  if (def.left !== undefined && def.right !== undefined) return [...alternatives(def.left, value, depth + 1), ...alternatives(def.right, value, depth + 1)];
  return [schema];
}

/** Whether every literal field of an object schema that the value has holds one of the literal's values. */
function literalsMatch(schema: z.ZodType, value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.entries(defOf(schema).shape ?? {}).every(([key, field]) => {
    const { type, values } = defOf(field);
    return type !== 'literal' || !(key in value) || (values ?? []).includes((value as Record<string, unknown>)[key]);
  });
}

/** The field names the object at `path` of `value` may have, by the schema (of a union, the options the value's literal fields choose). */
function fieldNamesAt(schema: z.ZodType, value: unknown, path: FieldPath): string[] {
  let here = alternatives(schema, value);
  let at = value;
  for (const key of path) {
    at = at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined;
    const inner = at;
    here = here.flatMap((candidate) => {
      const def = defOf(candidate);
      const next = typeof key === 'number' ? def.element ?? def.items?.[key] : def.shape?.[String(key)] ?? def.valueType;
      return next === undefined ? [] : alternatives(next, inner);
    });
  }
  return [...new Set(here.flatMap((candidate) => Object.keys(defOf(candidate).shape ?? {})))];
}

/** The name most like `wanted`: equal but for case and spaces first, else within a small edit distance. */
export function closestName(wanted: string, names: readonly string[]): string | undefined {
  const plain = (text: string) => text.trim().toLowerCase();
  const alike = names.find((name) => plain(name) === plain(wanted));
  if (alike !== undefined) return alike;
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(plain(name), plain(wanted));
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** A value checked against a schema: its parsed form, or every problem in one line (`a: …; b: …`). */
export function parsedOrProblem<S extends z.ZodType>(schema: S, value: unknown): { data: z.infer<S> } | { problem: string } {
  const parsed = schema.safeParse(value);
  return parsed.success ? { data: parsed.data } : { problem: problemsFromZod(parsed.error, { schema, value }).map(describeProblem).join('; ') };
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
