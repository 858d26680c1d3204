import type { AgentDecisionRequest } from '../../schemas/agent-decisions.js';
import type { JobKind } from '../stores/job-store.js';

/** What the emulator keeps of a reviewer's verdict. */

export const AGENT_DECISIONS: JobKind = { area: 'agent-decisions', idPrefix: 'agd', extension: 'json' };

/** The verdict as given, with what the emulator answered and what it compared it with. */
export type StoredAgentDecision = AgentDecisionRequest & {
  agent_decision_id: string;
  safetykitCorrect: boolean;
  /** The emulator's own decision on that policy for that object; null when it holds no such object. */
  emulator_decision: string | null;
  received_at: string;
};
