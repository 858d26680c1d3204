import { UsageError } from '../core/errors.js';
import { namespaceNameSchema } from '../schemas/data.js';

/** The NAMESPACE argument of the data and settings commands, checked before anything is sent. */
export function parseNamespace(text: string): string {
  if (text === '.' || text === '..') {
    throw new UsageError(`NAMESPACE "${text}": "." and ".." cannot name a namespace: in the URL path they mean "this" and "parent", so requests would go to another address`);
  }
  const parsed = namespaceNameSchema.safeParse(text);
  if (parsed.success) return parsed.data;
  throw new UsageError(`NAMESPACE "${text}": ${parsed.error.issues[0]!.message}`);
}
