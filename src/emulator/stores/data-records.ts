import type { NamespaceSchema } from '../../schemas/data.js';
import type { ObjectEntry } from '../data/objects.js';

/** What the emulator keeps of a data request (add or import), and how GET …/requests/{id} shows it as time passes. */

/** A POST /v1/data/{ns} request: its objects were processed on arrival; the delay only hides the outcome. */
export interface AddRequest {
  kind: 'add';
  namespace: string;
  request_id: string;
  created_at: number;
  entries: ObjectEntry[];
}

/** A succeeded import keeps the namespace schema it was checked under: its output (data_url) is produced from it on download. */
export type ImportSuccess = { data_count: number; schema: NamespaceSchema };
export type ImportOutcome = ImportSuccess | { error: string };

export interface ImportRequest {
  kind: 'import';
  namespace: string;
  request_id: string;
  created_at: number;
  upload_expires_at: number;
  /** When the first complete upload arrived. */
  uploaded_at?: number;
  /** Set when processing of the upload has finished. */
  outcome?: ImportOutcome;
}

export type StoredRequest = AddRequest | ImportRequest;

/** The moment a record is read at, and the configured processing delay. */
export interface Timing {
  now: number;
  processingDelayMs: number;
}

/**
 * Where a request stands: queued for the first half of the processing delay, ingesting for the
 * second half and for as long as the work itself still runs, then done. (An import, queued until
 * its upload, is ingesting for all of it.)
 */
function phase(since: number, timing: Timing, workDone: boolean): 'queued' | 'ingesting' | 'done' {
  const elapsed = timing.now - since;
  if (elapsed < timing.processingDelayMs / 2) return 'queued';
  if (elapsed < timing.processingDelayMs || !workDone) return 'ingesting';
  return 'done';
}

/** The add-type record of GET …/requests/{id}: data stays [] until the request is terminal; `reviewLink` gives each object's url. */
export function addRecordView(record: AddRequest, timing: Timing, reviewLink: (id: string) => string) {
  const current = phase(record.created_at, timing, true);
  const failed = record.entries.some((entry) => entry.error !== undefined);
  const status = current !== 'done' ? current : failed ? 'failed' : 'succeeded';
  const data = current === 'done' ? record.entries.map((entry) => ({ ...entry, url: reviewLink(entry.id) })) : [];
  return { data, namespace: record.namespace, request_id: record.request_id, status };
}

/** What a read of an import record needs besides the record: whether its upload is arriving now, and its output's address. */
export interface ImportReading {
  receiving: boolean;
  /** A download address of a succeeded import's output (data_url) and when it stops working: a fresh one at each read. */
  dataAddress: () => { url: string; expiresAt: number };
}

/**
 * The import-type record, with all its fields in every state: data_count is 0, and data_url and
 * data_expires_at are null, until the output exists. Queued until an upload starts, uploading
 * while one is being received, ingesting from its arrival until processed, then done.
 */
export function importRecordView(record: ImportRequest, timing: Timing, reading: ImportReading) {
  const shape = (status: string) => ({ namespace: record.namespace, request_id: record.request_id, status, data_count: 0, data_url: null, data_expires_at: null });
  const failed = (message: string) => ({ ...shape('failed'), error: { message } });
  if (record.uploaded_at === undefined) {
    if (reading.receiving) return shape('uploading');
    if (timing.now < record.upload_expires_at) return shape('queued');
    return failed(`the upload address expired at ${new Date(record.upload_expires_at).toISOString()} without an upload`);
  }
  const { outcome } = record;
  const current = phase(record.uploaded_at, timing, outcome !== undefined);
  if (current !== 'done' || outcome === undefined) return shape('ingesting');
  if ('error' in outcome) return failed(outcome.error);
  const address = reading.dataAddress();
  return { ...shape('succeeded'), data_count: outcome.data_count, data_url: address.url, data_expires_at: new Date(address.expiresAt).toISOString() };
}
