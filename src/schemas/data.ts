import * as z from 'zod';
import { describeProblem, MISSING, problemsFromZod } from './issues.js';

import { CONTENT_TYPES } from './names.js';

/**
 * What the namespace data endpoints take and answer: objects, settings (the namespace schema), add
 * and import requests. Requests we send are strict; responses are tolerant (unknown fields kept,
 * statuses plain strings).
 */

/** Content types whose value is a URL the service fetches and processes. */
export const URL_CONTENT_TYPES: ReadonlySet<string> = new Set(['image_url', 'video_url', 'website_url', 'audio_url']);

/** display_hint types: the spec's, then those the service's current docs add (the email.* ones stay valid). */
const DISPLAY_HINT_TYPES = [
  'title',
  'subtitle',
  'description',
  'primary_image_url',
  'video_url',
  'location',
  'compact_text',
  'markdown',
  'html',
  'email.reply_to',
  'email.body',
  'email.subject',
  'email.body_image',
  'email.logo_image',
  'email.event',
  'email.footer',
  'audio_url',
  'date',
  'card',
  'chat_thread',
] as const;

export const REQUEST_STATUSES = ['queued', 'uploading', 'ingesting', 'succeeded', 'failed'] as const;
/** A data request's statuses as the spec lists them; an import request is pending_upload until its file arrives. */
export const DATA_REQUEST_STATUSES = { running: ['pending_upload', 'queued', 'uploading', 'ingesting'], final: ['succeeded', 'failed'], succeeded: 'succeeded' } as const;

/** Lifetime of a data import upload address (spec: 12 hours after issuance). */
export const IMPORT_UPLOAD_TTL_SECONDS = 12 * 60 * 60;

/**
 * A namespace name: lowercase letters, digits, `_` and `-`, case-sensitive. The spec fixes no
 * alphabet; the service's docs (core concepts: namespaces) do, and it answers any other name as
 * not found.
 */
export const NAMESPACE_RULE = 'lowercase letters, digits, "_" and "-" only ([0-9a-z_-], case-sensitive)';
export const namespaceNameSchema = z
  .string()
  .min(1, { error: 'expected a non-empty namespace' })
  .max(256, { error: 'expected a namespace of at most 256 characters' })
  .regex(/^[0-9a-z_-]+$/, { error: `expected ${NAMESPACE_RULE}` });

export const dataObjectSchema = z.looseObject({
  id: z.string({ error: (issue) => (issue.input === undefined ? `${MISSING}; every object needs its own "id", a non-empty string` : 'expected a string id') }).min(1, { error: 'expected a non-empty string id' }),
});
export type DataObject = z.infer<typeof dataObjectSchema>;

/**
 * What is wrong with a value as a data object (a JSON object with a non-empty string id), or
 * undefined: one message per problem, the same from csafe's check and the emulator's import.
 */
export function dataObjectProblem(value: unknown): string | undefined {
  if (isDataObject(value)) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'expected a JSON object with a string "id"';
  const parsed = dataObjectSchema.safeParse(value);
  return parsed.success ? undefined : problemsFromZod(parsed.error).map(describeProblem).join('; ');
}

/**
 * What dataObjectSchema accepts, checked by hand, so that zod runs only to explain a refusal: an
 * import checks millions of objects. test/schemas/data.test.ts keeps the two in agreement.
 */
export const isDataObject = (value: unknown): value is DataObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { id?: unknown }).id === 'string' && (value as { id: string }).id.length > 0;

const enumError = (values: readonly string[]) => ({ error: `expected one of ${values.join(', ')}` });

const namespaceReference = z.string({ error: 'expected a namespace name (string)' }).min(1, { error: 'expected a non-empty namespace name' });

export const fieldDefinitionSchema = z.strictObject({
  content_type: z.enum(CONTENT_TYPES, enumError(CONTENT_TYPES)).optional(),
  // The spec's {type}; the current docs make type optional and add name (a label to show) and order (0 hides the field from list views).
  display_hint: z
    .strictObject(
      {
        type: z.enum(DISPLAY_HINT_TYPES, enumError(DISPLAY_HINT_TYPES)).optional(),
        name: z.string({ error: 'expected a string (the name to show)' }).min(1, { error: 'expected a non-empty name' }).optional(),
        order: z.number({ error: 'expected a whole number ≥ 0' }).int({ error: 'expected a whole number ≥ 0' }).min(0, { error: 'expected a whole number ≥ 0' }).optional(),
      },
      { error: 'expected an object of type, name and order' },
    )
    .optional(),
  field_limit: z.number({ error: 'expected a positive number' }).positive({ error: 'expected a positive number' }).optional(),
  namespace_ref: namespaceReference.optional(),
  // The current docs' name for the namespace a field's id belongs to.
  belongs_to: namespaceReference.optional(),
}, { error: 'expected a field definition object' });
export type FieldDefinition = z.infer<typeof fieldDefinitionSchema>;

