import * as z from 'zod';
import { reviewTypeSchema } from './decisions.js';

/**
 * What the older batch endpoints (POST /v1/batches, GET /v1/batches/{id}) take and answer: a CSV
 * uploaded to a pre-signed address, and a result CSV behind a pre-signed download address.
 */

/** A batch's statuses as the spec lists them (the misspelled WATING_FOR_UPLOAD is read as WAITING_FOR_UPLOAD). */
export const BATCH_STATUSES = { running: ['WAITING_FOR_UPLOAD', 'PENDING'], final: ['SUCCESS', 'CANCELLED', 'ERROR'], succeeded: 'SUCCESS' } as const;

/** Lifetime of both pre-signed addresses (spec: valid for 1 hour). */
export const BATCH_URL_TTL_SECONDS = 60 * 60;
export const BATCH_CONTENT_TYPE = 'text/csv';
/** The one required column of a batch CSV (matched exactly); every other column is the caller's metadata. */
export const CONTENT_COLUMN = 'Content';
/** The result CSV's columns, before the caller's own metadata columns. */
export const RESULT_COLUMNS = ['Content', 'Status', 'Service result', 'Expected result', 'Labels'] as const;

export const createBatchRequestSchema = z.strictObject({
  type: reviewTypeSchema,
});

/** The spec's creation example spells it WATING_FOR_UPLOAD; the documented value is WAITING_FOR_UPLOAD. */
const batchStatus = z.string().transform((status) => (status === 'WATING_FOR_UPLOAD' ? 'WAITING_FOR_UPLOAD' : status));
const count = z.number().nullish();

export const batchSchema = z.looseObject({
  batch_id: z.string(),
  type: z.string(),
  batch_status: batchStatus,
  upload_url: z.string().nullish(),
  download_url: z.string().nullish(),
  batch_count: count,
  success_count: count,
  pending_count: count,
  error_count: count,
  cancelled_count: count,
});
export type Batch = z.infer<typeof batchSchema>;
