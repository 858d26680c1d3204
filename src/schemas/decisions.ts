import * as z from 'zod';
import { jsonObjectSchema } from './json-object.js';

/**
 * What the older decision endpoints (POST /v1/decisions, GET /v1/decisions/{id}) take and answer.
 * Requests strict, responses tolerant: unknown fields kept, statuses plain strings.
 */

/** A decision's statuses as the spec lists them. */
export const DECISION_STATUSES = { running: ['PENDING'], final: ['SUCCESS', 'ERROR'], succeeded: 'SUCCESS' } as const;

const jsonObject = (expected: string) => jsonObjectSchema((issue) => (issue.input === undefined ? `is required: ${expected}` : expected));

/** The `type` of a decision or a batch: the kind of content to review. */
export const reviewTypeSchema = z
    .string({ error: (issue) => (issue.input === undefined ? 'is required: the kind of content to review, e.g. text' : 'expected a string') })
    .min(1, { error: 'expected a non-empty string (the kind of content to review, e.g. text)' });

const FLAT_VALUE = 'expected a string, a number, a boolean or null (decision metadata is flat: no objects or arrays)';

/**
 * A decision's metadata: a flat map, each value a string, number, boolean or null. The spec says
 * only "object"; the service's docs (`map[string or number or boolean]`) and its SDK's type
 * (`Union[str, float, bool, None]`) say flat, and the SDK cannot read a nested value back.
 */
const flatMetadataSchema = jsonObject('expected a JSON object of key-value pairs').check((ctx) => {
  for (const [key, value] of Object.entries(ctx.value)) {
    if (value !== null && typeof value === 'object') ctx.issues.push({ code: 'custom', message: FLAT_VALUE, input: value, path: [key] });
  }
});

export const createDecisionRequestSchema = z.strictObject({
  type: reviewTypeSchema,
  content: jsonObject('expected a JSON object (its fields depend on type)'),
  metadata: flatMetadataSchema.optional(),
});
export type CreateDecisionRequest = z.infer<typeof createDecisionRequestSchema>;

export const decisionCreatedSchema = z.looseObject({
  decision_id: z.string(),
  type: z.string(),
  metadata: jsonObjectSchema().nullish(),
});
export type DecisionCreated = z.infer<typeof decisionCreatedSchema>;

const decisionLabelSchema = z.looseObject({ name: z.string(), applied: z.boolean(), explanation: z.string().nullish() });

export const decisionSchema = z.looseObject({
  decision_id: z.string(),
  decision_status: z.string(),
  metadata: jsonObjectSchema().nullish(),
  result: z.string().nullish(),
  labels: z.array(decisionLabelSchema).nullish(),
});
export type Decision = z.infer<typeof decisionSchema>;