const namespaceSchemaSchema = z.record(z.string().min(1), fieldDefinitionSchema, {
  // zod reports a bad key with the record's own error: an empty name is not a map that is no object.
  error: (issue) => (issue.code === 'invalid_key' ? 'expected a non-empty field name' : 'expected an object mapping field names to definitions'),
});
export type NamespaceSchema = z.infer<typeof namespaceSchemaSchema>;

export const settingsRequestSchema = z.strictObject({ schema: namespaceSchemaSchema });

/**
 * POST /v1/data/{namespace}: the objects, and optionally a schema beside them (the service's docs
 * and SDK; not in the spec), applied to the namespace as PUT …/settings would apply it.
 */
export const addDataRequestSchema = z.strictObject({
  data: z.union([dataObjectSchema, z.array(dataObjectSchema).min(1, { error: 'expected at least one object' })], {
    error: 'expected one data object or an array of data objects',
  }),
  schema: namespaceSchemaSchema.optional(),
});

/** POST /v1/data/{namespace}/requests/upload-url (the current docs' import request): an optional schema, applied as PUT …/settings would. */
export const uploadUrlRequestSchema = z.strictObject({ schema: namespaceSchemaSchema.optional() });

// Responses: tolerant.

export const settingsResponseSchema = z.looseObject({ namespace: z.string(), status: z.string() });

/** `{requestId, status: "accepted"}`: what POST /v1/data and both stream endpoints answer. */
export const acceptedResponseSchema = z.looseObject({ requestId: z.string(), status: z.string() });
export type AcceptedResponse = z.infer<typeof acceptedResponseSchema>;

export const importResponseSchema = z.looseObject({
  expires_at: z.string(),
  objectKey: z.string(),
  requestId: z.string(),
  status: z.string(),
  upload_url: z.string(),
});
export type ImportResponse = z.infer<typeof importResponseSchema>;

const objectOutputSchema = z.looseObject({
  actions: z.array(z.unknown()).optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
  labels: z.array(z.looseObject({ label: z.string() })).optional(),
});

const dataEntrySchema = z.looseObject({
  id: z.string(),
  output: objectOutputSchema.optional(),
  url: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type DataEntry = z.infer<typeof dataEntrySchema>;

/**
 * Either record shape of GET …/requests/{requestId}. The import-type one carries data_count,
 * data_url and data_expires_at in every state; until its output exists they are 0 and null (the
 * emulator), empty strings, or all null (as …/results/download-url answers them), and all are
 * read as "not yet".
 */
export const requestRecordSchema = z.looseObject({
  namespace: z.string().optional(),
  request_id: z.string(),
  status: z.string(),
  data: z.array(dataEntrySchema).optional(),
  data_count: z.number().nullable().optional(),
  data_expires_at: z.string().nullable().optional(),
  data_url: z.string().nullable().optional(),
});
export type RequestRecord = z.infer<typeof requestRecordSchema>;

/**
 * GET …/requests/{id}/results/download-url (the service's docs; not in the spec): where the output
 * of a request of either kind can be downloaded, the data fields null until there is one.
 */
export const downloadUrlRecordSchema = z.looseObject({
  request_id: z.string(),
  status: z.string(),
  namespace: z.string().optional(),
  data_count: z.number().nullish(),
  data_url: z.string().nullish(),
  data_expires_at: z.string().nullish(),
});
export type DownloadUrlRecord = z.infer<typeof downloadUrlRecordSchema>;

const IMPORT_ONLY_FIELDS = ['data_count', 'data_url', 'data_expires_at'] as const;

/** An import-type record has its own fields (whatever their values); a record with neither those nor `data` is taken as one too. */
export const isImportRecord = (record: RequestRecord) =>
  IMPORT_ONLY_FIELDS.some((field) => record[field] !== undefined) || record.data === undefined;
