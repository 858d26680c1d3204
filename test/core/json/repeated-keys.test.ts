import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonAt } from '../../../src/core/json/position.js';
import { keyAt, namesAKeyTwice, repeatedKeyOffset } from '../../../src/core/json/repeated-keys.js';
import { randomJsonTexts } from '../../helpers/random-json.js';

/** A reference: every object's keys, read by a parser that keeps them all (a JSON.parse reviver sees only the last). */
function referenceRepeats(text: string): boolean {
  let repeats = false;
  const keysOf: string[][] = [];
  // Object keys are the strings followed by a colon; brackets outside strings open and close scopes.
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"(?=\s*:)|"(?:[^"\\]|\\.)*"|[{}[\]]/g)) {
    const token = match[0];
    if (token === '{') keysOf.push([]);
    else if (token === '[') keysOf.push(['\0array']);
    else if (token === '}' || token === ']') keysOf.pop();
    else if (/^\s*:/.test(text.slice(match.index + token.length))) {
      const keys = keysOf.at(-1)!;
      const key = JSON.parse(token) as string;
      if (keys.includes(key)) repeats = true;
      keys.push(key);
    }
  }
  return repeats;
}

describe('repeated keys', () => {
  it('finds a key named twice in one object, at any depth, however it is spelled', () => {
    const cases: [string, string | undefined][] = [
      ['{"id":"a","id":"b"}', 'id'],
      ['{"a":{"k":1},"b":{"k":1}}', undefined],
      ['[{"id":1},{"id":2}]', undefined],
      ['{"t":{"x":[{"q":1, "q" :2}]}}', 'q'],
      ['{"id":"a","\\u0069d":"b"}', 'id'],
      ['{"__proto__":1,"__proto__":2}', '__proto__'],
      ['{"a":"x\\":1,\\"a\\":2","b":1}', undefined],
      ['{"a\\"":1,"a\\"":2}', 'a"'],
      ['{"s":"{\\"k\\":1,\\"k\\":2}"}', undefined],
      ['{\n  "a": 1,\n  "a": 2\n}', 'a'],
    ];
    for (const [text, repeated] of cases) {
      const value = JSON.parse(text) as unknown;
      assert.equal(namesAKeyTwice(text, value), repeated !== undefined, text);
      const offset = repeatedKeyOffset(text);
      assert.equal(offset === -1 ? undefined : keyAt(text, offset), repeated, text);
    }
  });

  it('agrees with a reference over 20,000 random texts, repeated keys among them', () => {
    let repeats = 0;
    for (const text of randomJsonTexts(20261127, 20_000, { keys: ['id', 'title'] })) {
      const value = JSON.parse(text) as unknown;
      const expected = referenceRepeats(text);
      if (expected) repeats++;
      assert.equal(namesAKeyTwice(text, value), expected, text);
      assert.equal(repeatedKeyOffset(text) !== -1, expected, text);
    }
    assert.ok(repeats > 1000, `only ${repeats} texts with a repeated key`);
  });

  it('leaves a key spelled with escapes to the exact check when asked to read bytes as they are', () => {
    assert.equal(repeatedKeyOffset('{"a":1,"\\u0062":2}', 0, undefined, false), 7);
    assert.equal(repeatedKeyOffset('{"a":1,"b":"\\n"}', 0, undefined, false), -1);
  });

  it('counts a key whatever white space stands between it and its colon', () => {
    for (const space of [' ', '\n', '\r', '\t', ' \r\n\t ']) {
      const text = `{"a"${space}:1,"a"${space}:2}`;
      assert.equal(namesAKeyTwice(text, JSON.parse(text)), true, JSON.stringify(text));
      assert.equal(repeatedKeyOffset(text), 7 + space.length, JSON.stringify(text));
      const once = `{"a"${space}:1,"b"${space}:2}`;
      assert.equal(namesAKeyTwice(once, JSON.parse(once)), false, JSON.stringify(once));
    }
  });

  it('decodes a key spelled with escapes unless told not to, so "\\u0062" is not "a"', () => {
    assert.equal(repeatedKeyOffset('{"a":1,"\\u0062":2}'), -1);
    assert.equal(repeatedKeyOffset('{"a":1,"\\u0061":2}'), 7);
  });

  it('looks only at the tokens that start in [from, to), comparing the keys of objects opened there', () => {
    const text = '{"a":1,"a":2}';
    assert.equal(repeatedKeyOffset(text, 0, 7), -1, 'the second key starts at `to`');
    assert.equal(repeatedKeyOffset(text, 0, 8), 7);
    assert.equal(repeatedKeyOffset(text, 1), -1, 'keys of an object opened before `from` are not compared');
    assert.equal(repeatedKeyOffset(`${text}{"b":1,"b":2}`, 13), 20);
  });

  it('makes parseJsonAt refuse the text at the line and column of the second key', () => {
    const record = parseJsonAt('{\n  "a": 1,\n  "a": 2\n}', 4);
    assert.deepEqual(record, {
      line: 6,
      text: '{\n  "a": 1,\n  "a": 2\n}',
      error: 'key "a" named twice in one object at column 3: only the last value would count; name each key once',
    });
  });
});
