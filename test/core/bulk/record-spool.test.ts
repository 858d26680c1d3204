import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { spooledRecords, spoolRecords, type SpoolFormat } from '../../../src/core/bulk/record-spool.js';

// How a bulk command keeps its checked records between the check and the sending pass: what
// comes back is what went in, record for record, in order, however the writes and reads cut it.

interface Item {
  n: number;
  text: string;
}

const format: SpoolFormat<Item> = {
  encode: (item) => `${item.n}\t${JSON.stringify(item.text)}`,
  decode: (line) => {
    const tab = line.indexOf('\t');
    return { n: Number(line.slice(0, tab)), text: JSON.parse(line.slice(tab + 1)) as string };
  },
  maxLineBytes: 1024,
};

async function* inGroups(items: Item[], size: number): AsyncGenerator<Item[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

async function readBack(path: string): Promise<Item[][]> {
  const groups: Item[][] = [];
  for await (const group of spooledRecords(path, format)) groups.push(group);
  return groups;
}

const signal = new AbortController().signal;

describe('the record spool', () => {
  it('keeps every record, in order and exactly, across many writes and many reads (more than 64 KiB written, 1 MiB read at a time)', async () => {
    // Some 2.4 MB of lines with characters of two and three bytes, so reads cut inside characters too.
    const items = Array.from({ length: 40_000 }, (_, index) => ({ n: index + 1, text: `record ${index + 1} é€ ${'x'.repeat(index % 50)}` }));
    const spool = await spoolRecords(inGroups(items, 7), format, signal);
    try {
      assert.equal(readFileSync(spool.path, 'utf8'), items.map((item) => `${format.encode(item)}\n`).join(''));
      const groups = await readBack(spool.path);
      assert.ok(groups.length >= 2, `read in ${groups.length} groups`);
      assert.deepEqual(groups.flat(), items);
    } finally {
      await spool.remove();
    }
  });

  it('a spool smaller than one read comes back as one group', async () => {
    const items = [
      { n: 1, text: 'one' },
      { n: 2, text: 'two\ttabbed' },
    ];
    const spool = await spoolRecords(inGroups(items, 1), format, signal);
    try {
      assert.deepEqual(await readBack(spool.path), [items]);
    } finally {
      await spool.remove();
    }
  });

  it('no records: an empty file, and nothing read back', async () => {
    const spool = await spoolRecords(inGroups([], 1), format, signal);
    try {
      assert.equal(readFileSync(spool.path, 'utf8'), '');
      assert.deepEqual(await readBack(spool.path), []);
    } finally {
      await spool.remove();
    }
  });
});
