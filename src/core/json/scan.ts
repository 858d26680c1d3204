/**
 * A fast acceptance test for one line of JSON Lines, run on its bytes: no decoding, no JSON.parse,
 * no object built. It only ever says "yes, certainly" or "not sure": a line it is not sure of is
 * left to the exact check (decode, JSON.parse, zod), which also explains any failure. Node
 * built-ins only; test/core/json/scan.test.ts checks it against the exact check, line by line.
 */
import { repeatedKeyOffset } from './repeated-keys.js';

/** The bytes of JSON's syntax, as UTF-8 bytes and UTF-16 char codes alike (all ASCII). */
export const enum Byte {
  Tab = 0x09,
  Newline = 0x0a,
  CarriageReturn = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Plus = 0x2b,
  Comma = 0x2c,
  Minus = 0x2d,
  Dot = 0x2e,
  Zero = 0x30,
  Nine = 0x39,
  Colon = 0x3a,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
}

/** Deeper values are left to the exact check (JSON.parse takes any depth; this scan keeps a fixed stack). */
const MAX_DEPTH = 64;
const IN_OBJECT = 1;
const IN_ARRAY = 2;
const containers = new Uint8Array(MAX_DEPTH + 1);

const enum Expect {
  Value,
  AfterValue,
  Key,
}

/** Whether the last string stringEnd read had an escape in it. */
let escaped = false;

/** Where a string that opens at `i` (a quote) ends (just past its closing quote), or -1 if it is not valid JSON before `limit`. */
function stringEnd(b: Uint8Array, i: number, limit: number): number {
  escaped = false;
  for (i++; i < limit; ) {
    const c = b[i]!;
    if (c === Byte.Quote) return i + 1;
    if (c === Byte.Backslash) {
      escaped = true;
      const e = b[i + 1];
      if (e === 0x75 /* u */) {
        if (i + 6 > limit || !isHex(b[i + 2]!) || !isHex(b[i + 3]!) || !isHex(b[i + 4]!) || !isHex(b[i + 5]!)) return -1;
        i += 6;
      } else if (e === Byte.Quote || e === Byte.Backslash || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) i += 2;
      else return -1;
    } else if (c < Byte.Space) return -1;
    else i++;
  }
  return -1;
}

const isHex = (c: number) => (c >= Byte.Zero && c <= Byte.Nine) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isDigit = (c: number | undefined) => c !== undefined && c >= Byte.Zero && c <= Byte.Nine;

/** Where a JSON number that starts at `i` ends, or -1. */
function numberEnd(b: Uint8Array, i: number, limit: number): number {
  if (b[i] === Byte.Minus) i++;
  if (i >= limit) return -1;
  if (b[i] === Byte.Zero) i++;
  else if (isDigit(b[i])) while (i < limit && isDigit(b[i])) i++;
  else return -1;
  if (i < limit && b[i] === Byte.Dot) {
    i++;
    if (i >= limit || !isDigit(b[i])) return -1;
    while (i < limit && isDigit(b[i])) i++;
  }
  if (i < limit && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < limit && (b[i] === Byte.Plus || b[i] === Byte.Minus)) i++;
    if (i >= limit || !isDigit(b[i])) return -1;
    while (i < limit && isDigit(b[i])) i++;
  }
  return i;
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

function literalEnd(b: Uint8Array, i: number, limit: number, word: readonly number[]): number {
  if (i + word.length > limit) return -1;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return -1;
  return i + word.length;
}

/** JSON white space within a line (the line feed ends it). */
function skipSpace(b: Uint8Array, i: number, limit: number): number {
  while (i < limit) {
    const c = b[i];
    if (c !== Byte.Space && c !== Byte.Tab && c !== Byte.CarriageReturn) break;
    i++;
  }
  return i;
}

function sameBytes(b: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (b[start + k] !== key[k]) return false;
  return true;
}

/**
 * The line starting at `start` (and ending at the next line feed before `limit`) when it is
 * certainly one JSON object whose last top-level member named `key` is a non-empty string —
 * what JSON.parse and a check for such a member would accept. Returns the index of the line feed
 * that ends it, or -1 when not sure: not such an object, not valid JSON, nested deeper than 64,
 * a top-level key spelled with escapes, a key named twice, or no line feed before `limit`.
 */
