import type { HttpClient } from '../core/http.js';
import { batchSchema, type Batch } from '../schemas/batches.js';
import { parseResponse } from './responses.js';

/** POST /v1/batches: a batch waiting for its CSV, with a pre-signed upload address valid 1 hour. */
export async function createBatch(http: HttpClient, type: string): Promise<Batch> {
  return parseResponse(batchSchema, await http.json('POST', '/v1/batches', { type }), 'POST /v1/batches');
}

/** GET /v1/batches/{batchId}: status, counts, and once it has succeeded a pre-signed download address valid 1 hour. */
export async function getBatch(http: HttpClient, batchId: string): Promise<Batch> {
  const path = `/v1/batches/${encodeURIComponent(batchId)}`;
  return parseResponse(batchSchema, await http.json('GET', path), `GET ${path}`);
}
