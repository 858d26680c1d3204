import type { BatchRecord } from '../batches/records.js';
import { CLASSIFIER_RULES } from '../classifier.js';
import type { DataStore } from './data-store.js';
import type { JobStore } from './job-store.js';
import type { OlderImportRecord } from '../older-imports/records.js';
import type { StoredDecision } from '../decisions/records.js';
import type { RequestLogEntry } from '../http/request-log.js';
import type { StreamStore } from './stream-store.js';
import { TokenTable } from './token-table.js';

/** Fault and oddity switches, all off by default, toggled through POST /_emulator/quirks. */
export interface Quirks {
  /** Responses carry fields and enum values the spec does not list. */
  unknown_values: boolean;
  /** How many of the next import and batch creations (namespace or older) hand out an upload URL that has already expired. */
  expired_upload_urls: number;
  /** How many of the next looks at a succeeded batch hand out a download URL that has already expired. */
  expired_download_urls: number;
  /** How many of the next complete uploads answer 503 SlowDown and store nothing. */
  failing_uploads: number;
  /** How many of the next /v1 requests answer 503 without being processed (an injected fault the test chooses the place of). */
  failing_requests: number;
}

/**
 * One queued event message, in arrival order; a later request with its idempotency_key only bumps
 * duplicates. The event itself is kept as the bytes of the request it came in (off the JS heap)
 * and its index there, and parsed again only when listed: a million events held as objects cost
 * more in garbage collection than everything else the emulator does with them.
 */
export interface IngestedEvent {
  seq: number;
  idempotency_key: string | null;
  received_at: string;
  duplicates: number;
  /** The request body: a batch (a JSON array) or, with index -1, the event alone. */
  body: Buffer;
  index: number;
}

/** Everything an instance remembers. Kept per instance, never at module level, so instances are independent. */
export interface State {
  /** Keyed by tokenDigest(token): the token itself is never stored. */
  tokens: TokenTable;
  requests: RequestLogEntry[];
  nextRequestSeq: number;
  /** set_id → SHA-256 hex digests of the decoded image bytes in the set. */
  referenceSets: Map<string, Set<string>>;
  quirks: Quirks;
  events: IngestedEvent[];
  eventsByKey: Map<string, IngestedEvent>;
  /** Namespaces, data requests, uploads and outputs: on disk, in the data directory. */
  data: DataStore;
  /** Livestreams and their parts: on disk, beside the data. */
  streams: StreamStore;
  /** Decisions of the older operations: on disk, beside the data. */
  decisions: JobStore<StoredDecision>;
  /** Older imports (POST /v1/import) and their uploads: on disk, beside the data. */
  olderImports: JobStore<OlderImportRecord>;
  /** Batches, their uploaded CSVs and result CSVs: on disk, beside the data. */
  batches: JobStore<BatchRecord>;
}

/** What an instance keeps on disk, in its data directory. */
export type Stores = Pick<State, 'data' | 'streams' | 'decisions' | 'olderImports' | 'batches'>;

export function createState(stores: Stores): State {
  return {
    ...stores,
    tokens: new TokenTable(),
    requests: [],
    nextRequestSeq: 1,
    referenceSets: new Map(
      Object.entries(CLASSIFIER_RULES.builtInReferenceSets).map(([setId, digests]) => [setId, new Set(digests)]),
    ),
    quirks: { unknown_values: false, expired_upload_urls: 0, expired_download_urls: 0, failing_uploads: 0, failing_requests: 0 },
    events: [],
    eventsByKey: new Map(),
  };
}

/** Back to a fresh instance's state, keeping the same object so handlers holding it see the reset. */
export async function resetState(state: State): Promise<void> {
  const { data, streams, decisions, olderImports, batches } = state;
  Object.assign(state, createState({ data, streams, decisions, olderImports, batches }));
  await Promise.all([data.clear(), streams.clear(), decisions.clear(), olderImports.clear(), batches.clear()]);
}

/** Uses up one of a counted quirk's remaining occurrences; true when there was one. */
export function takeQuirk(quirks: Quirks, name: 'expired_upload_urls' | 'expired_download_urls' | 'failing_uploads' | 'failing_requests'): boolean {
  if (quirks[name] <= 0) return false;
  quirks[name]--;
  return true;
}

/** A record as read, with a field the spec does not list while quirk unknown_values is on, to test that clients keep tolerating them. */
export const withUnlistedField = <T extends object>(quirks: Quirks, view: T) => (quirks.unknown_values ? { ...view, priority: 'normal' } : view);
