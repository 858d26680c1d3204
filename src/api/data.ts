import type { HttpClient, RequestSpec } from '../core/http/client.js';
import { pathSegment } from '../core/http/path-segment.js';
import {
  acceptedResponseSchema,
  downloadUrlRecordSchema,
  importResponseSchema,
  requestRecordSchema,
  settingsResponseSchema,
  type AcceptedResponse,
  type DownloadUrlRecord,
  type ImportResponse,
  type NamespaceSchema,
  type RequestRecord,
} from '../schemas/data.js';
import { checkedAnswerOf } from './responses.js';

/** How csafe calls the data endpoints of a namespace: its settings, added objects, imports and request records. */

const namespacePath = (namespace: string) => `/v1/data/${pathSegment(namespace, 'NAMESPACE')}`;

/** PUT /v1/data/{namespace}/settings: create or replace the namespace schema (safe to replay: a replace). */
export async function putSettings(http: HttpClient, namespace: string, schema: NamespaceSchema) {
  const path = `${namespacePath(namespace)}/settings`;
  return checkedAnswerOf(http, { method: 'PUT', path, json: { schema } }, settingsResponseSchema);
}

/** PUT …/settings before an import of the namespace: its answer checked, though only its success matters to the import (a dry run records it and goes on). */
export async function putSettingsBeforeImport(http: HttpClient, namespace: string, schema: NamespaceSchema): Promise<void> {
  const path = `${namespacePath(namespace)}/settings`;
  // A dry run's planned answer is not read: nothing came back.
  await checkedAnswerOf(http, { method: 'PUT', path, json: { schema }, answerUnused: true }, settingsResponseSchema);
}

/**
 * POST /v1/data/{namespace} with a body already serialised as `{"data":[…]}`. Safe to replay: the
 * service upserts objects by id, so a batch that may have been processed (a reset or a timeout
 * after it arrived) is retried like any other request, and sending it twice stores it once.
 */
export async function addData(http: HttpClient, namespace: string, body: Buffer): Promise<AcceptedResponse> {
  const path = namespacePath(namespace);
  const spec: RequestSpec = {
    method: 'POST',
    path,
    body: { open: () => body, length: body.length, contentType: 'application/json' },
    // After Ctrl-C the answer still comes: without it the run could not say whether the batch was accepted.
    finishOnInterrupt: true,
  };
  return checkedAnswerOf(http, spec, acceptedResponseSchema);
}

/**
 * The serialised body of one add request, built from objects as read (their own bytes, not
 * re-encoded), with the namespace schema (serialised) after them when one goes along.
 */
export const encodeAddBody = (objects: readonly string[], schemaJson?: string) =>
  Buffer.from(`{"data":[${objects.join(',')}]${schemaJson === undefined ? '' : `,"schema":${schemaJson}`}}`);

/**
 * POST /v1/data/{namespace}/requests/upload-url, the current docs' name for the import request
 * (not in the spec): the same answer, and it takes the namespace schema to apply. Safe to replay,
 * as POST …/import is.
 */
export async function requestUploadUrl(http: HttpClient, namespace: string, schema: NamespaceSchema): Promise<ImportResponse> {
  const path = `${namespacePath(namespace)}/requests/upload-url`;
  return checkedAnswerOf(http, { method: 'POST', path, json: { schema } }, importResponseSchema);
}

/**
 * POST /v1/data/{namespace}/import: a pre-signed upload address for a JSONL file. Safe to replay,
 * unlike POST /v1/import: an import request whose address goes unused holds no data and lapses in 12 hours.
 */
export async function requestImport(http: HttpClient, namespace: string): Promise<ImportResponse> {
  const path = `${namespacePath(namespace)}/import`;
  return checkedAnswerOf(http, { method: 'POST', path }, importResponseSchema);
}

/**
 * GET /v1/data/{namespace}/requests/{requestId}/results/download-url (the service's docs; not in
 * the spec): the signed address of a request's output, for either kind of request.
 */
export async function getDownloadUrl(http: HttpClient, namespace: string, requestId: string): Promise<DownloadUrlRecord> {
  const path = `${namespacePath(namespace)}/requests/${pathSegment(requestId, '<request-id>')}/results/download-url`;
  return checkedAnswerOf(http, { method: 'GET', path }, downloadUrlRecordSchema);
}

/** GET /v1/data/{namespace}/requests/{requestId}: an add-type or an import-type record. */
export async function getRequest(http: HttpClient, namespace: string, requestId: string): Promise<RequestRecord> {
  const path = `${namespacePath(namespace)}/requests/${pathSegment(requestId, '<request-id>')}`;
  return checkedAnswerOf(http, { method: 'GET', path }, requestRecordSchema);
}

