import { Byte } from './scan.js';
import { NestingTracker, nestsDeeperThan, parseJsonAt, type JsonRecord } from './position.js';

/**
 * How deep JSON may nest, for csafe and the emulator alike (Node built-ins only). JSON.parse takes
 * any depth, but what walks a parsed value (schema checks, canonical JSON, hashing, serialising)
 * recurses: deeper text is refused before it is parsed, by a linear scan.
 */

/**
 * The most levels of arrays and objects JSON may nest: a request body (the emulator refuses deeper
 * ones with a 400), an import line, each record csafe reads and each JSON flag, checked before it is parsed.
 */
export const MAX_JSON_NESTING = 64;

/**
 * A request body may nest two levels more than a record: a record at the limit is sent inside an
 * envelope (`{"data":[…]}`, `{"id":…,"data":[…]}`), and what csafe's check let through must not be
 * refused for the envelope csafe wrapped around it.
 */
export const MAX_REQUEST_NESTING = MAX_JSON_NESTING + 2;

const nestedTooDeep = (limit: number) => `nested deeper than ${limit} levels of arrays and objects`;
const NESTED_TOO_DEEP = nestedTooDeep(MAX_JSON_NESTING);

/** What is wrong with the nesting of a JSON text, or undefined: a scan without recursion, so any depth is safe to ask about. */
export const nestingProblem = (text: string, limit = MAX_JSON_NESTING): string | undefined =>
  nestsDeeperThan(text, limit) ? nestedTooDeep(limit) : undefined;

/** One record of the input, parsed (core/json/position parseJsonAt) once its nesting is known to be within the limit. */
export function parseRecordAt(text: string, line: number): JsonRecord {
  const problem = nestingProblem(text);
  return problem === undefined ? parseJsonAt(text, line) : { line, text, error: problem };
}

/**
 * A JSON text of several lines (a flag's @FILE), parsed once its nesting is within the limit; when
 * it is not, the error names the line (1-based) on which it first goes too deep.
 */
export function parseDocument(text: string): JsonRecord {
  if (nestingProblem(text) === undefined) return parseJsonAt(text, 1);
  const nesting = new NestingTracker();
  let line = 1;
  for (let i = 0; i < text.length && nesting.depth <= MAX_JSON_NESTING; i++) {
    const code = text.charCodeAt(i);
    if (code === Byte.Newline) line++;
    nesting.step(code);
  }
  return { line, text, error: NESTED_TOO_DEEP };
}
