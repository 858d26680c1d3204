import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineOfPath, nestsDeeperThan, parseJsonAt, syntaxErrorOffset } from '../../../src/core/json/position.js';
import { mulberry32 } from '../../../src/emulator/http/faults.js';
import { randomJsonTexts } from '../../helpers/random-json.js';
import { samples } from '../../helpers/samples.js';

/** JSON texts broken the ways files are: a character dropped, doubled or replaced, the text cut short. */
function brokenTexts(seed: number, count: number): string[] {
  const random = mulberry32(seed);
  const junk = ['', ' ', '\n', '\r', '\0', ',', ':', '"', '\\', '{', '}', '[', ']', '-', '.', 'e', '0', '1', 'x', 't', 'u', '\u0001', 'é', '  x'];
  return randomJsonTexts(seed, count).map((text) => {
    const at = Math.floor(random() * (text.length + 1));
    const roll = random();
    if (roll < 0.15) return text;
    if (roll < 0.3) return text.slice(0, at);
    if (roll < 0.45) return text.slice(0, at) + text.slice(at + 1);
    if (roll < 0.6) return text.slice(0, at) + text.slice(at - 1, at) + text.slice(at);
    return text.slice(0, at) + junk[Math.floor(random() * junk.length)] + text.slice(at + 1);
  });
}

