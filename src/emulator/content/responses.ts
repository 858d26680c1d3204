import { CURRENT_VERSION, type ContentRequest, type LegacyContentRequest } from '../../schemas/content.js';
import type { Classification } from '../classifier.js';
import type { Quirks } from '../stores/state.js';

/** What POST /v1/content answers from the classifier's findings, in each service version. */

/** The version string of every policy in the old response: the emulator has one fixed rule set. */
const POLICY_VERSION = 'emulator-1';

/** What quirk unknown_values adds: fields and enum values the spec does not list. */
const UNKNOWN_VALUES = {
  topLevel: { x_emulator: { note: 'quirk unknown_values is on: this response has fields and values the spec does not list' } },
  category: 'emulator_category',
  label: { type: 'classifier', label: 'emulator_unknown', decision: 'needs_context', escalation: 'pending', score: 0.42 },
  policy: { policy_id: 'emulator_unknown', version: POLICY_VERSION, score: 0.42, decision: 'needs_context', escalation: 'pending' },
} as const;

interface ResponseInput<Request> {
  request: Request;
  contentId: string;
  classification: Classification;
  quirks: Quirks;
}

export function currentResponse({ request, contentId, classification, quirks }: ResponseInput<ContentRequest>) {
  const labels: Record<string, unknown>[] = [
    ...classification.labels.map(({ label, decision, escalation, score }) => ({
      type: 'classifier',
      label,
      decision,
      escalation,
      score,
    })),
    ...classification.referenceSetMatches.map(({ setId, similarity }) => ({
      type: 'similarity',
      label: 'reference_set_match',
      decision: 'match',
      escalation: 'none',
      score: similarity,
      set_id: setId,
    })),
  ];
  const response = { content_id: contentId, labels, user_id: request.user_id, version: CURRENT_VERSION };
  if (!quirks.unknown_values) return response;
  return {
    ...response,
    labels: [...labels, UNKNOWN_VALUES.label].map((label) => ({ ...label, category: UNKNOWN_VALUES.category })),
    ...UNKNOWN_VALUES.topLevel,
  };
}

export function legacyResponse({ request, contentId, classification, quirks }: ResponseInput<LegacyContentRequest>) {
  const policies: Record<string, unknown>[] = classification.labels.map(({ label, score, decision, escalation }) => ({
    policy_id: label,
    version: POLICY_VERSION,
    score,
    decision,
    escalation,
  }));
  const response = {
    content_id: contentId,
    user_id: request.user_id,
    policies,
    reference_set_matches: classification.referenceSetMatches.map(({ setId, similarity }) => ({ set_id: setId, similarity })),
    ...(request.metadata === undefined ? {} : { metadata: request.metadata }),
  };
  if (!quirks.unknown_values) return response;
  return {
    ...response,
    policies: [...policies, UNKNOWN_VALUES.policy].map((policy) => ({ ...policy, category: UNKNOWN_VALUES.category })),
    ...UNKNOWN_VALUES.topLevel,
  };
}
