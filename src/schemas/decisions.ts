import * as z from 'zod';
import { jsonObjectSchema } from './json-object.js';

/**
 * What the older decision endpoints (POST /v1/decisions, GET /v1/decisions/{id}) take and answer.
 * Requests strict, responses tolerant: unknown fields kept, statuses plain strings.
 */

/** What `--wait` waits for: anything but PENDING, including a status the spec does not list. */
export const isDecisionSettled = (status: string): boolean => status !== 'PENDING';

const jsonObject = (expected: string) => jsonObjectSchema((issue) => (issue.input === undefined ? `is required: ${expected}` : expected));

/** The `type` of a decision or a batch: the kind of content to review. */
export const reviewTypeSchema = z
    .string({ error: (issue) => (issue.input === undefined ? 'is required: the kind of content to review, e.g. text' : 'expected a string') })
    .min(1, { error: 'expected a non-empty string (the kind of content to review, e.g. text)' });

export const createDecisionRequestSchema = z.strictObject({
  type: reviewTypeSchema,
  content: jsonObject('expected a JSON object (its fields depend on type)'),
  metadata: jsonObject('expected a JSON object of key-value pairs').optional(),
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
