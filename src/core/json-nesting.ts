import { Byte } from './json-scan.js';
import { NestingTracker, nestsDeeperThan } from './json-position.js';

/**
 * How deep arrays and objects may nest in JSON that csafe sends, and that its emulator takes in:
 * deeper JSON is refused before it is parsed, since validating, serialising and hashing it all
 * recurse and could run out of stack.
 */
export const MAX_JSON_DEPTH = 64;

/** The line (1-based) on which the text first nests deeper than MAX_JSON_DEPTH, or undefined when it does not; linear scans, no recursion. */
export function lineNestedTooDeep(text: string): number | undefined {
  if (!nestsDeeperThan(text, MAX_JSON_DEPTH)) return undefined;
  const nesting = new NestingTracker();
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === Byte.Newline) line++;
    nesting.step(code);
    if (nesting.depth > MAX_JSON_DEPTH) return line;
  }
  return undefined;
}
