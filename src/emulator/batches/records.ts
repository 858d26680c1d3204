import { BATCH_CONTENT_TYPE } from '../../schemas/batches.js';
import { uploadKey, type JobKind } from '../stores/job-store.js';
import type { SignedOperation } from '../stores/signing.js';

/** What the emulator keeps of a batch, which objects it has in the object store, and how GET shows it. */

export const BATCHES: JobKind = { area: 'batches', idPrefix: 'bat', extension: 'csv' };

type BatchStatus = 'WAITING_FOR_UPLOAD' | 'PENDING' | 'SUCCESS' | 'CANCELLED' | 'ERROR';

export interface BatchCounts {
  batch: number;
  success: number;
  error: number;
  cancelled: number;
}

/** A batch as the emulator keeps it; times in epoch milliseconds. */
export interface BatchRecord {
  batch_id: string;
  type: string;
  created_at: number;
  upload_expires_at: number;
  status: BatchStatus;
  counts: BatchCounts;
  /** Why the service could not read the CSV (status ERROR). */
  error?: string;
}

export const NO_COUNTS: BatchCounts = { batch: 0, success: 0, error: 0, cancelled: 0 };

/** The upload of a batch's CSV. */
export const uploadObject = (batchId: string): SignedOperation => ({ method: 'PUT', key: uploadKey(BATCHES, batchId), contentType: BATCH_CONTENT_TYPE });

/** The result CSV of a succeeded batch (its download_url). */
export const resultObject = (batchId: string): SignedOperation => ({ method: 'GET', key: `batch-results/${batchId}.csv`, contentType: '' });

/**
 * The Batch resource as GET answers it: upload_url null (the batch has been looked up), the
 * download address only for SUCCESS, the counts as they stand. ERROR carries an `error` the spec
 * does not list, saying why the CSV could not be read.
 */
export function batchView(record: BatchRecord, downloadUrl: string | null) {
  const { batch, success, error, cancelled } = record.counts;
  return {
    batch_id: record.batch_id,
    type: record.type,
    batch_status: record.status,
    upload_url: null,
    download_url: downloadUrl,
    batch_count: batch,
    success_count: success,
    pending_count: batch - success - error - cancelled,
    error_count: error,
    cancelled_count: cancelled,
    ...(record.error !== undefined && { error: { message: record.error } }),
  };
}
