import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineOfPath, nestsDeeperThan, parseJsonAt, syntaxErrorOffset } from '../../../src/core/json/position.js';

describe('syntaxErrorOffset', () => {
  it('finds the offset of the first syntax error, and none for valid JSON', () => {
    assert.equal(syntaxErrorOffset('{"a": tru}'), 9);
    assert.equal(syntaxErrorOffset('{"a":1,}'), 7);
    assert.equal(syntaxErrorOffset('{"a":1} x'), 8);
    assert.equal(syntaxErrorOffset('[1, 2'), 5);
    assert.equal(syntaxErrorOffset('"bad \\q"'), 6);
    for (const valid of ['{"a":[1,-2.5e3,true,false,null,"x\\u00e9"]}', ' [] ', '"s"', '0']) assert.equal(syntaxErrorOffset(valid), undefined, valid);
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
