import * as z from 'zod';
import { describedText } from './issues.js';

/**
 * POST /v1/deletion_requests (the service's docs; not in the spec): a data subject's request to
 * erase what the service holds of a user. Requests strict, responses tolerant.
 */

export const deletionRequestSchema = z.strictObject({
  subject_user_id: describedText('the user whose data is to be erased', 512),
  external_request_id: describedText('your id of the request; a repeat answers the first', 256).optional(),
  requested_at: z.iso.datetime({ offset: true, error: 'expected an ISO 8601 date-time, e.g. 2026-11-27T10:00:00Z' }).optional(),
});
export type DeletionRequest = z.infer<typeof deletionRequestSchema>;
/** A request with its external id: a repeat answers the request first filed. */
export type KeyedDeletionRequest = DeletionRequest & { external_request_id: string };

export const deletionResponseSchema = z.looseObject({
  deletion_request_id: z.string(),
  status: z.string(),
  external_request_id: z.string().optional(),
});
export type DeletionResponse = z.infer<typeof deletionResponseSchema>;
