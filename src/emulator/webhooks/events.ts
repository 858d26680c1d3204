import type { ObjectEntry } from '../data/objects.js';

/**
 * The notifications the service sends, as its docs show them: workflow.succeeded and
 * workflow.failed when a data object has been processed, and the legacy envelopes
 * {event_type, data} of the older operations, decision.completed and batch.completed.
 */

/** The docs' confidence words for the classifier's scores. */
const confidenceOf = (score: number) => (score >= 0.9 ? 'high' : score >= 0.6 ? 'medium' : 'low');

/**
 * One processed object's event. Its labels are those the emulator's classifier raised (match or
 * review), each with a confidence word; receivers must not assume their order.
 */
export function workflowEvent(namespace: string, requestId: string, entry: ObjectEntry, url: string) {
  if (entry.output === undefined) return { type: 'workflow.failed' as const, namespace, id: entry.id, request_id: requestId, error: entry.error ?? { message: 'not processed' } };
  const labels = entry.output.labels.filter((label) => label.decision !== 'not_match').map((label) => ({ label: label.label, confidence: confidenceOf(label.score) }));
  return {
    type: 'workflow.succeeded' as const,
    namespace,
    id: entry.id,
    request_id: requestId,
    url,
    ...(entry.metadata !== undefined && { metadata: entry.metadata }),
    output: { actions: entry.output.actions, labels, fields: entry.output.fields },
  };
}

/** A legacy envelope: the decision or batch as GET returns it once it has ended. */
export const legacyEvent = (type: 'decision.completed' | 'batch.completed', data: unknown) => ({ event_type: type, data });
