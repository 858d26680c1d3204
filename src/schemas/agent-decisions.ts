import * as z from 'zod';
import { describedText } from './issues.js';

/**
 * POST /v1/agent_decisions (the service's docs; not in the spec): your own reviewers' verdict on
 * one object under one policy, fed back to the service. Requests strict, responses tolerant.
 */

const optionalText = (what: string) => describedText(what).optional();

export const agentDecisionRequestSchema = z.strictObject({
  content_type: describedText('the kind of object reviewed, e.g. listings: the namespace it is in'),
  decision: describedText('the reviewer\'s verdict, e.g. match or no_match'),
  policy_id: describedText('the policy the verdict is about, e.g. violence'),
  reference_id: describedText('the id of the object reviewed'),
  action: optionalText('what the reviewer did, e.g. removed'),
  agent_type: optionalText('who reviewed, e.g. appeal, bpo_review, policy_expert'),
  comment: optionalText('a note from the reviewer'),
});
export type AgentDecisionRequest = z.infer<typeof agentDecisionRequestSchema>;

/** `{"safetykitCorrect": true}`: whether the service's own verdict agreed with the reviewer's. */
export const agentDecisionResponseSchema = z.looseObject({ safetykitCorrect: z.boolean() });
export type AgentDecisionResponse = z.infer<typeof agentDecisionResponseSchema>;
