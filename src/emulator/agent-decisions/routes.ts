import { recordsListing } from '../control/routes.js';
import { latestEntry } from '../data/review.js';
import { baseUrlOf, reviewUrl } from '../http/links.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { validateBody } from '../http/validation.js';
import { withUnlistedField } from '../stores/state.js';
import { agentDecisionRequestSchema } from '../../schemas/agent-decisions.js';
import { namespaceNameSchema } from '../../schemas/data.js';
import type { StoredAgentDecision } from './records.js';

/**
 * POST /v1/agent_decisions (the service's docs): a reviewer's verdict on one object under one
 * policy. The emulator answers whether its own labels agreed: it looks for the object whose id is
 * reference_id in the namespace content_type (its latest processed entry, from data add or an
 * import); its decision on the policy is that label's decision, or not_match when the label is not
 * among the object's labels. safetykitCorrect is true when that decision is the reviewer's (no_match
 * read as not_match), false when it is not, or when the emulator holds no such object.
 */

export const agentDecisionRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/agent_decisions', maxBodyBytes: 64 * 1024, auth: true, docsOnly: true, handle: recordVerdict },
  recordsListing('/_emulator/agent_decisions', 'agent_decisions', (ctx) => ctx.state.agentDecisions),
];

async function recordVerdict(ctx: RouteContext): Promise<RouteResult> {
  const verdict = validateBody(agentDecisionRequestSchema, ctx.json());
  const own = await ownDecision(ctx, verdict.content_type, verdict.reference_id, verdict.policy_id);
  const safetykitCorrect = own !== null && own === asLabelDecision(verdict.decision);
  const store = ctx.state.agentDecisions;
  const stored: StoredAgentDecision = { agent_decision_id: store.newId(), ...verdict, safetykitCorrect, emulator_decision: own, received_at: new Date(ctx.config.now()).toISOString() };
  await store.save(stored.agent_decision_id, stored);
  return { status: 200, body: withUnlistedField(ctx.state.quirks, { safetykitCorrect }) };
}

/** The reviewers' word for "does not match" is no_match; the labels' is not_match. */
const asLabelDecision = (decision: string) => (decision === 'no_match' ? 'not_match' : decision);

/** The emulator's decision on `policy` for the object, or null when it holds no such object (or content_type names no namespace). */
async function ownDecision(ctx: RouteContext, namespace: string, id: string, policy: string): Promise<string | null> {
  if (!namespaceNameSchema.safeParse(namespace).success) return null;
  const link = (objectId: string) => reviewUrl(ctx.state.data.secret, baseUrlOf(ctx.req), namespace, objectId);
  const entry = await latestEntry(ctx.state.data, namespace, id, baseUrlOf(ctx.req), link);
  if (entry?.output === undefined) return null;
  return entry.output.labels.find((label) => label.label === policy)?.decision ?? 'not_match';
}
