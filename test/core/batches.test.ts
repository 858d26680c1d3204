import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { inBatches } from '../../src/core/batches.js';
import { lineOfPath } from '../../src/core/json-locate.js';

const collect = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

describe('inBatches', () => {
  const sizes = (values: number[]) => Readable.from(values) as AsyncIterable<number>;

  it('cuts by count', async () => {
    assert.deepEqual(await collect(inBatches(sizes([1, 1, 1, 1, 1]), { maxItems: 2, maxBytes: 100, sizeOf: (n) => n })), [[1, 1], [1, 1], [1]]);
  });

  it('cuts by bytes, never over the cap, and gives an item bigger than the cap a batch of its own', async () => {
    const batches = await collect(inBatches(sizes([4, 4, 3, 9, 12, 1]), { maxItems: 100, maxBytes: 10, sizeOf: (n) => n }));
    assert.deepEqual(batches, [[4, 4], [3], [9], [12], [1]]);
  });

  it('yields nothing for no items', async () => {
    assert.deepEqual(await collect(inBatches(sizes([]), { maxItems: 2, maxBytes: 10, sizeOf: (n) => n })), []);
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
