import type { HttpClient } from '../core/http.js';
import { decisionCreatedSchema, decisionSchema, type CreateDecisionRequest, type Decision, type DecisionCreated } from '../schemas/decisions.js';
import { parseResponse } from './responses.js';

const DECISIONS_PATH = '/v1/decisions';

/** POST /v1/decisions: a decision on one piece of content, processed asynchronously. */
export async function createDecision(http: HttpClient, request: CreateDecisionRequest): Promise<DecisionCreated> {
  return parseResponse(decisionCreatedSchema, await http.json('POST', DECISIONS_PATH, request), `POST ${DECISIONS_PATH}`);
}

/** GET /v1/decisions/{decision_id}: its status, and once settled its result and labels. */
export async function getDecision(http: HttpClient, decisionId: string): Promise<Decision> {
  const path = `${DECISIONS_PATH}/${encodeURIComponent(decisionId)}`;
  return parseResponse(decisionSchema, await http.json('GET', path), `GET ${path}`);
}
