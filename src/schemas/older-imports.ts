import * as z from 'zod';
import { problemsFromZod, type FieldProblem } from './issues.js';

/**
 * What the older import endpoints (POST /v1/import, GET /v1/import/{id}) take and answer: a JSONL
 * file of `{type, data}` lines uploaded to a pre-signed address. Not namespace data imports (data.ts).
 */

/** An import's statuses as the spec lists them. */
export const OLDER_IMPORT_STATUSES = { running: ['WAITING_FOR_UPLOAD', 'IN_PROGRESS'], final: ['COMPLETE', 'FAILED'], succeeded: 'COMPLETE' } as const;

/** Lifetime of the upload address (spec: valid for 1 hour). */
export const OLDER_IMPORT_UPLOAD_TTL_SECONDS = 60 * 60;
export const OLDER_IMPORT_CONTENT_TYPE = 'application/jsonl';

const importLineSchema = z.strictObject({
  type: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required: the kind of data, e.g. text' : 'expected a string (the kind of data)') })
    .min(1, { error: 'expected a non-empty string (the kind of data)' }),
  data: z.record(z.string(), z.unknown(), {
    error: (issue) => (issue.input === undefined ? 'is required: a JSON object (the payload)' : 'expected a JSON object (the payload)'),
  }),
});

/** Every reason one line of an import file is not `{"type": non-empty string, "data": object}`. */
export function importLineProblems(value: unknown): FieldProblem[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [{ path: [], message: 'expected a JSON object {"type": …, "data": {…}}' }];
  }
  const parsed = importLineSchema.safeParse(value);
  return parsed.success ? [] : problemsFromZod(parsed.error, { schema: importLineSchema, value });
}

export const importCreatedSchema = z.looseObject({ import_id: z.string(), import_status: z.string(), upload_url: z.string() });
export type ImportCreated = z.infer<typeof importCreatedSchema>;

export const olderImportSchema = z.looseObject({
  import_id: z.string(),
  import_status: z.string(),
  s3_key: z.string().nullish(),
  filename: z.string().nullish(),
  created_at: z.string(),
});
export type OlderImport = z.infer<typeof olderImportSchema>;
