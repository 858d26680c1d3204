import type { DECISIONS, ESCALATIONS } from '../schemas/content.js';

/**
 * The emulator's deterministic classifier. It stands in for the service's models so a test can
 * produce any decision on purpose; it is not a real content-safety model.
 *
 * Text labels (harassment, violence, self_harm, spam, sexual, pii):
 * - All text parts of a request are joined with newlines and classified together.
 * - Each label has rules: a case-insensitive regular expression that only matches whole words,
 *   and a weight. A rule counts once however often it matches.
 * - score = min(0.99, sum of the weights of the label's matched rules), rounded to 2 decimals.
 * - decision: score >= 0.8 → match; score >= 0.5 → review; otherwise not_match.
 *   A single strong keyword ("kill", weight 0.85) gives match; a single weak one ("stupid",
 *   weight 0.55) gives review.
 * - escalation: review → completed (the emulator acts as if the human review it escalated to
 *   has already run); match and not_match → none.
 * - A request without any text part gets every text label with score null and decision
 *   not_match: the spec's "Null when no classifier scored the label".
 *
 * Images are only compared with reference sets: an image whose decoded bytes have a SHA-256
 * digest in a set gives one similarity entry for that set (score 1, decision match, escalation
 * none). The built-in set rs_emulator_known_bad holds examples/known-bad.png; more sets are added
 * with POST /_emulator/reference_sets.
 *
 * Output order is stable: text labels in the order below, then reference sets in the order the
 * first image matching each was submitted.
 */

type Decision = (typeof DECISIONS)[number];
/** The emulator's classifier never fails, so it never reports the escalation "error". */
type Escalation = Exclude<(typeof ESCALATIONS)[number], 'error'>;

interface TextRule {
  pattern: RegExp;
  weight: number;
}

interface LabelRules {
  label: string;
  rules: readonly TextRule[];
}

export interface ClassifierRules {
  labels: readonly LabelRules[];
  maxScore: number;
  thresholds: { match: number; review: number };
  escalation: Readonly<Record<Decision, Escalation>>;
  builtInReferenceSets: Readonly<Record<string, readonly string[]>>;
}

/** SHA-256 of examples/known-bad.png, a 16x16 solid red PNG; a test checks the file still has this digest. */
const KNOWN_BAD_IMAGE_SHA256 = '204f864f62153665a75f20ece9f0fd4ece67de16f87a63690a96898ebb1eef9c';

export const CLASSIFIER_RULES: ClassifierRules = {
  labels: [
    {
      label: 'harassment',
      rules: [
        { pattern: /\bstupid\b/i, weight: 0.55 },
        { pattern: /\b(?:idiot|moron|loser)s?\b/i, weight: 0.55 },
        { pattern: /\bshut up\b/i, weight: 0.3 },
      ],
    },
    {
      label: 'violence',
      rules: [
        { pattern: /\bkill(?:s|ed|ing)?\b/i, weight: 0.85 },
        { pattern: /\b(?:shoot(?:s|ing)?|stab(?:s|bed|bing)?)\b/i, weight: 0.6 },
        { pattern: /\b(?:weapon|gun)s?\b/i, weight: 0.3 },
      ],
    },
    {
      label: 'self_harm',
      rules: [
        { pattern: /\bsuicid(?:e|al)\b/i, weight: 0.85 },
        { pattern: /\b(?:self[- ]harm|hurt myself|cut myself)\b/i, weight: 0.85 },
        { pattern: /\bhopeless\b/i, weight: 0.3 },
      ],
    },
    {
      label: 'spam',
      rules: [
        { pattern: /\bbuy now\b/i, weight: 0.55 },
        { pattern: /\bfree money\b/i, weight: 0.55 },
        { pattern: /\bclick here\b/i, weight: 0.3 },
        { pattern: /\blimited[- ]time offer\b/i, weight: 0.3 },
      ],
    },
    {
      label: 'sexual',
      rules: [
        { pattern: /\b(?:nudes?|naked)\b/i, weight: 0.85 },
        { pattern: /\bsexy\b/i, weight: 0.55 },
        { pattern: /\bxxx\b/i, weight: 0.3 },
      ],
    },
    {
      label: 'pii',
      rules: [
        // An email address.
        { pattern: /\b[\w.+-]+@[a-z\d-]+(?:\.[a-z\d-]+)*\.[a-z]{2,}\b/i, weight: 0.85 },
        // A phone number: optional +country code, then 3-3-4 digits, e.g. 555-123-4567, (555) 123 4567.
        { pattern: /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{3}\)|\d{3})[ .-]?\d{3}[ .-]?\d{4}\b/, weight: 0.85 },
      ],
    },
  ],
  maxScore: 0.99,
  thresholds: { match: 0.8, review: 0.5 },
  escalation: { match: 'none', review: 'completed', not_match: 'none' },
  builtInReferenceSets: { rs_emulator_known_bad: [KNOWN_BAD_IMAGE_SHA256] },
};

