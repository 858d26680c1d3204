import type { ClassifyResponse, LegacyContentResponse } from '../../api/content.js';
import { LISTED_RESULT_FIELDS } from '../../schemas/content.js';

/** One row per label (current version) or policy and reference-set match (previous version). */
export interface LabelRow {
  name: string;
  kind: string;
  decision: string;
  escalation?: string;
  score?: number | null;
  setId?: string;
  /** The fields of the label (policy, match) the spec does not list, as they came. */
  other?: Record<string, unknown>;
}

/** The fields of a label, a policy or a match the spec does not list: shown as `other`. */
const unlistedFields = (item: object, listed: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(item).filter(([key]) => !listed.includes(key)));

/** Rows for whichever version answered; unknown fields and enum values pass through untouched. */
export function labelRows(response: ClassifyResponse): LabelRow[] {
  if (!isLegacy(response)) {
    return response.labels.map((l) => ({
      name: l.label,
      kind: l.type,
      decision: l.decision,
      escalation: l.escalation,
      score: l.score,
      setId: l.set_id,
      other: unlistedFields(l, LISTED_RESULT_FIELDS.label),
    }));
  }
  return [
    ...response.policies.map((p) => ({ name: p.policy_id, kind: 'policy', decision: p.decision, escalation: p.escalation, score: p.score, other: unlistedFields(p, LISTED_RESULT_FIELDS.policy) })),
    ...(response.reference_set_matches ?? []).map((m) => ({ name: 'reference_set_match', kind: 'similarity', decision: 'match', score: m.similarity, setId: m.set_id, other: unlistedFields(m, LISTED_RESULT_FIELDS.match) })),
  ];
}

const isLegacy = (response: ClassifyResponse): response is LegacyContentResponse => !Array.isArray(response.labels);

export type FailOn = 'match' | 'review';

/** `--fail-on review` holds for review and match; `--fail-on match` only for match. */
export function failOnHolds(rows: readonly LabelRow[], failOn: FailOn | undefined): boolean {
  if (failOn === undefined) return false;
  const decisions = failOn === 'match' ? ['match'] : ['match', 'review'];
  return rows.some((row) => decisions.includes(row.decision));
}
