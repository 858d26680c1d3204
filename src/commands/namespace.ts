import { UsageError } from '../core/errors.js';
import { dotSegmentProblem } from '../core/path-segment.js';
import { namespaceNameSchema } from '../schemas/data.js';

/** The NAMESPACE argument of the data and settings commands, checked before anything is sent. */
export function parseNamespace(text: string): string {
  const problem = dotSegmentProblem(text);
  if (problem !== undefined) throw new UsageError(`NAMESPACE "${text}": ${problem}`);
  const parsed = namespaceNameSchema.safeParse(text);
  if (parsed.success) return parsed.data;
  throw new UsageError(`NAMESPACE "${text}": ${parsed.error.issues[0]!.message}`);
}
