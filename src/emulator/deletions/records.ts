import type { JobKind } from '../stores/job-store.js';

/** What the emulator keeps of a deletion request. */

export const DELETIONS: JobKind = { area: 'deletion-requests', idPrefix: 'del', extension: 'json' };

/** What the emulator keeps of a deletion request: the request as filed, its id and when. */
export interface StoredDeletion {
  deletion_request_id: string;
  subject_user_id: string;
  external_request_id?: string;
  requested_at?: string;
  received_at: string;
}

