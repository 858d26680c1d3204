import type { HttpClient } from '../core/http/client.js';
import { deletionResponseSchema, type DeletionRequest, type DeletionResponse, type KeyedDeletionRequest } from '../schemas/deletions.js';
import { awaitedCreation, createOnce } from './create.js';
import { parseResponse, readAnswerOf } from './responses.js';

/** How csafe files deletion requests (the service's docs; not in the spec). */

const DELETIONS_PATH = '/v1/deletion_requests';

const readAnswer = (body: unknown) => parseResponse(deletionResponseSchema, body, `POST ${DELETIONS_PATH}`);

/**
 * POST /v1/deletion_requests. With an external_request_id a repeat answers the request first
 * filed, so it is retried like any safe request; without one it is created once, never replayed
 * after the service may have filed it.
 */
export async function fileDeletionRequest(http: HttpClient, request: DeletionRequest): Promise<DeletionResponse> {
  const creation = { what: 'deletion request', note: 'give --external-request-id to make a repeat answer the first' };
  if (request.external_request_id !== undefined) {
    const spec = { method: 'POST', path: DELETIONS_PATH, json: request, finishOnInterrupt: true } as const;
    return readAnswerOf(http, { ...spec, awaitedAnswer: awaitedCreation(spec, creation) }, readAnswer);
  }
  return createOnce(http, { method: 'POST', path: DELETIONS_PATH, json: request }, creation, readAnswer);
}

/**
 * The same request in a bulk run, every one with its external_request_id, so retried like any safe
 * request. It says nothing of its own on Ctrl-C: the run says how many answers it awaits.
 */
export async function postDeletionRequest(http: HttpClient, request: KeyedDeletionRequest): Promise<DeletionResponse> {
  return readAnswerOf(http, { method: 'POST', path: DELETIONS_PATH, json: request, finishOnInterrupt: true }, readAnswer);
}
