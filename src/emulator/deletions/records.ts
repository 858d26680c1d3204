import type { JobKind } from '../stores/job-store.js';
import type { DeletionRequest } from '../../schemas/deletions.js';

/** What the emulator keeps of a deletion request. */

export const DELETIONS: JobKind = { area: 'deletion-requests', idPrefix: 'del', extension: 'json' };

/** What the emulator keeps of a deletion request: the request as filed, its id and when. */
export type StoredDeletion = DeletionRequest & {
  deletion_request_id: string;
  received_at: string;
};