export interface LabelScore {
  label: string;
  score: number | null;
  decision: Decision;
  escalation: Escalation;
}

interface ReferenceSetMatch {
  setId: string;
  similarity: number;
}

export interface Classification {
  labels: LabelScore[];
  referenceSetMatches: ReferenceSetMatch[];
}

export interface ClassifierInput {
  texts: readonly string[];
  /** SHA-256 hex digests of the decoded image bytes, in submission order. */
  imageDigests: readonly string[];
}

export function classify(input: ClassifierInput, referenceSets: ReadonlyMap<string, ReadonlySet<string>>): Classification {
  return {
    labels: CLASSIFIER_RULES.labels.map((label) => scoreLabel(label, input.texts)),
    referenceSetMatches: matchReferenceSets(input.imageDigests, referenceSets),
  };
}

/** A label the classifier scored above 0, as a data object's output and a stream part carry it. */
export interface TextLabel {
  label: string;
  score: number;
  decision: Decision;
}

const NO_REFERENCE_SETS = new Map<string, ReadonlySet<string>>();

/** What the classifier says of text alone: the labels it scored above 0, in the order above. */
export function textLabels(texts: readonly string[]): TextLabel[] {
  return classify({ texts, imageDigests: [] }, NO_REFERENCE_SETS).labels.flatMap(({ label, score, decision }) =>
    score !== null && score > 0 ? [{ label, score, decision }] : [],
  );
}

/** How strong a decision is, to pick the strongest of several. */
const STRENGTH: Readonly<Record<Decision, number>> = { not_match: 0, review: 1, match: 2 };

/** The strongest of some label decisions (match, then review, then not_match); not_match when there are none. */
export const strongestDecision = (decisions: readonly Decision[]): Decision =>
  decisions.reduce<Decision>((strongest, decision) => (STRENGTH[decision] > STRENGTH[strongest] ? decision : strongest), 'not_match');

function scoreLabel({ label, rules }: LabelRules, texts: readonly string[]): LabelScore {
  if (texts.length === 0) return { label, score: null, decision: 'not_match', escalation: 'none' };
  const text = texts.join('\n');
  const sum = rules.filter((rule) => rule.pattern.test(text)).reduce((total, rule) => total + rule.weight, 0);
  // Rounded before comparing, so 0.55 + 0.3 counts as 0.85 and not as 0.8500000000000001.
  const score = Math.round(Math.min(CLASSIFIER_RULES.maxScore, sum) * 100) / 100;
  const decision = decide(score);
  return { label, score, decision, escalation: CLASSIFIER_RULES.escalation[decision] };
}

function decide(score: number): Decision {
  if (score >= CLASSIFIER_RULES.thresholds.match) return 'match';
  if (score >= CLASSIFIER_RULES.thresholds.review) return 'review';
  return 'not_match';
}

function matchReferenceSets(
  imageDigests: readonly string[],
  referenceSets: ReadonlyMap<string, ReadonlySet<string>>,
): ReferenceSetMatch[] {
  const matched = new Set<string>();
  for (const digest of imageDigests) {
    for (const [setId, digests] of referenceSets) {
      if (digests.has(digest)) matched.add(setId);
    }
  }
  // Exact digest equality, so the similarity of a match is always 1.
  return [...matched].map((setId) => ({ setId, similarity: 1 }));
}
