import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addRange, inRanges, RangesText, type Ranges } from '../../../src/core/files/position-ranges.js';

/** The ranges a set of positions makes: sorted, disjoint, no two touching. */
function rangesOf(positions: Set<number>): Ranges {
  const ranges: Ranges = [];
  for (const position of [...positions].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last !== undefined && last[1] + 1 === position) last[1] = position;
    else ranges.push([position, position]);
  }
  return ranges;
}

/** A small generator of its own, so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('position ranges, what a checkpoint keeps of the records dealt with', () => {
  it('merges a range with every range it overlaps or touches, on either side', () => {
    const ranges: Ranges = [
      [1, 2],
      [5, 6],
      [9, 9],
      [20, 30],
    ];
    addRange(ranges, 3, 9);
    assert.deepEqual(ranges, [
      [1, 9],
      [20, 30],
    ]);
    addRange(ranges, 12, 13);
    addRange(ranges, 31, 31);
    addRange(ranges, 15, 15);
    assert.deepEqual(ranges, [
      [1, 9],
      [12, 13],
      [15, 15],
      [20, 31],
    ]);
  });

  it('keeps the same positions as a set does, whatever order they come in', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const ranges: Ranges = [];
      const positions = new Set<number>();
      for (let added = 0; added < 60; added++) {
        const first = 1 + Math.floor(next() * 100);
        const last = first + Math.floor(next() * (next() < 0.7 ? 1 : 8));
        addRange(ranges, first, last);
        for (let position = first; position <= last; position++) positions.add(position);
        assert.deepEqual(ranges, rangesOf(positions), `seed ${seed}, after adding [${first}, ${last}]`);
      }
      for (let position = 0; position <= 110; position++) assert.equal(inRanges(ranges, position), positions.has(position), `seed ${seed}, position ${position}`);
    }
  });

  it('changes the ranges it is given, so a checkpoint holding them saves what was added', () => {
    const ranges: Ranges = [[1, 1]];
    addRange(ranges, 2, 2);
    assert.deepEqual(ranges, [[1, 2]]);
  });

  it('RangesText: the text it keeps between saves is the ranges\' JSON after every change, in order or not', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const ranges: Ranges = [];
      const text = new RangesText();
      assert.equal(text.of(ranges), '[]');
      for (let added = 0; added < 60; added++) {
        // Mostly past the end, as a run acknowledges; now and then anywhere, and not written every time.
        const tail = ranges.at(-1)?.[1] ?? 0;
        const first = next() < 0.8 ? tail + 1 + Math.floor(next() * 3) : 1 + Math.floor(next() * (tail + 2));
        text.changed(addRange(ranges, first, first + Math.floor(next() * 3)));
        if (next() < 0.7) assert.equal(text.of(ranges), JSON.stringify(ranges), `seed ${seed}, after adding at ${first}`);
      }
      assert.equal(text.of(ranges), JSON.stringify(ranges), `seed ${seed}, at the end`);
    }
  });
});
