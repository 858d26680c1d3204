import { URL_CONTENT_TYPES, type DataObject, type FieldDefinition, type NamespaceSchema } from '../../schemas/data.js';
import { textLabels, type TextLabel } from '../classifier.js';

/** What the service concludes about one data object under its namespace schema, or why it cannot process it. */

interface ObjectOutput {
  actions: unknown[];
  fields: Record<string, unknown>;
  labels: TextLabel[];
}

/** One data[] entry of a request record, and one line of an import's output. */
export interface ObjectEntry {
  id: string;
  output?: ObjectOutput;
  url: string;
  metadata?: Record<string, unknown>;
  /** Instead of output, when the object cannot be processed. */
  error?: { message: string };
}

/** Content types whose values are not text to classify. */
const NOT_TEXT: ReadonlySet<string | undefined> = new Set([...URL_CONTENT_TYPES, 'datetime', 'metadata']);

/**
 * What the service concludes about one object under its namespace schema: labels from the
 * classifier over the text fields, the fields cut to their field_limit (which is also all the
 * classifier sees of them: the limit is on what reaches the models), metadata set apart.
 */
export function processObject(object: DataObject, schema: NamespaceSchema, url: string): ObjectEntry {
  const problem = unprocessableCheck(schema)?.(object);
  if (problem !== undefined) return { id: object.id, url, error: { message: problem } };
  const fields: Record<string, unknown> = {};
  const metadata: Record<string, unknown> = {};
  const texts: string[] = [];
  for (const [name, value] of Object.entries(object)) {
    if (name === 'id') continue;
    const definition = schema[name];
    if (definition?.content_type === 'metadata') {
      metadata[name] = value;
      continue;
    }
    const limited = withinLimit(value, definition);
    fields[name] = limited;
    if (typeof limited === 'string' && !NOT_TEXT.has(definition?.content_type)) texts.push(limited);
  }
  return { id: object.id, output: { actions: [], fields, labels: textLabels(texts) }, url, ...(Object.keys(metadata).length > 0 && { metadata }) };
}

/**
 * For one namespace schema: why the service cannot process an object, or undefined. A field the
 * schema types as a URL must hold an http(s) URL, or an array of them; anything else cannot be
 * fetched. The URL fields are picked out once, as an import checks millions of objects; with none,
 * there is no check at all (undefined), and an import need not parse its lines to find nothing.
 */
export function unprocessableCheck(schema: NamespaceSchema): ((object: DataObject) => string | undefined) | undefined {
  const urlFields = Object.entries(schema).flatMap(([name, { content_type: type }]) =>
    type !== undefined && URL_CONTENT_TYPES.has(type) ? [{ name, type }] : [],
  );
  if (urlFields.length === 0) return undefined;
  return (object) => {
    const problems = urlFields.flatMap(({ name, type }) => {
      if (!Object.hasOwn(object, name)) return [];
      const value = object[name];
      const urls = Array.isArray(value) ? value : [value];
      return urls.every(isHttpUrl) ? [] : [`${name}: expected an http(s) URL or an array of them (content_type ${type})`];
    });
    return problems.length > 0 ? problems.join('; ') : undefined;
  };
}

const isHttpUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\//i.test(value) && URL.canParse(value);

/** field_limit counts characters (code points, so no emoji is cut in half) of a string and items of an array. */
function withinLimit(value: unknown, definition: FieldDefinition | undefined): unknown {
  const limit = definition?.field_limit;
  if (limit === undefined) return value;
  if (typeof value === 'string') return value.length <= limit ? value : Array.from(value).slice(0, limit).join('');
  if (Array.isArray(value)) return value.slice(0, limit);
  return value;
}
