import type { ServiceVersion } from '../schemas/content.js';
import { CLASSIFIER_RULES } from './classifier.js';
import type { FaultSettings } from './faults.js';
import type { RequestLogEntry } from './request-log.js';

/** Fixed for the life of an emulator instance. */
export interface EmulatorConfig {
  apiKey: string;
  latencyMs: number;
  /** The version of POST /v1/content served when a request sends no Service-Version header. */
  accountVersion: ServiceVersion;
  now: () => number;
  startedAt: number;
  faults?: FaultSettings;
}

export interface IssuedToken {
  expiresAt: number;
}

/** Fault and oddity switches, all off by default, toggled through POST /_emulator/quirks. */
export interface Quirks {
  /** Responses carry fields and enum values the spec does not list. */
  unknown_values: boolean;
}

/** One queued event message, in arrival order; a later request with its idempotency_key only bumps duplicates. */
export interface IngestedEvent {
  seq: number;
  event_id: string;
  idempotency_key: string | null;
  received_at: string;
  duplicates: number;
  event: unknown;
}

/** Everything an instance remembers. Kept per instance, never at module level, so instances are independent. */
export interface State {
  /** Keyed by tokenDigest(token): the token itself is never stored. */
  tokens: Map<string, IssuedToken>;
  requests: RequestLogEntry[];
  nextRequestSeq: number;
  /** set_id → SHA-256 hex digests of the decoded image bytes in the set. */
  referenceSets: Map<string, Set<string>>;
  quirks: Quirks;
  events: IngestedEvent[];
  eventsByKey: Map<string, IngestedEvent>;
}

export function createState(): State {
  return {
    tokens: new Map(),
    requests: [],
    nextRequestSeq: 1,
    referenceSets: new Map(
      Object.entries(CLASSIFIER_RULES.builtInReferenceSets).map(([setId, digests]) => [setId, new Set(digests)]),
    ),
    quirks: { unknown_values: false },
    events: [],
    eventsByKey: new Map(),
  };
}

/** Back to a fresh instance's state, keeping the same object so handlers holding it see the reset. */
export function resetState(state: State): void {
  Object.assign(state, createState());
}
