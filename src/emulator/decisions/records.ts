import type { JobKind } from '../stores/job-store.js';

/** What the emulator keeps of a decision. */

/** Decisions keep only their record: no upload, no result file. */
export const DECISIONS: JobKind = { area: 'decisions', idPrefix: 'dec', extension: 'json' };

/** What the classifier concluded, decided at creation and revealed once the processing delay has passed. */
export type DecisionOutcome = { result: string; labels: { name: string; applied: boolean; explanation: string }[] } | { error: string };

/** A decision as the emulator keeps it: the content itself is not kept, only what was concluded. */
export interface StoredDecision {
  decision_id: string;
  type: string;
  metadata: Record<string, unknown>;
  created_at: number;
  outcome: DecisionOutcome;
}
