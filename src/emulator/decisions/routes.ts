import { classify, strongestDecision } from '../classifier.js';
import { EmulatorError } from '../http/errors.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { validateBody } from '../http/validation.js';
import { withUnlistedField } from '../stores/state.js';
import { createDecisionRequestSchema } from '../../schemas/decisions.js';
import type { DecisionOutcome, StoredDecision } from './records.js';
import { legacyEvent } from '../webhooks/events.js';
import { REQUEST_BYTES } from '../../schemas/names.js';

/** How the emulator answers the decision endpoints: content classified at creation, the outcome shown once the processing delay has passed. */

export const decisionRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/decisions', maxBodyBytes: REQUEST_BYTES, auth: true, handle: createDecision },
  { method: 'GET', pattern: '/v1/decisions/:decisionId', maxBodyBytes: 0, auth: true, handle: getDecision },
];

/** The content is classified at once; the record reveals the outcome when the processing delay has passed. */
async function createDecision(ctx: RouteContext): Promise<RouteResult> {
  const { type, content, metadata = {} } = validateBody(createDecisionRequestSchema, ctx.json());
  const decision: StoredDecision = { decision_id: ctx.state.decisions.newId(), type, metadata, created_at: ctx.config.now(), outcome: decide(content) };
  await ctx.state.decisions.save(decision.decision_id, decision);
  // Sent when the decision completes: once the processing delay has passed.
  ctx.state.webhooks.notify('decision.completed', legacyEvent('decision.completed', decisionView(decision, true)), decision.created_at + ctx.config.processingDelayMs);
  return { status: 200, body: { decision_id: decision.decision_id, type, metadata } };
}

async function getDecision(ctx: RouteContext): Promise<RouteResult> {
  const { decisionId = '' } = ctx.params;
  const decision = await ctx.state.decisions.get(decisionId);
  if (decision === undefined) throw new EmulatorError(404, `no decision ${decisionId}`);
  const view = decisionView(decision, ctx.config.now() - decision.created_at >= ctx.config.processingDelayMs);
  return { status: 200, body: withUnlistedField(ctx.state.quirks, view) };
}

/** The Decision resource: PENDING until processed, then SUCCESS with the result and labels, or ERROR with why. */
function decisionView({ decision_id, metadata, outcome }: StoredDecision, processed: boolean) {
  if (!processed) return { decision_id, decision_status: 'PENDING', metadata, result: null, labels: null };
  if ('error' in outcome) return { decision_id, decision_status: 'ERROR', metadata, result: null, labels: null, error: { message: outcome.error } };
  return { decision_id, decision_status: 'SUCCESS', metadata, ...outcome };
}

/**
 * Every policy label the classifier knows, scored over all the text in the content (nested
 * fields too); applied when it matched. The result is the strongest decision of any label:
 * match, review or not_match. Content with no text at all cannot be reviewed: an ERROR.
 */
function decide(content: Record<string, unknown>): DecisionOutcome {
  const texts = textsIn(content);
  if (texts.length === 0) return { error: 'the content holds no text to review' };
  const { labels } = classify({ texts, imageDigests: [] }, new Map());
  return {
    result: strongestDecision(labels.map(({ decision }) => decision)),
    labels: labels.map(({ label, score, decision }) => ({ name: label, applied: decision === 'match', explanation: `score ${score ?? 0}: ${decision}` })),
  };
}

/** Every string value that holds more than white space in a JSON value, at any depth, without recursion (a deeply nested body is safe). */
function textsIn(value: unknown): string[] {
  const texts: string[] = [];
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string' && next.trim() !== '') texts.push(next);
    else if (typeof next === 'object' && next !== null) {
      // One push at a time: a spread of a 6 MB array's values would overflow the stack.
      const children = Object.values(next);
      for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]);
    }
  }
  return texts;
}