export function objectLineEnd(b: Uint8Array, start: number, limit: number, key: Uint8Array): number {
  let i = start;
  if (b[i] !== Byte.OpenBrace) return -1;
  let depth = 0;
  let found = false;
  let expect = Expect.Value;
  while (i < limit) {
    i = skipSpace(b, i, limit);
    if (i >= limit) return -1;
    const c = b[i]!;
    if (expect === Expect.Value) {
      if (c === Byte.OpenBrace || c === Byte.OpenBracket) {
        if (depth === MAX_DEPTH) return -1;
        containers[++depth] = c === Byte.OpenBrace ? IN_OBJECT : IN_ARRAY;
        i = skipSpace(b, i + 1, limit);
        const close = c === Byte.OpenBrace ? Byte.CloseBrace : Byte.CloseBracket;
        if (b[i] === close) {
          depth--;
          i++;
          expect = Expect.AfterValue;
        } else expect = c === Byte.OpenBrace ? Expect.Key : Expect.Value;
        continue;
      }
      if (c === Byte.Quote) i = stringEnd(b, i, limit);
      else if (c === Byte.Minus || isDigit(c)) i = numberEnd(b, i, limit);
      else if (c === 0x74) i = literalEnd(b, i, limit, TRUE);
      else if (c === 0x66) i = literalEnd(b, i, limit, FALSE);
      else if (c === 0x6e) i = literalEnd(b, i, limit, NULL);
      else return -1;
      if (i < 0) return -1;
      expect = Expect.AfterValue;
    } else if (expect === Expect.AfterValue) {
      if (depth === 0) return c === Byte.Newline && found && !namesKeyTwice(Buffer.from(b.buffer, b.byteOffset + start, i - start).toString('latin1')) ? i : -1;
      if (c === Byte.Comma) {
        i++;
        expect = containers[depth] === IN_OBJECT ? Expect.Key : Expect.Value;
      } else if (c === (containers[depth] === IN_OBJECT ? Byte.CloseBrace : Byte.CloseBracket)) {
        i++;
        depth--;
      } else return -1;
    } else {
      if (c !== Byte.Quote) return -1;
      const keyEnd = stringEnd(b, i, limit);
      if (keyEnd < 0) return -1;
      let isKey = false;
      if (depth === 1) {
        // An escape could spell the key ("\u0069d"), in at most 6 bytes a character: such a key is left to JSON.parse.
        if (escaped && keyEnd - i - 2 <= 6 * key.length) return -1;
        isKey = sameBytes(b, i + 1, keyEnd - 1, key);
      }
      i = skipSpace(b, keyEnd, limit);
      if (b[i] !== Byte.Colon) return -1;
      i = skipSpace(b, i + 1, limit);
      // JSON.parse keeps the last of repeated keys: each occurrence decides anew.
      if (isKey) found = b[i] === Byte.Quote && b[i + 1] !== Byte.Quote;
      expect = Expect.Value;
    }
  }
  return -1;
}

/**
 * Whether a line accepted as valid JSON, read as Latin-1, names a key twice in one object, or spells
 * a key with escapes (which could spell another key): not sure, left to the exact check. A shape's
 * lines need no such look, their keys being those of a record the exact check accepted.
 */
const namesKeyTwice = (text: string, from?: number, to?: number) => repeatedKeyOffset(text, from, to, false) !== -1;

/** The parts of JSON's grammar as regular expressions, for lines of pure bytes read as Latin-1 (one character a byte). */
const WS = String.raw`[ \t\r]*`;
const PLAIN = String.raw`[^"\\\x00-\x1f]`;
const ESCAPE = String.raw`\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})`;
const STRING = `"${PLAIN}*(?:${ESCAPE}${PLAIN}*)*"`;
const NON_EMPTY_STRING = `"(?!")${PLAIN}*(?:${ESCAPE}${PLAIN}*)*"`;
const NUMBER = String.raw`-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?`;
const PRIMITIVE = `(?:${STRING}|${NUMBER}|true|false|null)`;
/** An array or object of `element`s. */
const containerOf = (element: string) =>
  `\\[${WS}(?:${element}(?:${WS},${WS}${element})*${WS})?\\]|\\{${WS}(?:${STRING}${WS}:${WS}${element}(?:${WS},${WS}${STRING}${WS}:${WS}${element})*${WS})?\\}`;
