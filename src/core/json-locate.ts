import { NestingTracker } from './json-scan.js';

/**
 * The line (1-based) where the member at `path` stands in valid JSON text: the line of its key,
 * or of the element for an array index. A path that goes deeper than the text (a missing member)
 * gives the line of its deepest part that is there. Lets a problem found in a document parsed as
 * a whole point at its place in the file.
 */
export function lineOfPath(text: string, path: readonly PropertyKey[]): number {
  let i = 0;
  let found = 0;
  const space = () => {
    while (i < text.length && ' \t\r\n\uFEFF'.includes(text[i]!)) i++;
  };
  const readString = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    return JSON.parse(text.slice(start, ++i)) as string;
  };
  /** Reads `"key":` and returns the key, leaving i at the value. */
  const readKey = (): string => {
    const key = readString();
    space();
    i++;
    space();
    return key;
  };
  const skipValue = () => {
    if (text[i] === '"') return void readString();
    if (text[i] !== '{' && text[i] !== '[') {
      while (i < text.length && !',]} \t\r\n'.includes(text[i]!)) i++;
      return;
    }
    const nesting = new NestingTracker();
    do nesting.step(text.charCodeAt(i++));
    while (nesting.depth > 0);
  };
  /** Moves to the value of `segment` inside the container at i; false when it is not there. */
  const enter = (segment: PropertyKey): boolean => {
    space();
    const open = text[i];
    if (open !== '{' && open !== '[') return false;
    i++;
    for (let index = 0; ; index++) {
      space();
      if (text[i] === '}' || text[i] === ']' || i >= text.length) return false;
      const start = i;
      if (open === '{' ? readKey() === String(segment) : index === segment) {
        found = start;
        return true;
      }
      skipValue();
      space();
      if (text[i] === ',') i++;
    }
  };
  for (const segment of path) if (!enter(segment)) break;
  return text.slice(0, found).split('\n').length;
}
