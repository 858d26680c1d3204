import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NestingTracker, nestsDeeperThan } from '../../../src/core/json/position.js';
import { mulberry32 } from '../../../src/emulator/http/faults.js';

/** The reading nestsDeeperThan must keep: NestingTracker fed one character at a time. */
function trackerSays(text: string, limit: number): boolean {
  const nesting = new NestingTracker();
  for (let i = 0; i < text.length; i++) {
    nesting.step(text.charCodeAt(i));
    if (nesting.depth > limit) return true;
  }
  return false;
}

describe('nestsDeeperThan, which skips strings, and NestingTracker', () => {
  it('agree on a table of edge cases', () => {
    const table = [
      '', '[]', '[[[]]]', '"[[[["', '"\\"[[["', '"\\\\"[[[', '"\\\\\\"[[["', '[[["', ']]][[[[', '"', '\\"[[[', '{"a":"\\\\\\\\"}[[[[',
      `${'['.repeat(3)}"${'\\'.repeat(5)}"[[`, '{"k":[{"k":[{"k":[]}]}]}', '[[[[]]]][[[[', '}}}}[[[[[[[',
    ];
    for (const text of table) for (const limit of [0, 1, 2, 3, 4]) assert.equal(nestsDeeperThan(text, limit), trackerSays(text, limit), `${text} at ${limit}`);
  });

  it('agree on seeded random texts', () => {
    const random = mulberry32(64);
    const pieces = ['[', ']', '{', '}', '"', '\\', 'a', ':', ','];
    for (let i = 0; i < 20_000; i++) {
      const text = Array.from({ length: Math.floor(random() * 30) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const limit = Math.floor(random() * 6);
      assert.equal(nestsDeeperThan(text, limit), trackerSays(text, limit), `${text} at ${limit}`);
    }
  });
});
