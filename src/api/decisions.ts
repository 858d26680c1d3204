import type { HttpClient } from '../core/http/client.js';
import { pathSegment } from '../core/http/path-segment.js';
import { decisionCreatedSchema, decisionSchema, type CreateDecisionRequest, type Decision, type DecisionCreated } from '../schemas/decisions.js';
import { createOnce } from './create.js';
import { checkedAnswerOf, parseResponse } from './responses.js';

/** How csafe calls the decision endpoints, each answer checked against its schema. */

const DECISIONS_PATH = '/v1/decisions';

/** POST /v1/decisions: a decision on one piece of content, processed asynchronously. */
export async function createDecision(http: HttpClient, request: CreateDecisionRequest): Promise<DecisionCreated> {
  return createOnce(http, { method: 'POST', path: DECISIONS_PATH, json: request }, { what: 'decision' }, (body) =>
    parseResponse(decisionCreatedSchema, body, `POST ${DECISIONS_PATH}`),
  );
}

/** GET /v1/decisions/{decision_id}: its status, and once settled its result and labels. */
export async function getDecision(http: HttpClient, decisionId: string): Promise<Decision> {
  const path = `${DECISIONS_PATH}/${pathSegment(decisionId, '<decision-id>')}`;
  return checkedAnswerOf(http, { method: 'GET', path }, decisionSchema);
}
