import * as z from 'zod';
import { addDataRequestSchema, DATA_REQUEST_STATUSES, settingsRequestSchema, uploadUrlRequestSchema } from '../../schemas/data.js';
import { processObject, type ObjectEntry } from './objects.js';
import { workflowEvent } from '../webhooks/events.js';
import { control } from '../control/routes.js';
import { storedObjects } from './listing.js';
import { importRecordView, type AddRequest, type ImportRequest, type StoredRequest } from '../stores/data-records.js';
import { addView, timingOf } from './views.js';
import { newRequestId } from '../stores/ids.js';
import { EmulatorError } from '../http/errors.js';
import { notifyImported, processImport } from './imports.js';
import { baseUrlOf, reviewUrl } from '../http/links.js';
import { dataStorageRoutes, importObject, outputObject } from './storage.js';
import { reviewRoutes } from './review.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { presignedUrl } from '../stores/signing.js';
import { downloadExpiresAt, uploadExpiresAt } from '../storage/object-store.js';
import { withUnlistedField } from '../stores/state.js';
import { bodyOrEmptyObject, namespaceParam, validateBody } from '../http/validation.js';
import { REQUEST_BYTES } from '../../schemas/names.js';

/** How long each data_url handed out for a succeeded import's output stays valid. */
const DATA_URL_TTL_MS = 24 * 60 * 60 * 1000;

/** How the emulator answers the namespace data endpoints: settings, added objects, import requests and request records. */


export const dataRoutes: readonly Route[] = [
  { method: 'PUT', pattern: '/v1/data/:namespace/settings', maxBodyBytes: REQUEST_BYTES, auth: true, handle: putSettings },
  { method: 'POST', pattern: '/v1/data/:namespace', maxBodyBytes: REQUEST_BYTES, auth: true, handle: addData },
  { method: 'POST', pattern: '/v1/data/:namespace/import', maxBodyBytes: 64 * 1024, auth: true, handle: requestImport },
  { method: 'POST', pattern: '/v1/data/:namespace/requests/upload-url', maxBodyBytes: REQUEST_BYTES, auth: true, docsOnly: true, handle: requestUploadUrl },
  { method: 'GET', pattern: '/v1/data/:namespace/requests/:requestId', maxBodyBytes: 0, auth: true, handle: getRequest },
  { method: 'GET', pattern: '/v1/data/:namespace/requests/:requestId/results/download-url', maxBodyBytes: 0, auth: true, docsOnly: true, handle: getDownloadUrl },
  control('GET', '/_emulator/data/:namespace', listObjects),
  ...reviewRoutes,
  ...dataStorageRoutes,
];

async function putSettings(ctx: RouteContext): Promise<RouteResult> {
  const namespace = namespaceParam(ctx);
  const { schema } = validateBody(settingsRequestSchema, ctx.json());
  await ctx.state.data.putSettings(namespace, schema);
  return { status: 200, body: { namespace, status: 'updated' } };
}

/** The objects are processed at once, under the namespace schema of the moment; the record reveals the outcome over the processing delay. */
async function addData(ctx: RouteContext): Promise<RouteResult> {
  const namespace = namespaceParam(ctx);
  const { data, schema: given } = validateBody(addDataRequestSchema, ctx.json());
  if (given !== undefined) await ctx.state.data.putSettings(namespace, given);
  const schema = given ?? (await ctx.state.data.settings(namespace));
  // The review url is made when the record is read, from the address it is read at.
  const entries = (Array.isArray(data) ? data : [data]).map((object) => processObject(object, schema, ''));
  const requestId = newRequestId();
  const createdAt = ctx.config.now();
  // Upserted by id, as the service does: an object that could not be processed is not stored.
  const stored = entries.flatMap((entry) => (entry.output === undefined ? [] : [entry.id]));
  const objects = stored.length > 0 ? { ids: stored, at: createdAt } : undefined;
  await ctx.state.data.addRequest({ kind: 'add', namespace, request_id: requestId, created_at: createdAt, entries }, objects);
  notifyProcessed(ctx, namespace, requestId, entries, createdAt + ctx.config.processingDelayMs);
  return { status: 202, body: { requestId, status: 'accepted' } };
}

/** workflow.succeeded or workflow.failed for each object, to the webhook endpoints, when the request ends. */
function notifyProcessed(ctx: RouteContext, namespace: string, requestId: string, entries: readonly ObjectEntry[], endsAt: number): void {
  const link = (id: string) => reviewUrl(ctx.state.data.secret, baseUrlOf(ctx.req), namespace, id);
  for (const entry of entries) {
    const event = workflowEvent(namespace, requestId, entry, link(entry.id));
    ctx.state.webhooks.notify(event.type, event, endsAt);
  }
}

/** GET /_emulator/data/{namespace}: the objects the namespace holds, one per id, with how often each was added. */
async function listObjects(ctx: RouteContext): Promise<RouteResult> {
  return { status: 200, body: { objects: await storedObjects(ctx.state.data, namespaceParam(ctx)) } };
}

/** POST …/import, the spec's import request: no body (or `{}`). */
async function requestImport(ctx: RouteContext): Promise<RouteResult> {
  const namespace = namespaceParam(ctx);
  validateBody(z.strictObject({}), bodyOrEmptyObject(ctx.json()));
  return issueImport(ctx, namespace);
}