/**
 * Member values up to two arrays or objects deep: what most import lines hold. Each value has one
 * way to match, so a line that fails late is given up in time linear in its length: with two
 * ways for each of n values (a primitive in an array matched at either depth), the engine would
 * try 2^n before giving up.
 */
const VALUE = `(?:${PRIMITIVE}|${containerOf(`(?:${PRIMITIVE}|${containerOf(PRIMITIVE)})`)})`;

/**
 * One line (up to its line feed) that is one JSON object whose only top-level member named `key`
 * is a non-empty string, its other top-level keys spelled without escapes (an escape could spell
 * `key`), its values at most two arrays or objects deep. Sticky, and linear: every choice is made
 * by the next character. `key` is a plain word (ObjectLines checks it).
 */
function objectLinePattern(key: string): RegExp {
  const member = `"(?!${key}")${PLAIN}*"${WS}:${WS}${VALUE}`;
  const keyMember = `"${key}"${WS}:${WS}${NON_EMPTY_STRING}`;
  return new RegExp(`\\{${WS}(?:${member}${WS},${WS})*${keyMember}(?:${WS},${WS}${member})*${WS}\\}${WS}\\n`, 'y');
}

/**
 * How much of a chunk is read as text at a time: a string this small is made and dropped in the
 * young generation, where a string of a whole 1 MiB chunk went to the large-object space and
 * raised the peak RSS of an import by half.
 */
const WINDOW_BYTES = 32 * 1024;

/** Lines of one shape matched by one call: the count is known without looking for line feeds, and a call a line would cost more than the match. */
const SHAPE_BLOCK_LINES = 32;

/** A top-level key a shape spells as it is: printable ASCII that needs no escape in JSON (a line spells its keys in UTF-8, the pattern reads Latin-1). */
const SHAPE_KEY = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

/** A value of the same kind as `value` at a top-level member of a shape; undefined for an array or object (their patterns cost too much to compile for each shape). */
function kindPattern(value: unknown): string | undefined {
  if (typeof value === 'string') return STRING;
  if (typeof value === 'number') return NUMBER;
  if (typeof value === 'boolean') return '(?:true|false)';
  if (value === null) return 'null';
  return undefined;
}

/**
 * The pattern of lines written the way generated files write them, like `record` with `key` a
 * non-empty string: no white space, the same top-level keys in the same order, each value a
 * string, number, boolean or null as in `record`. Undefined for a record with an array or object
 * in it, or a key that cannot be spelled so.
 */
function shapeSource(record: unknown, key: string): string | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const members: string[] = [];
  let hasKey = false;
  for (const [name, value] of Object.entries(record)) {
    const kind = name === key ? NON_EMPTY_STRING : kindPattern(value);
    if (kind === undefined || !SHAPE_KEY.test(name)) return undefined;
    hasKey ||= name === key;
    members.push(`"${name.replace(/[$()*+./?[\\\]^{|}-]/g, '\\$&')}":${kind}`);
  }
  return hasKey ? `\\{${members.join(',')}\\}\\r?\\n` : undefined;
}

/** A shape's patterns: one line of it, and SHAPE_BLOCK_LINES lines of it. */
interface Shape {
  line: RegExp;
  block: RegExp;
}

/** Shapes kept compiled: a file may alternate between a few. */
const KEPT_SHAPES = 4;

/**
 * The fast check of lines of JSON objects with a non-empty string `key` (core/input/lines'
 * FastLine), in three steps. First the shape of the last record the exact check accepted (most
 * files repeat one shape), matched on many lines at a time; then a regular expression for any
 * such line; both over the chunk read as Latin-1 — the engine's compiled code goes through a
 * line's bytes faster than a loop in JavaScript, and one decoding a window of many lines costs
 * next to nothing a line. Last, for a line neither matches (deeper values, escaped keys, longer
 * than a window), objectLineEnd. Never sure of more than objectLineEnd would be.
 */