/** Every path to a member or element of a parsed value, depth first. */
function pathsOf(value: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: [PropertyKey, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  return entries.flatMap(([key, item]) => [[...path, key], ...pathsOf(item, [...path, key])]);
}

/** Compact JSON text with each comma between members (not one inside a string) written as `comma`. */
function breakAtCommas(json: string, comma: string): string {
  let out = '';
  for (let i = 0; i < json.length; i++) {
    if (json[i] !== '"') {
      out += json[i] === ',' ? comma : json[i];
      continue;
    }
    let close = i + 1;
    while (json[close] !== '"') close += json[close] === '\\' ? 2 : 1;
    out += json.slice(i, close + 1);
    i = close;
  }
  return out;
}

/** A copy of `value` with the member at `path` replaced. */
function replaceAt(value: unknown, path: readonly PropertyKey[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [key, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === key ? replaceAt(item, rest, replacement) : item));
  const copy = { ...(value as Record<string, unknown>) };
  Object.defineProperty(copy, key!, { value: replaceAt(copy[key as string], rest, replacement), enumerable: true, writable: true, configurable: true });
  return copy;
}

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('syntaxErrorOffset', () => {
  it('finds the offset of the first syntax error, and none for valid JSON', () => {
    assert.equal(syntaxErrorOffset('{"a": tru}'), 9);
    assert.equal(syntaxErrorOffset('{"a":1,}'), 7);
    assert.equal(syntaxErrorOffset('{"a":1} x'), 8);
    assert.equal(syntaxErrorOffset('[1, 2'), 5);
    assert.equal(syntaxErrorOffset('"bad \\q"'), 6);
    for (const valid of ['{"a":[1,-2.5e3,true,false,null,"x\\u00e9"]}', ' [] ', '"s"', '0']) assert.equal(syntaxErrorOffset(valid), undefined, valid);
  });

  it('agrees with JSON.parse on 20,000 seeded texts, and points at the first character no valid text could have there', () => {
    let broken = 0;
    for (const text of brokenTexts(20261128, samples(20_000))) {
      const offset = syntaxErrorOffset(text);
      assert.equal(offset === undefined, parses(text), JSON.stringify(text));
      if (offset === undefined) continue;
      broken++;
      assert.ok(offset <= text.length, JSON.stringify(text));
      // What comes before the offset could still begin a valid text: cut there, the first problem is the end (or there is none).
      assert.ok([undefined, offset].includes(syntaxErrorOffset(text.slice(0, offset))), `${JSON.stringify(text)} at ${offset}`);
      // With the character at the offset, no text could be valid any more: the problem is there already.
      if (offset < text.length) assert.equal(syntaxErrorOffset(text.slice(0, offset + 1)), offset, JSON.stringify(text));
      // parseJsonAt says so in words of its own: V8's position and its echo of the text are dropped, a NUL and a lone CR named.
      const record = parseJsonAt(text, 1);
      assert.ok('error' in record, JSON.stringify(text));
      assert.doesNotMatch(record.error, /position|is not valid JSON|\n/, JSON.stringify(text));
      if (text.includes('\0')) assert.match(record.error, /^a NUL byte at column \d+: JSON text holds none/, JSON.stringify(text));
      else {
        assert.match(record.error, /^invalid JSON( at column \d+)?: \S/, JSON.stringify(text));
        assert.equal(record.error.endsWith("(LF ends a line): convert them, e.g. tr '\\r' '\\n' < IN > OUT"), /\r(?!\n)/.test(text), JSON.stringify(text));
      }
    }
    assert.ok(broken > samples(10_000), `only ${broken} broken texts`);
  });
});

describe('parseJsonAt', () => {
  it('locates an error in a multi-line text by its own line and column, without echoing the text', () => {
    const record = parseJsonAt('{\n  "a": 1,\n  "b": tru\n}', 7);
    assert.equal(record.line, 9);
    assert.equal((record as { error: string }).error, "invalid JSON at column 11: Unexpected token '\\n'");
    assert.deepEqual(parseJsonAt('{"a":1}', 3), { line: 3, value: { a: 1 } });
  });
});

describe('lineOfPath', () => {
  const text = '{\n  "photo": {\n    "content_type": "image",\n    "tags": [1,\n      {"a": "x}\\"y"}]\n  },\n  "title": {}\n}';

  it('finds the line of a member key, through arrays and strings with brackets', () => {
    assert.equal(lineOfPath(text, ['photo']), 2);
    assert.equal(lineOfPath(text, ['photo', 'content_type']), 3);
    assert.equal(lineOfPath(text, ['photo', 'tags', 1, 'a']), 5);
    assert.equal(lineOfPath(text, ['title']), 7);
  });

  it('finds the line of every member of seeded random documents, and of the deepest part present of a missing one, in four layouts', () => {
    const SENTINEL = '\u0000here';
    // Pretty-printed as JSON.stringify does, and compact with a line break after or before each comma.
    const layouts: ((value: unknown) => string)[] = [
      (value) => JSON.stringify(value, null, 2),
      (value) => JSON.stringify(value, null, '\t'),
      (value) => breakAtCommas(JSON.stringify(value), ',\n'),
      (value) => breakAtCommas(JSON.stringify(value), '\r\n,'),
    ];
    let members = 0;
    for (const text of randomJsonTexts(20261129, samples(2_000), { keys: ['id', 'tags', 'a"b', 'c\\'] })) {
      const value = JSON.parse(text) as unknown;
      const paths = pathsOf(value);
      for (const layout of layouts) {
        const laid = layout(value);
        for (const path of paths) {
          // The member's value replaced: what stands before it, its key among it, stays where it was.
          const marked = layout(replaceAt(value, path, SENTINEL));
          const expected = marked.slice(0, marked.indexOf(JSON.stringify(SENTINEL))).split('\n').length;
          assert.equal(lineOfPath(laid, path), expected, `${JSON.stringify(path)} in ${laid}`);
          assert.equal(lineOfPath(laid, [...path, 'missing']), expected, `${JSON.stringify([...path, 'missing'])} in ${laid}`);
          members++;
        }
      }
    }
    assert.ok(members > samples(2_000), `only ${members} members`);
  });

  it('falls back to the deepest part present for a missing member', () => {
    assert.equal(lineOfPath(text, ['title', 'display_hint', 'type']), 7);
    assert.equal(lineOfPath(text, ['nothing']), 1);
  });
});

describe('nestsDeeperThan', () => {
  it('counts brackets outside strings, up to and past the limit', () => {
    assert.equal(nestsDeeperThan('[[{"a":[]}]]', 4), false);
    assert.equal(nestsDeeperThan('[[{"a":[[]]}]]', 4), true);
    assert.equal(nestsDeeperThan('["[[[[[[", "\\"[[[[["]', 1), false);
  });
});
