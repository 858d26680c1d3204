import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CsafeError, InterruptedError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';
import { spoolRecords, type RecordSpool, type SpoolFormat } from '../../../src/core/bulk/record-spool.js';

// How a bulk command keeps its checked records between the check and the sending pass: what
// comes back is what went in, record for record, in order, held in memory or written to a file
// however the writes and reads cut it.

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
  weight: (item) => item.text.length,
};

async function* inGroups(items: Item[], size: number): AsyncGenerator<Item[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

async function readBack(spool: RecordSpool<Item>): Promise<Item[][]> {
  const groups: Item[][] = [];
  for await (const group of spool.records()) groups.push(group);
  return groups;
}

const signal = new AbortController().signal;

// Some 2.4 MB of lines with characters of two and three bytes, so reads cut inside characters too.
const items = Array.from({ length: 40_000 }, (_, index) => ({ n: index + 1, text: `record ${index + 1} é€ ${'x'.repeat(index % 50)}` }));
const weightOf = (some: Item[]) => some.reduce((sum, item) => sum + item.text.length + 64, 0);

describe('the record spool', () => {
  it('holds records in memory while they weigh no more than its bound: no file, every record back in order, as often as asked', async () => {
    const spool = await spoolRecords(inGroups(items, 7), format, signal, weightOf(items));
    try {
      assert.equal(spool.path, undefined);
      const groups = await readBack(spool);
      assert.ok(groups.length >= 2 && groups.every((group) => group.length <= 4096), `held in ${groups.length} groups`);
      assert.deepEqual(groups.flat(), items);
      assert.deepEqual((await readBack(spool)).flat(), items);
    } finally {
      await spool.remove();
    }
  });

  for (const [when, bound] of [['half way', weightOf(items.slice(0, items.length / 2))], ['at the last record', weightOf(items) - 1]] as const) {
    it(`past its bound ${when}, every record goes to a file: each one once, in order, exactly (more than 64 KiB written, 256 KiB read at a time)`, async () => {
      const spool = await spoolRecords(inGroups(items, 7), format, signal, bound);
      try {
        assert.ok(spool.path !== undefined);
        assert.equal(readFileSync(spool.path, 'utf8'), items.map((item) => `${format.encode(item)}\n`).join(''));
        const groups = await readBack(spool);
        // A group a read: some 2.4 MB come back in 10 groups of 256 KiB (3 of 1 MiB, whose records outlived the young generation).
        const bytes = readFileSync(spool.path).length;
        assert.ok(groups.length >= Math.floor(bytes / (256 * 1024)), `${bytes} bytes read in ${groups.length} groups`);
        assert.deepEqual(groups.flat(), items);
      } finally {
        await spool.remove();
      }
      assert.equal(existsSync(spool.path), false, 'removed');
    });
  }

  it('by default holds records weighing up to 1 Mi characters in memory, and writes more to a file', async () => {
    const kilobyte = (count: number) => Array.from({ length: count }, (_, index) => ({ n: index + 1, text: 'k'.repeat(1000) }));
    for (const [count, held] of [[900, true], [1100, false]] as const) {
      const spool = await spoolRecords(inGroups(kilobyte(count), 100), format, signal);
      try {
        assert.equal(spool.path === undefined, held, `${count} records of 1 kB`);
        assert.equal((await readBack(spool)).flat().length, count);
      } finally {
        await spool.remove();
      }
    }
  });

  it('past its bound in the first group: a file from the start', async () => {
    const spool = await spoolRecords(inGroups(items.slice(0, 3), 3), format, signal, 0);
    try {
      assert.ok(spool.path !== undefined);
      assert.deepEqual(await readBack(spool), [items.slice(0, 3)]);
    } finally {
      await spool.remove();
    }
  });

  it('a file smaller than one read comes back as one group, tabs and all', async () => {
    const some = [
      { n: 1, text: 'one' },
      { n: 2, text: 'two\ttabbed' },
    ];
    const spool = await spoolRecords(inGroups(some, 1), format, signal, 0);
    try {
      assert.deepEqual(await readBack(spool), [some]);
    } finally {
      await spool.remove();
    }
  });

  it('no records: nothing read back, held or written', async () => {
    for (const bound of [0, 1000]) {
      const spool = await spoolRecords(inGroups([], 1), format, signal, bound);
      try {
        assert.equal(spool.path, undefined);
        assert.deepEqual(await readBack(spool), []);
      } finally {
        await spool.remove();
      }
    }
  });

  it('the signal stops the taking (Ctrl-C during the check), and the input is closed', async () => {
    const stop = new AbortController();
    let closed = false;
    async function* endless(): AsyncGenerator<Item[]> {
      try {
        for (let n = 1; ; n++) {
          if (n === 5) stop.abort();
          yield [{ n, text: 'x' }];
        }
      } finally {
        closed = true;
      }
    }
    await assert.rejects(spoolRecords(endless(), format, stop.signal), InterruptedError);
    assert.equal(closed, true);
  });

  it('the signal stops it while the input keeps it waiting (a pipe that says nothing): at once, not at the next chunk', async () => {
    const stop = new AbortController();
    let release: () => void = () => undefined;
    async function* silent(): AsyncGenerator<Item[]> {
      yield [{ n: 1, text: 'x' }];
      await new Promise<void>((resolve) => (release = resolve));
      yield [{ n: 2, text: 'y' }];
    }
    const taking = spoolRecords(silent(), format, stop.signal);
    setImmediate(() => stop.abort());
    const deadline = new Promise((_, reject) => setTimeout(() => reject(new Error('still waiting for the input 2 s after the signal')), 2000).unref());
    await assert.rejects(Promise.race([taking, deadline]), InterruptedError);
    release();
  });

  it('each wait for the input leaves nothing behind: 50,000 groups of one record, under a signal that lives on, hold what they weigh', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const live = new AbortController();
    const ones = async function* (): AsyncGenerator<number[]> {
      for (let n = 0; n < 50_000; n++) yield [n];
    };
    const numbers: SpoolFormat<number> = { encode: String, decode: Number, maxLineBytes: 32, weight: () => 0 };
    gc();
    const before = process.memoryUsage().heapUsed;
    const spool = await spoolRecords(ones(), numbers, live.signal, Number.POSITIVE_INFINITY);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    try {
      // The numbers held take under 1 MB; a race kept for each wait took some 650 bytes a group (33 MB).
      assert.ok(grown < 8 * 1024 * 1024, `the heap grew by ${(grown / 1024 / 1024).toFixed(0)} MB`);
      assert.equal(getEventListeners(live.signal, 'abort').length, 0);
      assert.equal((await readBack(spool as unknown as RecordSpool<Item>)).flat().length, 50_000);
    } finally {
      await spool.remove();
    }
  });

  it('a file that cannot be made (no temporary directory) fails the spool, saying TMPDIR is the way on, and the input is closed', async () => {
    let closed = false;
    async function* items_(): AsyncGenerator<Item[]> {
      try {
        yield* inGroups(items.slice(0, 100), 7);
      } finally {
        closed = true;
      }
    }
    const tmp = process.env.TMPDIR;
    const gone = join(tempDir(), 'gone');
    process.env.TMPDIR = gone;
    try {
      await assert.rejects(spoolRecords(items_(), format, signal, 0), (error: CsafeError) => {
        assert.equal(error.message, `${gone}: could not write a temporary file: no such directory (ENOENT)`);
        assert.match(error.hint ?? '', /set TMPDIR to a directory this user may write to/);
        return true;
      });
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(closed, true);
  });
});
