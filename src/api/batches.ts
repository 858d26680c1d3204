import type { HttpClient } from '../core/http/client.js';
import { pathSegment } from '../core/http/path-segment.js';
import { batchSchema, type Batch } from '../schemas/batches.js';
import { createOnce, UPLOAD_NOT_SENT } from './create.js';
import { checkedAnswerOf, parseResponse } from './responses.js';

/** How csafe calls the batch endpoints, each answer checked against its schema. */

/** POST /v1/batches: a batch waiting for its CSV, with a pre-signed upload address valid 1 hour. */
export async function createBatch(http: HttpClient, type: string): Promise<Batch> {
  return createOnce(http, { method: 'POST', path: '/v1/batches', json: { type } }, { what: 'batch', note: UPLOAD_NOT_SENT }, (body) =>
    parseResponse(batchSchema, body, 'POST /v1/batches'),
  );
}

/** GET /v1/batches/{batchId}: status, counts, and once it has succeeded a pre-signed download address valid 1 hour. */
export async function getBatch(http: HttpClient, batchId: string): Promise<Batch> {
  const path = `/v1/batches/${pathSegment(batchId, '<batch-id>')}`;
  return checkedAnswerOf(http, { method: 'GET', path }, batchSchema);
}
