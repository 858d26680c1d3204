import { existsSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { dotSegmentProblem } from '../core/http/path-segment.js';
import { namespaceNameSchema } from '../schemas/data.js';

/** The NAMESPACE argument of the data and settings commands, checked before anything is sent. */
export function parseNamespace(text: string): string {
  const problem = dotSegmentProblem(text);
  if (problem !== undefined) throw new UsageError(`NAMESPACE "${text}": ${problem}`);
  const parsed = namespaceNameSchema.safeParse(text);
  if (parsed.success) return parsed.data;
  throw new UsageError(`NAMESPACE ${quoted(text)}: ${parsed.error.issues[0]!.message}`, { hint: forgottenNamespaceHint(text) });
}

/** The namespace left out, so the file took its place (`csafe data add items.jsonl`): said, since the rule alone does not tell. */
const forgottenNamespaceHint = (text: string): string | undefined =>
  existsSync(text) ? `${quoted(text)} is a file: the namespace comes first, then the file` : undefined;

/** Longest namespace an error quotes whole: enough to recognise one, and a line fits a terminal. */
const QUOTED_CHARS = 40;

/** The namespace as an error quotes it: a long one cut short, with its length, rather than filling the screen. */
const quoted = (text: string) => (text.length <= QUOTED_CHARS ? `"${text}"` : `"${text.slice(0, QUOTED_CHARS)}…" (${text.length} characters)`);
