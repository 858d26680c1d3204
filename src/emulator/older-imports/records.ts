import { OLDER_IMPORT_CONTENT_TYPE } from '../../schemas/older-imports.js';
import { uploadKey, type JobKind } from '../stores/job-store.js';
import type { SignedOperation } from '../stores/signing.js';

/** What the emulator keeps of an older import, which object it has in the object store, and how GET shows it. */

export const OLDER_IMPORTS: JobKind = { area: 'older-imports', idPrefix: 'imp', extension: 'jsonl' };

/** An older import as the emulator keeps it; times in epoch milliseconds. */
export interface OlderImportRecord {
  import_id: string;
  created_at: number;
  upload_expires_at: number;
  /** When the first complete upload arrived. */
  uploaded_at?: number;
  /** Set when processing of the upload has finished: its line count, or why it failed. */
  outcome?: { count: number } | { error: string };
}

/** The upload of an import's file; its key is also the import's s3_key. */
export const uploadObject = (importId: string): SignedOperation => ({
  method: 'PUT',
  key: uploadKey(OLDER_IMPORTS, importId),
  contentType: OLDER_IMPORT_CONTENT_TYPE,
});

/**
 * The Import resource: WAITING_FOR_UPLOAD until a file lands, IN_PROGRESS for the processing delay
 * after that and for as long as the check still runs, then COMPLETE or FAILED. s3_key and filename
 * once uploaded (the emulator knows no name but the object's own). FAILED carries an `error` the
 * spec does not list, saying which line was wrong.
 */
export function importView(record: OlderImportRecord, now: number, processingDelayMs: number) {
  const created_at = new Date(record.created_at).toISOString();
  const shape = (status: string) => ({ import_id: record.import_id, import_status: status, ...uploadedFile(record), created_at });
  if (record.uploaded_at === undefined) return shape('WAITING_FOR_UPLOAD');
  const { outcome } = record;
  if (outcome === undefined || now < record.uploaded_at + processingDelayMs) return shape('IN_PROGRESS');
  if ('error' in outcome) return { ...shape('FAILED'), error: { message: outcome.error } };
  return shape('COMPLETE');
}

function uploadedFile(record: OlderImportRecord) {
  if (record.uploaded_at === undefined) return {};
  const { key } = uploadObject(record.import_id);
  return { s3_key: key, filename: key.slice(key.lastIndexOf('/') + 1) };
}