/** POST …/requests/upload-url, the current docs' name for it: the same answer, and a schema may come with it. */
async function requestUploadUrl(ctx: RouteContext): Promise<RouteResult> {
  const namespace = namespaceParam(ctx);
  const { schema } = validateBody(uploadUrlRequestSchema, bodyOrEmptyObject(ctx.json()));
  if (schema !== undefined) await ctx.state.data.putSettings(namespace, schema);
  return issueImport(ctx, namespace);
}

async function issueImport(ctx: RouteContext, namespace: string): Promise<RouteResult> {
  const now = ctx.config.now();
  const requestId = newRequestId();
  const expiresAt = uploadExpiresAt(ctx, ctx.config.uploadTtlMs);
  await ctx.state.data.addRequest({ kind: 'import', namespace, request_id: requestId, created_at: now, upload_expires_at: expiresAt });
  const upload = importObject(namespace, requestId);
  const uploadUrl = presignedUrl(ctx.state.data.secret, baseUrlOf(ctx.req), upload, expiresAt);
  return {
    status: 200,
    body: { expires_at: new Date(expiresAt).toISOString(), objectKey: upload.key, requestId, status: 'pending_upload', upload_url: uploadUrl },
  };
}

/**
 * The most a request record answers inline, serialised (the service's docs): an add request whose
 * output is larger is a 413 that sends the client to …/results/download-url.
 */
const INLINE_OUTPUT_BYTES = 5 * 1024 * 1024;

async function getRequest(ctx: RouteContext): Promise<RouteResult> {
  const record = await requestOf(ctx);
  const view = record.kind === 'add' ? addView(ctx, record) : importView(ctx, record);
  const body = withUnlistedField(ctx.state.quirks, view);
  const bytes = record.kind === 'add' ? Buffer.byteLength(JSON.stringify(body)) : 0;
  // A service with only the spec's endpoints answers every record inline: it has nowhere else to send the client.
  if (bytes > INLINE_OUTPUT_BYTES && !ctx.state.quirks.spec_only) {
    throw new EmulatorError(413, `the output of ${record.request_id} is ${bytes} bytes, over the 5 MiB a record answers inline; fetch it from GET /v1/data/${encodeURIComponent(record.namespace)}/requests/${record.request_id}/results/download-url`);
  }
  return { status: 200, body };
}

/**
 * GET …/requests/{id}/results/download-url: the URL shape for a request of either kind. Its output
 * (an add request's entries, an import's objects) is a signed JSONL object, signed afresh at each
 * look-up; data_count, data_url and data_expires_at are null until the request has an output: an
 * import that succeeded, an add request that ended (its failed objects carry their error).
 */
async function getDownloadUrl(ctx: RouteContext): Promise<RouteResult> {
  const record = await requestOf(ctx);
  const body = record.kind === 'add' ? addOutput(ctx, record) : importOutputOf(ctx, record);
  return { status: 200, body: withUnlistedField(ctx.state.quirks, body) };
}

/** An add request's output: its entries, once it has ended. */
function addOutput(ctx: RouteContext, record: AddRequest) {
  const view = addView(ctx, record);
  const address = (DATA_REQUEST_STATUSES.final as readonly string[]).includes(view.status) ? outputAddress(ctx, record.request_id) : undefined;
  return downloadUrlBody(record, view.status, address && { count: view.data.length, url: address.url, expiresAt: new Date(address.expiresAt).toISOString() });
}

/** An import's output: what its record says (one address, signed once), once it has succeeded. */
function importOutputOf(ctx: RouteContext, record: ImportRequest) {
  const view = importView(ctx, record);
  const succeeded = view.status === 'succeeded' && 'data_url' in view && typeof view.data_url === 'string';
  return downloadUrlBody(record, view.status, succeeded ? { count: view.data_count, url: view.data_url as string, expiresAt: view.data_expires_at as string } : undefined);
}

const downloadUrlBody = (record: StoredRequest, status: string, output: { count: number; url: string; expiresAt: string } | undefined) => ({
  data_count: output?.count ?? null,
  data_expires_at: output?.expiresAt ?? null,
  data_url: output?.url ?? null,
  namespace: record.namespace,
  request_id: record.request_id,
  status,
});

async function requestOf(ctx: RouteContext): Promise<StoredRequest> {
  const { namespace, requestId = '' } = ctx.params;
  const record = await ctx.state.data.request(requestId);
  if (record === undefined || record.namespace !== namespace) throw new EmulatorError(404, `no request ${requestId} in namespace ${namespace}`);
  return record;
}

function importView(ctx: RouteContext, record: ImportRequest) {
  if (record.uploaded_at !== undefined && record.outcome === undefined) processImport(ctx.state.data, record, ctx.config.now, notifyImported(ctx.state.webhooks, ctx.state.data, baseUrlOf(ctx.req), ctx.config.processingDelayMs));
  return importRecordView(record, timingOf(ctx), {
    receiving: ctx.state.data.isReceiving(record.request_id),
    dataAddress: () => outputAddress(ctx, record.request_id),
  });
}

/** A fresh signed address of a request's output (an import's data_url, any request's results download). */
function outputAddress(ctx: RouteContext, requestId: string): { url: string; expiresAt: number } {
  const expiresAt = downloadExpiresAt(ctx, DATA_URL_TTL_MS);
  return { url: presignedUrl(ctx.state.data.secret, baseUrlOf(ctx.req), outputObject(requestId), expiresAt), expiresAt };
}
