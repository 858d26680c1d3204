import type { BatchRecord } from '../batches/records.js';
import { CLASSIFIER_RULES } from '../classifier.js';
import type { DataStore } from './data-store.js';
import type { EventStore } from './event-store.js';
import type { JobStore } from './job-store.js';
import type { OlderImportRecord } from '../older-imports/records.js';
import type { StoredDecision } from '../decisions/records.js';
import type { StoredDeletion } from '../deletions/records.js';
import type { StoredAgentDecision } from '../agent-decisions/records.js';
import type { RequestLogEntry } from '../http/request-log.js';
import type { ScriptedFault } from '../http/scripted-faults.js';
import type { StreamStore } from './stream-store.js';
import type { TokenTable } from './token-table.js';
import type { Webhooks } from '../webhooks/deliveries.js';

/** What an emulator instance remembers, and how a reset makes it fresh again. */

/** Fault and oddity switches, all off by default, toggled through POST /_emulator/quirks. */
export interface Quirks {
  /** Responses carry fields and enum values the spec does not list. */
  unknown_values: boolean;
  /** How many of the next import and batch creations (namespace or older) hand out an upload URL that has already expired. */
  expired_upload_urls: number;
  /** How many of the next looks at a succeeded batch or import hand out a download URL that has already expired. */
  expired_download_urls: number;
  /** How many of the next complete uploads answer 503 SlowDown and store nothing. */
  failing_uploads: number;
  /** How many of the next /v1 requests answer 503 without being processed (an injected fault the test chooses the place of). */
  failing_requests: number;
  /** The next N /v1 requests are refused with 401, as after the key was revoked part-way through a run. */
  refused_requests: number;
  /** How many of the next /v1 requests are processed, then held unanswered until POST /_emulator/release (a slow request at the place a test chooses). */
  held_requests: number;
  /** Only the spec's endpoints: those the service's current docs add (…/requests/upload-url, …/results/download-url) answer 404, as an older service would. */
  spec_only: boolean;
}

/** The /v1 requests being served: how many now, the most at once since the start or the last reset, and the answers held back. */
interface InFlight {
  now: number;
  max: number;
  /** Each answers one held request. */
  held: (() => void)[];
}

/** Everything an instance remembers. Kept per instance, never at module level, so instances are independent. */
export interface State {
  /** Keyed by tokenDigest(token): the token itself is never stored. On disk, beside the data. */
  tokens: TokenTable;
  requests: RequestLogEntry[];
  nextRequestSeq: number;
  /** set_id → SHA-256 hex digests of the decoded image bytes in the set. */
  referenceSets: Map<string, Set<string>>;
  quirks: Quirks;
  /** Faults placed by POST /_emulator/faults, used up as they are met. */
  faultScript: ScriptedFault[];
  inFlight: InFlight;
  /** Ingested events: on disk, this instance's own. */
  events: EventStore;
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
  /** Deletion requests, as filed: on disk, beside the data. */
  deletions: JobStore<StoredDeletion>;
  /** Reviewers' verdicts (agent decisions), as given: on disk, beside the data. */
  agentDecisions: JobStore<StoredAgentDecision>;
  /** Webhook endpoints and the deliveries to them: on disk, beside the data; sent in the background. */
  webhooks: Webhooks;
}

/** What an instance keeps on disk, in its data directory. */
export type Stores = Pick<State, 'tokens' | 'data' | 'streams' | 'events' | 'decisions' | 'olderImports' | 'batches' | 'deletions' | 'agentDecisions' | 'webhooks'>;

export function createState(stores: Stores): State {
  return {
    ...stores,
    requests: [],
    nextRequestSeq: 1,
    referenceSets: new Map(
      Object.entries(CLASSIFIER_RULES.builtInReferenceSets).map(([setId, digests]) => [setId, new Set(digests)]),
    ),
    quirks: { unknown_values: false, expired_upload_urls: 0, expired_download_urls: 0, failing_uploads: 0, failing_requests: 0, refused_requests: 0, held_requests: 0, spec_only: false },
    faultScript: [],
    inFlight: { now: 0, max: 0, held: [] },
  };
}

/** Back to a fresh instance's state, keeping the same object so handlers holding it see the reset. */
export async function resetState(state: State): Promise<void> {
  const { tokens, data, streams, events, decisions, olderImports, batches, deletions, agentDecisions, webhooks } = state;
  // Requests still being served finish after the reset, counting down the same counter; the held ones are answered.
  const { inFlight } = state;
  releaseHeld(inFlight);
  inFlight.max = inFlight.now;
  Object.assign(state, createState({ tokens, data, streams, events, decisions, olderImports, batches, deletions, agentDecisions, webhooks }), { inFlight });
  await Promise.all([tokens.clear(), data.clear(), streams.clear(), events.clear(), decisions.clear(), olderImports.clear(), batches.clear(), deletions.clear(), agentDecisions.clear(), webhooks.clear()]);
}

/** Uses up one of a counted quirk's remaining occurrences; true when there was one. */
export function takeQuirk(quirks: Quirks, name: 'expired_upload_urls' | 'expired_download_urls' | 'failing_uploads' | 'failing_requests' | 'refused_requests' | 'held_requests'): boolean {
  if (quirks[name] <= 0) return false;
  quirks[name]--;
  return true;
}

/** A record as read, with a field the spec does not list while quirk unknown_values is on, to test that clients keep tolerating them. */
export const withUnlistedField = <T extends object>(quirks: Quirks, view: T) => (quirks.unknown_values ? { ...view, priority: 'normal' } : view);

/** Answers every held request; returns how many there were. */
export function releaseHeld(inFlight: InFlight): number {
  const held = inFlight.held.splice(0);
  for (const answer of held) answer();
  return held.length;
}
