import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callsByNameOnly } from './call-sites.js';

describe('the call-count guard: JSON.parse reached only by a call by name', () => {
  it('accepts calls, and the name in comments', () => {
    assert.equal(callsByNameOnly('const v = JSON.parse(text);\n/* JSON.parse, then the check */\n  // see JSON.parse\nJSON.stringify(v);'), true);
  });

  for (const source of ['lines.map(JSON.parse);', 'const { parse } = JSON;', 'const { stringify, parse: read } = JSON;', 'const J = JSON;\nJ.parse(t);']) {
    it(`refuses ${JSON.stringify(source)}`, () => assert.equal(callsByNameOnly(source), false));
  }
});
