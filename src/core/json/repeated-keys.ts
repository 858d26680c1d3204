/**
 * Whether JSON text names one key twice in one object. JSON.parse keeps the last of them and drops
 * the others without a word; csafe and the emulator refuse such text instead (I-JSON, RFC 7493:
 * the names within an object must be unique), so no value the user wrote is lost unseen, and what
 * csafe's check accepts the emulator accepts too. Node built-ins only: the emulator imports it.
 */

/**
 * One token of valid JSON that matters here: a string (with, for a key, the colon after it) or a
 * bracket. Numbers, literals, commas and white space hold no quote or bracket, so the search
 * skips them; in text JSON.parse accepted, every match is a whole token.
 */
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"([ \t\r\n]*:)?|[{}[\]]/g;

const ARRAY = null;

/**
 * Whether a valid JSON text names some key twice in one object: one pass over the text counting
 * keys (a string followed by a colon), compared with the keys of the value JSON.parse made of it,
 * which holds each name once. No string is cut out and no set built, so it costs a fraction of
 * JSON.parse; repeatedKeyOffset then finds which key it is.
 */
export function namesAKeyTwice(text: string, value: unknown): boolean {
  return keysWritten(text) !== keysParsed(value);
}

const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** The keys written in a valid JSON text. */
function keysWritten(text: string): number {
  let keys = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) {
    i = closingQuote(text, i);
    let after = i + 1;
    while (isSpace(text.charCodeAt(after))) after++;
    if (text.charCodeAt(after) === COLON) keys++;
  }
  return keys;
}

/** Where the string opened at `open` closes: the next quote not escaped by an odd run of backslashes. */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
}

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** The keys of every object in a parsed JSON value, without recursion. */
function keysParsed(value: unknown): number {
  let keys = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) {
      for (const item of next) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    for (const key in next) {
      keys++;
      const member = (next as Record<string, unknown>)[key];
      if (typeof member === 'object' && member !== null) pending.push(member);
    }
  }
  return keys;
}

/**
 * The offset of the first key named again in the same object of `text[from, to)`, or -1 when
 * there is none. The text must be valid JSON (JSON.parse accepted it). A key spelled with escapes
 * is compared by what it means when `decodeEscapes`; otherwise it is reported as if repeated, for
 * a caller that reads bytes as Latin-1 and would rather leave such a line to the exact check.
 */
export function repeatedKeyOffset(text: string, from = 0, to = text.length, decodeEscapes = true): number {
  // One object in an array of them, or a set of keys, per open bracket.
  const open: (Set<string> | typeof ARRAY)[] = [];
  TOKEN.lastIndex = from;
  for (let match = TOKEN.exec(text); match !== null && match.index < to; match = TOKEN.exec(text)) {
    const token = match[0];
    const first = token.charCodeAt(0);
    if (first === 0x7b /* { */) open.push(new Set());
    else if (first === 0x5b /* [ */) open.push(ARRAY);
    else if (first === 0x7d /* } */ || first === 0x5d /* ] */) open.pop();
    else if (match[1] !== undefined) {
      const quoted = token.slice(0, token.length - match[1].length);
      const escaped = quoted.includes('\\');
      if (escaped && !decodeEscapes) return match.index;
      const key = escaped ? (JSON.parse(quoted) as string) : quoted.slice(1, -1);
      const keys = open.at(-1);
      if (keys === undefined || keys === ARRAY) continue;
      if (keys.has(key)) return match.index;
      keys.add(key);
    }
  }
  return -1;
}

/** The key at `offset` (where repeatedKeyOffset found it), decoded. */
export function keyAt(text: string, offset: number): string {
  TOKEN.lastIndex = offset;
  const match = TOKEN.exec(text)!;
  return JSON.parse(match[0].slice(0, match[0].length - (match[1]?.length ?? 0))) as string;
}

/** What is said of a repeated key, wherever it is found. */
export const repeatedKeyProblem = (key: string, where: string) =>
  `key ${JSON.stringify(key)} named twice in one object ${where}: only the last value would count; name each key once`;
