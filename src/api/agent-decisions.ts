import type { HttpClient } from '../core/http/client.js';
import { agentDecisionResponseSchema, type AgentDecisionRequest, type AgentDecisionResponse } from '../schemas/agent-decisions.js';
import { createOnce } from './create.js';
import { parseResponse } from './responses.js';

/** How csafe sends your reviewers' verdicts (the service's docs; not in the spec). */

const AGENT_DECISIONS_PATH = '/v1/agent_decisions';

/**
 * POST /v1/agent_decisions: one verdict on one object under one policy. It carries no key a
 * repeat could be known by, so it is sent once, never replayed after the service may have
 * recorded it: a verdict counted twice would weigh twice.
 */
export async function sendAgentDecision(http: HttpClient, verdict: AgentDecisionRequest): Promise<AgentDecisionResponse> {
  return createOnce(http, { method: 'POST', path: AGENT_DECISIONS_PATH, json: verdict }, { what: 'agent decision' }, (body) =>
    parseResponse(agentDecisionResponseSchema, body, `POST ${AGENT_DECISIONS_PATH}`),
  );
}
