import { BATCH_URL_TTL_SECONDS, createBatchRequestSchema } from '../../schemas/batches.js';
import { control } from '../control/routes.js';
import { EmulatorError } from '../http/errors.js';
import { baseUrlOf } from '../http/links.js';
import { legacyEvent } from '../webhooks/events.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { validateBody } from '../http/validation.js';
import { downloadExpiresAt, downloadRoute, fileBody, jobUploadRoute, uploadExpiresAt } from '../storage/object-store.js';
import { presignedUrl } from '../stores/signing.js';
import { withUnlistedField } from '../stores/state.js';
import { processBatch, uploadRowCount } from './processing.js';
import { BATCHES, batchView, NO_COUNTS, resultObject, uploadObject, type BatchRecord } from './records.js';
import { changeBatch } from './transitions.js';

/**
 * How the emulator answers for batches: POST /v1/batches, GET /v1/batches/{id}, the CSV's upload
 * and the result's download in the object store, and POST /_emulator/batches/{id}/cancel, as the
 * spec shows no cancel call.
 */

const URL_TTL_MS = BATCH_URL_TTL_SECONDS * 1000;

export const batchRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/batches', maxBodyBytes: 64 * 1024, auth: true, handle: createBatch },
  { method: 'GET', pattern: '/v1/batches/:batchId', maxBodyBytes: 0, auth: true, handle: getBatch },
  control('POST', '/_emulator/batches/:batchId/cancel', cancelBatch),
  // A later upload replaces the file, as in S3; only the first complete one starts processing.
  jobUploadRoute(BATCHES, uploadObject, (state) => state.batches, async (ctx, { batch_id: batchId }) => {
    const store = ctx.state.batches;
    const pending = await changeBatch(store, batchId, (record) => (record.status === 'WAITING_FOR_UPLOAD' ? { ...record, status: 'PENDING' } : undefined));
    if (pending !== undefined) processBatch(store, pending, ctx.config.processingDelayMs, notifyEnd(ctx));
  }),
  downloadRoute({
    pattern: '/_storage/batch-results/:file',
    operation: (params) => resultObject(batchIdOf(params)),
    content: async (ctx) => {
      const id = batchIdOf(ctx.params);
      const record = await ctx.state.batches.get(id);
      return record?.status === 'SUCCESS' ? fileBody(ctx.state.batches.resultPath(id), 'text/csv') : undefined;
    },
  }),
];

const batchIdOf = (params: Readonly<Record<string, string>>) => (params.file ?? '').replace(/\.csv$/, '');

async function createBatch(ctx: RouteContext): Promise<RouteResult> {
  const { type } = validateBody(createBatchRequestSchema, ctx.json());
  const store = ctx.state.batches;
  const batchId = store.newId();
  const expiresAt = uploadExpiresAt(ctx, URL_TTL_MS);
  const record: BatchRecord = { batch_id: batchId, type, created_at: ctx.config.now(), upload_expires_at: expiresAt, status: 'WAITING_FOR_UPLOAD', counts: NO_COUNTS };
  await store.save(batchId, record);
  const uploadUrl = presignedUrl(ctx.state.data.secret, baseUrlOf(ctx.req), uploadObject(batchId), expiresAt);
  return { status: 200, body: { batch_id: batchId, type, batch_status: 'WAITING_FOR_UPLOAD', upload_url: uploadUrl, download_url: null } };
}

async function getBatch(ctx: RouteContext): Promise<RouteResult> {
  const record = await batchOf(ctx);
  // The emulator that received the upload stopped before it had processed it: it starts over.
  if (record.status === 'PENDING') processBatch(ctx.state.batches, record, ctx.config.processingDelayMs, notifyEnd(ctx));
  const view = batchView(record, record.status === 'SUCCESS' ? downloadUrl(ctx, record.batch_id) : null);
  return { status: 200, body: withUnlistedField(ctx.state.quirks, view) };
}

/** batch.completed, to the webhook endpoints, when a batch ends: SUCCESS, ERROR or CANCELLED. */
const notifyEnd = (ctx: RouteContext) => (record: BatchRecord) =>
  ctx.state.webhooks.notify('batch.completed', legacyEvent('batch.completed', batchView(record, record.status === 'SUCCESS' ? downloadUrl(ctx, record.batch_id) : null)));

/** A fresh address each time the batch is looked up, valid for an hour (or already expired while the quirk lasts). */
function downloadUrl(ctx: RouteContext, batchId: string): string {
  return presignedUrl(ctx.state.data.secret, baseUrlOf(ctx.req), resultObject(batchId), downloadExpiresAt(ctx, URL_TTL_MS));
}

/**
 * Stops a batch waiting for its upload or being processed; the rows not yet done count as
 * cancelled. A cancel before processing has counted the rows counts them itself, so batch_count is
 * the CSV's rows whenever it comes.
 */
async function cancelBatch(ctx: RouteContext): Promise<RouteResult> {
  const store = ctx.state.batches;
  const { batch_id: batchId } = await batchOf(ctx);
  // Stopped before counting, so the upload is not read twice at once.
  await store.stopProcessing(batchId);
  const cancelled = await changeBatch(store, batchId, async (record) => {
    if (record.status !== 'WAITING_FOR_UPLOAD' && record.status !== 'PENDING') {
      throw new EmulatorError(409, `batch ${batchId} is already ${record.status}; only a batch WAITING_FOR_UPLOAD or PENDING can be cancelled`);
    }
    // Before its count, a PENDING batch's is 0; a CSV of a header alone counts 0 again.
    const batch = record.status === 'PENDING' && record.counts.batch === 0 ? await uploadRowCount(store, batchId) : record.counts.batch;
    const { success, error } = record.counts;
    return { ...record, status: 'CANCELLED', counts: { ...record.counts, batch, cancelled: batch - success - error } };
  });
  // Processing an upload started after the first stop (it landed meanwhile) would stop at its next save; stopped now.
  await store.stopProcessing(batchId);
  if (cancelled === undefined) throw noBatch(batchId);
  notifyEnd(ctx)(cancelled);
  return { status: 200, body: batchView(cancelled, null) };
}

async function batchOf(ctx: RouteContext): Promise<BatchRecord> {
  const record = await ctx.state.batches.get(ctx.params.batchId ?? '');
  if (record === undefined) throw noBatch(ctx.params.batchId ?? '');
  return record;
}

/** A batch this emulator never issued, or has forgotten since (a reset). */
const noBatch = (batchId: string) => new EmulatorError(404, `no batch ${batchId}`);
