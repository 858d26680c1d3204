import type { HttpClient } from '../core/http/client.js';
import { agentDecisionResponseSchema, type AgentDecisionRequest, type AgentDecisionResponse } from '../schemas/agent-decisions.js';
import { createOnce } from './create.js';
import { parseResponse, readAnswerOf } from './responses.js';

/** How csafe sends your reviewers' verdicts (the service's docs; not in the spec). */

const AGENT_DECISIONS_PATH = '/v1/agent_decisions';

const readAnswer = (body: unknown) => parseResponse(agentDecisionResponseSchema, body, `POST ${AGENT_DECISIONS_PATH}`);

/**
 * POST /v1/agent_decisions: one verdict on one object under one policy. It carries no key a
 * repeat could be known by, so it is sent once, never replayed after the service may have
 * recorded it: a verdict counted twice would weigh twice.
 */
export async function sendAgentDecision(http: HttpClient, verdict: AgentDecisionRequest): Promise<AgentDecisionResponse> {
  return createOnce(http, { method: 'POST', path: AGENT_DECISIONS_PATH, json: verdict }, { what: 'agent decision' }, readAnswer);
}

/**
 * The same request in a bulk run, which settles a lost answer itself (core/bulk/engine.ts: the
 * unconfirmed file): sent once, retried only when the service cannot have recorded it.
 */
export async function postAgentDecision(http: HttpClient, verdict: AgentDecisionRequest): Promise<AgentDecisionResponse> {
  return readAnswerOf(http, { method: 'POST', path: AGENT_DECISIONS_PATH, json: verdict, replaySafe: false, finishOnInterrupt: true }, readAnswer);
}
