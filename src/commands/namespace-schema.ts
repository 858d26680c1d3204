// How a namespace schema given as a file or as --field flags is read and checked before it is sent: by `settings put`, and beside the objects of `data add` and `data import`.

import type { Readable } from 'node:stream';
import { InputError, UsageError } from '../core/errors.js';
import type { IOStreams } from '../core/terminal/io.js';
import { decodeText, readBoundedInput } from '../core/input/whole-file.js';
import { lineOfPath, parseJsonAt } from '../core/json/position.js';
import { fieldDefinitionSchema, settingsRequestSchema, type FieldDefinition, type NamespaceSchema } from '../schemas/data.js';
import { describeProblem, problemsFromZod } from '../schemas/issues.js';
import { REQUEST_BYTES } from '../schemas/names.js';

/** A schema ready to send, or every problem found in it, each a line naming where and what was expected. */
export type SchemaInput = { schema: NamespaceSchema; problems?: undefined } | { problems: string[] };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The file holds the schema map itself or the request body `{"schema": {...}}`. A namespace may
 * have a field called "schema", so the body reading is taken unless only the map reading is valid.
 */
function isRequestBody(value: unknown): value is { schema: unknown } {
  if (!isPlainObject(value) || Object.keys(value).join() !== 'schema' || !isPlainObject(value.schema)) return false;
  return settingsRequestSchema.safeParse(value).success || !settingsRequestSchema.safeParse({ schema: value }).success;
}

/** Reads and checks a schema file (`-` for stdin); problems are `schema.json:3: schema.photo.content_type: expected …`. */
export async function readSchemaFile(path: string, stdin: Readable, signal?: AbortSignal): Promise<SchemaInput> {
  const name = path === '-' ? 'stdin' : path;
  const text = decodeText(await readBoundedInput(path, stdin, REQUEST_BYTES, signal));
  if (text === undefined) return { problems: [`${name}: is not UTF-8 text`] };
  // Not one problem among others: an empty file is most likely the wrong file, said in one line.
  if (text.trim() === '') throw new InputError(`${name}: is empty, expected a JSON object mapping field names to definitions; nothing was sent`);
  const parsed = parseJsonAt(text, 1);
  if ('error' in parsed) return { problems: [`${name}:${parsed.line}: ${parsed.error}`] };
  const body = isRequestBody(parsed.value);
  const requestBody = body ? parsed.value : { schema: parsed.value };
  const result = settingsRequestSchema.safeParse(requestBody);
  if (result.success) return { schema: result.data.schema };
  return {
    problems: problemsFromZod(result.error, { schema: settingsRequestSchema, value: requestBody }).map((problem) => {
      const line = lineOfPath(text, body ? problem.path : problem.path.slice(1));
      return `${name}:${line}: ${describeProblem(problem)}`;
    }),
  };
}

/** `--field name:content_type[:display_hint]` values, e.g. `photo:image_url:primary_image_url` or `title::title`. */
export function schemaFromFields(fields: readonly string[]): SchemaInput {
  const schema: NamespaceSchema = {};
  const problems: string[] = [];
  for (const field of fields) {
    const [name, contentType, displayHint, ...rest] = field.split(':');
    const where = `--field "${field}"`;
    if (!name || contentType === undefined || rest.length > 0) {
      problems.push(`${where}: expected name:content_type[:display_hint], e.g. photo:image_url:primary_image_url`);
    } else if (Object.hasOwn(schema, name)) {
      problems.push(`${where}: field "${name}" is given twice`);
    } else {
      const definition: FieldDefinition = {
        ...(contentType !== '' && { content_type: contentType as FieldDefinition['content_type'] }),
        ...(displayHint && { display_hint: { type: displayHint as NonNullable<FieldDefinition['display_hint']>['type'] } }),
      };
      const parsed = fieldDefinitionSchema.safeParse(definition);
      if (parsed.success) schema[name] = parsed.data;
      else problems.push(...problemsFromZod(parsed.error).map((problem) => `${where}: ${describeProblem(problem)}`));
    }
  }
  return problems.length > 0 ? { problems } : { schema };
}

/** The schema read, or each of its problems on stderr and an error (exit 2): nothing is sent with a schema that has one. */
export function schemaOrRefusal(io: IOStreams, input: SchemaInput, fromFile: boolean): NamespaceSchema {
  if (!input.problems) return input.schema;
  for (const problem of input.problems) io.warn(problem);
  const summary = `the schema has ${input.problems.length} ${input.problems.length === 1 ? 'problem' : 'problems'}; nothing was sent`;
  throw fromFile ? new InputError(summary) : new UsageError(summary);
}

/**
 * `--schema FILE` of `data add` and `data import`: the namespace schema sent with the data,
 * checked as `settings put` checks it, before anything is sent.
 */
export async function schemaFlag(io: IOStreams, path: string, dataPath: string, signal: AbortSignal): Promise<NamespaceSchema> {
  if (path === '-' && dataPath === '-') throw new UsageError('--schema -: stdin already holds the objects; give the schema as a FILE');
  return schemaOrRefusal(io, await readSchemaFile(path, io.stdin, signal), true);
}