export class ObjectLines {
  /** The general pattern, made when first needed (see matched). */
  private pattern: RegExp | undefined;
  private readonly keyBytes: Uint8Array;
  /** The shape learned last, and the last few learned, by their sources. */
  private shape: Shape | undefined;
  private readonly shapes = new Map<string, Shape>();
  /** Whether a shape was learned since the last chunk began: once a chunk bounds what learning costs. */
  private learnedInChunk = false;
  /** Whether the exact check has given a record to learn from, and the chunks begun: see matched. */
  private taught = false;
  private chunks = 0;
  /** The bytes [from, to) of the current chunk, as Latin-1 text. */
  private text = '';
  private from = 0;
  private to = 0;
  acceptedEnd = -1;

  constructor(private readonly key: string) {
    if (!/^\w+$/.test(key)) throw new Error(`not a plain key: ${key}`);
    this.keyBytes = Buffer.from(key);
  }

  /** Whether a line has been matched with the general pattern: compiling it is most of what a small input's check costs. */
  get usedGeneralPattern(): boolean {
    return this.pattern !== undefined;
  }

  next(): void {
    this.text = '';
    this.from = this.to = 0;
    this.learnedInChunk = false;
    this.chunks++;
  }

  learn(record: unknown): void {
    this.taught = true;
    if (this.learnedInChunk) return;
    this.learnedInChunk = true;
    const source = shapeSource(record, this.key);
    if (source === undefined) return;
    let shape = this.shapes.get(source);
    if (shape === undefined) {
      shape = { line: new RegExp(source, 'y'), block: new RegExp(`(?:${source}){${SHAPE_BLOCK_LINES}}`, 'y') };
      if (this.shapes.size === KEPT_SHAPES) this.shapes.delete(this.shapes.keys().next().value!);
      this.shapes.set(source, shape);
    }
    this.shape = shape;
  }

  accept(bytes: Buffer, start: number, limit: number): number {
    // Only a line opening with a brace can be sure: a blank line, or any other, goes to the exact check at once.
    if (bytes[start] !== Byte.OpenBrace) return 0;
    if (start < this.from || start >= this.to) this.read(bytes, start, limit);
    // A line cut short is matched no further: in part, it would fail the shape and then the general
    // pattern, compiled for it alone in a file of one shape. Cut by the chunk's end, none can be
    // sure of it; cut by the window's, it is read again from its start. (Reading again for a line
    // that ends within the window cost a window a line.)
    if (this.text.indexOf('\n', start - this.from) === -1) {
      if (this.to === limit) return 0;
      if (this.from !== start) {
        this.read(bytes, start, limit);
        if (this.to === limit && this.text.indexOf('\n') === -1) return 0;
      }
    }
    const accepted = this.matched(start);
    if (accepted > 0) return accepted;
    this.acceptedEnd = objectLineEnd(bytes, start, limit, this.keyBytes);
    return this.acceptedEnd === -1 ? 0 : 1;
  }

  private read(bytes: Buffer, start: number, limit: number): void {
    this.from = start;
    this.to = Math.min(limit, start + WINDOW_BYTES);
    this.text = bytes.toString('latin1', start, this.to);
  }

  /** Lines from `start` the shape matches, else the one line the general pattern matches, else 0. */
  private matched(start: number): number {
    let at = start - this.from;
    let lines = 0;
    if (this.shape !== undefined) {
      const { block, line } = this.shape;
      // A failed sticky match sets lastIndex to 0: `at` keeps the end of the last success.
      for (block.lastIndex = at; block.test(this.text); block.lastIndex = at) {
        at = block.lastIndex;
        lines += SHAPE_BLOCK_LINES;
      }
      for (line.lastIndex = at; line.test(this.text); line.lastIndex = at) {
        at = line.lastIndex;
        lines++;
      }
    }
    if (lines === 0) {
      // Until the exact check has given a record to learn a shape from, the first chunk's lines go
      // to objectLineEnd: the general pattern costs some 13 ms to compile (more than the byte scan
      // of a chunk), and most files repeat one shape, so never need it.
      if (!this.taught && this.chunks <= 1) return 0;
      const pattern = (this.pattern ??= objectLinePattern(this.key));
      pattern.lastIndex = at;
      if (!pattern.test(this.text) || namesKeyTwice(this.text, at, pattern.lastIndex)) return 0;
      at = pattern.lastIndex;
      lines = 1;
    }
    this.acceptedEnd = this.from + at - 1;
    return lines;
  }
}
