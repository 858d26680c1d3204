import { keyAt, namesAKeyTwice, repeatedKeyOffset, repeatedKeyProblem } from './repeated-keys.js';
import { Byte } from './scan.js';

/**
 * Where things are in JSON text, by hand-written linear scans (no recursion, so any depth is safe):
 * - where JSON.parse failed, or a key is named twice in one object, as line and column
 *   (parseJsonAt; syntaxErrorOffset and repeated-keys underneath),
 * - on which line a member of a valid document stands (lineOfPath),
 * - how deep brackets nest outside strings (NestingTracker, nestsDeeperThan).
 * Node built-ins only: the emulator imports it too.
 */

/** A value parsed from its text (and the text's length, when the reader measures), or the text with the reason it is not JSON, located by line. */
export type JsonRecord = { line: number; value: unknown; chars?: number } | { line: number; text: string; error: string };

/**
 * Follows the nesting of JSON text fed in pieces, ignoring brackets inside strings, so a caller
 * can tell where a value that spans several lines ends without parsing it.
 */
export class NestingTracker {
  depth = 0;
  private inString = false;
  private escaped = false;

  feed(text: string): void {
    for (let i = 0; i < text.length; i++) this.step(text.charCodeAt(i));
  }

  /** Returns true when the character is structural (outside any string). */
  step(code: number): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (code === Byte.Backslash) this.escaped = true;
      else if (code === Byte.Quote) this.inString = false;
      return false;
    }
    if (code === Byte.Quote) this.inString = true;
    else if (code === Byte.OpenBrace || code === Byte.OpenBracket) this.depth++;
    else if (code === Byte.CloseBrace || code === Byte.CloseBracket) this.depth--;
    return true;
  }
}

/**
 * Whether JSON text nests deeper than `limit`: a linear scan without recursion, so any depth is
 * safe to ask about. NestingTracker's reading, with each string skipped by a search for its
 * closing quote (one not preceded by an odd run of backslashes): a request or an import is
 * mostly strings, so this looks at a fraction of the characters.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  if (!hasMoreOpeningsThan(text, limit)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === Byte.Quote) {
      i = closingQuote(text, i);
      if (i === -1) return false;
    } else if (code === Byte.OpenBrace || code === Byte.OpenBracket) {
      if (++depth > limit) return true;
    } else if (code === Byte.CloseBrace || code === Byte.CloseBracket) {
      depth--;
    }
  }
  return false;
}

/** Whether the text holds more than `limit` of `{` and `[` together (inside strings or not): fewer cannot nest deeper than it. */
function hasMoreOpeningsThan(text: string, limit: number): boolean {
  let count = 0;
  for (const opening of ['{', '[']) {
    for (let at = text.indexOf(opening); at !== -1; at = text.indexOf(opening, at + 1)) if (++count > limit) return true;
  }
  return false;
}

/** Where the string opened at `open` ends, or -1 when it never does. */
function closingQuote(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === Byte.Backslash) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

/**
 * JSON.parse, with a failure located at its own line and column (the text may span several
 * lines, the first being `firstLine`). V8's message often carries no position, so the offset
 * comes from syntaxErrorOffset.
 */
export function parseJsonAt(text: string, firstLine: number): JsonRecord {
  try {
    const value: unknown = JSON.parse(text);
    if (!namesAKeyTwice(text, value)) return { line: firstLine, value };
    const repeated = repeatedKeyOffset(text);
    return locatedProblem(text, firstLine, repeated, (column) => repeatedKeyProblem(keyAt(text, repeated), `at column ${column}`));
  } catch (error) {
    // V8 echoes the text back (`, ..."text"... is not valid JSON`, cut short at either end): drop it, and show a raw newline token as \n.
    const reason = (error as Error).message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/ at position \d+(?: \(line \d+ column \d+\))?/, '')
      .replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '')
      .replaceAll('\n', '\\n');
    const nul = text.indexOf('\0');
    if (nul !== -1) return locatedProblem(text, firstLine, nul, (column) => `a NUL byte at column ${column}: ${NUL_HINT}`);
    const offset = syntaxErrorOffset(text);
    const hint = LONE_CR.test(text) ? `; ${LONE_CR_HINT}` : '';
    if (offset === undefined) return { line: firstLine, text, error: `invalid JSON: ${reason}${hint}` };
    return locatedProblem(text, firstLine, offset, (column) => `invalid JSON at column ${column}: ${reason}${hint}`);
  }
}

/** JSON has no NUL byte outside an escape: text that does is most likely UTF-16, or not text at all. */
const NUL_HINT = 'JSON text holds none, UTF-16 text and binary files do; csafe reads UTF-8 text (convert UTF-16 with iconv -f utf-16 -t utf-8)';

/** A CR that ends no CRLF: lines ended the classic Mac way, which csafe (splitting at LF) reads as one line. */
const LONE_CR = /\r(?!\n)/;
const LONE_CR_HINT = "its lines seem to end in a lone CR (LF ends a line): convert them, e.g. tr '\\r' '\\n' < IN > OUT";

/** A problem at `offset` of text whose first line is `firstLine`, located by its own line and column. */
function locatedProblem(text: string, firstLine: number, offset: number, problem: (column: number) => string): JsonRecord {
  const before = text.slice(0, offset);
  const lineOffset = before.split('\n').length - 1;
  const column = before.length - before.lastIndexOf('\n');
  return { line: firstLine + lineOffset, text, error: problem(column) };
}

/** Offset of the first JSON syntax error in text, or undefined when the text is valid JSON. */
export function syntaxErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const char of word) if (text[i++] !== char) { i--; fail(); }
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i]! < ' ') fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    if (text[i] !== '"') fail();
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail();
    i += match![0].length;
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === '{') return members('}', () => {
      space();
      if (text[i] !== '"') fail();
      string();
      space();
      if (text[i] !== ':') fail();
      i++;
      value();
    });
    if (char === '[') return members(']', value);
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    return number();
  };
  const members = (close: string, member: () => void) => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      member();
      space();
      if (text[i] === ',') i++;
      else if (text[i] === close) {
        i++;
        return;
      } else fail();
    }
  };
  try {
    value();
    space();
    return i < text.length ? i : undefined;
  } catch (offset) {
    return offset as number;
  }
}

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
