import { jsonErrorOffset } from './json-position.js';
import { StringDecoder } from 'node:string_decoder';

/** A value parsed from its text, or the text with the reason it is not JSON, located by line. */
export type JsonRecord = { line: number; value: unknown } | { line: number; text: string; error: string };

const enum Char {
  Newline = 10,
  Quote = 34,
  Comma = 44,
  Backslash = 92,
  OpenBracket = 91,
  CloseBracket = 93,
  OpenBrace = 123,
  CloseBrace = 125,
}

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
      else if (code === Char.Backslash) this.escaped = true;
      else if (code === Char.Quote) this.inString = false;
      return false;
    }
    if (code === Char.Quote) this.inString = true;
    else if (code === Char.OpenBrace || code === Char.OpenBracket) this.depth++;
    else if (code === Char.CloseBrace || code === Char.CloseBracket) this.depth--;
    return true;
  }
}

/** Whether JSON text nests deeper than `limit`: a linear scan without recursion, so any depth is safe to ask about. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  const nesting = new NestingTracker();
  for (let i = 0; i < text.length; i++) {
    nesting.step(text.charCodeAt(i));
    if (nesting.depth > limit) return true;
  }
  return false;
}

/**
 * JSON.parse, with a failure located at its own line and column (the text may span several
 * lines). V8's message often carries no position, so the offset comes from jsonErrorOffset.
 */
export function parseJsonAt(text: string, firstLine: number): JsonRecord {
  try {
    return { line: firstLine, value: JSON.parse(text) };
  } catch (error) {
    // V8 echoes the text back (`, ..."text" is not valid JSON`): drop it, and show a raw newline token as \n.
    const reason = (error as Error).message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, (\.\.\.)?".*" is not valid JSON$/s, '')
      .replaceAll('\n', '\\n');
    const offset = jsonErrorOffset(text);
    if (offset === undefined) return { line: firstLine, text, error: `invalid JSON: ${reason}` };
    const before = text.slice(0, offset);
    const lineOffset = before.split('\n').length - 1;
    const column = before.length - before.lastIndexOf('\n');
    return { line: firstLine + lineOffset, text, error: `invalid JSON at column ${column}: ${reason}` };
  }
}

/**
 * The elements of one JSON array, streamed: each is yielded with the line it starts on as soon
 * as it is complete, so a file of millions of events is never held in memory. An element longer
 * than maxElementChars is reported, not buffered.
 */
export async function* scanJsonArray(chunks: AsyncIterable<Buffer>, maxElementChars: number): AsyncGenerator<JsonRecord> {
  const decoder = new StringDecoder('utf8');
  let line = 1;
  let state = 'before-array' as 'before-array' | 'before-element' | 'in-element' | 'after-array';
  let elements = 0;
  let pieces: string[] = [];
  let pieceChars = 0;
  let startLine = 0;
  let nesting = new NestingTracker();
  const finish = (): JsonRecord => {
    const record = parseJsonAt(pieces.join('').trimEnd(), startLine);
    pieces = [];
    pieceChars = 0;
    elements++;
    return record;
  };

  let first = true;
  for await (const chunk of chunks) {
    const decoded = decoder.write(chunk);
    const text = first ? decoded.replace(/^\uFEFF/, '') : decoded;
    first = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (state === 'in-element') {
        const structural = nesting.step(code);
        if (structural && nesting.depth === -1) {
          // The element ended at a `,` or `]` at its own level; the bracket closing the array drove depth below 0.
          pieces.push(text.slice(start, i));
          yield finish();
          state = 'after-array';
        } else if (structural && code === Char.Comma && nesting.depth === 0) {
          pieces.push(text.slice(start, i));
          yield finish();
          state = 'before-element';
        }
      } else if (code > 32) {
        if (state === 'before-array') state = 'before-element';
        else if (state === 'after-array') {
          yield { line, text: text.slice(i, i + 40), error: 'unexpected text after the closing ] of the JSON array' };
          return;
        } else if (code === Char.CloseBracket) {
          if (elements > 0) yield { line, text: ']', error: 'expected an element after the last comma, found ]' };
          state = 'after-array';
        } else {
          state = 'in-element';
          startLine = line;
          start = i;
          nesting = new NestingTracker();
          nesting.step(code);
        }
      }
      if (code === Char.Newline) line++;
    }
    if (state === 'in-element') {
      const rest = text.slice(start);
      pieces.push(rest);
      pieceChars += rest.length;
      if (pieceChars > maxElementChars) {
        yield { line: startLine, text: '', error: `record is longer than ${Math.round(maxElementChars / 1024 / 1024)} MB` };
        return;
      }
    }
  }
  if (state === 'before-element' || state === 'in-element') {
    yield { line: state === 'in-element' ? startLine : line, text: pieces.join(''), error: 'unexpected end of input: the JSON array is not closed with ]' };
  }
}
