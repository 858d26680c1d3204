import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { UsageError } from '../../../src/core/errors.js';
import { parseOptions } from '../../../src/core/cli/options.js';
import { defaultFailedPath } from '../../../src/core/files/failed-path.js';
import { formatShard, inShard, otherShardsNote, keyDigest, keyInShard, shardedName, shardFlagSchema, shardHashOf, shardRecords, type Shard } from '../../../src/core/bulk/shard.js';

const options = z.object({ shard: shardFlagSchema });

/** A small deterministic generator (an LCG), so a failing case can be replayed. */
function* generatedKeys(count: number, seed: number): Generator<string> {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0);
  const kinds = [
    () => `id:obj_${next().toString(36)}`,
    () => `user_id:${next().toString(16)}`,
    () => `line:${(next() % 1_000_000) + 1}`,
    () => `id:${String.fromCodePoint(0x4e00 + (next() % 200))}${next()}`,
  ];
  for (let i = 0; i < count; i++) yield kinds[next() % kinds.length]!();
}

const shards = (count: number): Shard[] => Array.from({ length: count }, (_, index) => ({ index, count }));

describe('--shard i/n', () => {
  it('parses i/n for 0 ≤ i < n and prints it back', () => {
    assert.deepEqual(parseOptions(options, { shard: '3/16' }).shard, { index: 3, count: 16 });
    assert.deepEqual(parseOptions(options, { shard: '0/1' }).shard, { index: 0, count: 1 });
    assert.equal(parseOptions(options, {}).shard, undefined);
    assert.equal(formatShard({ index: 3, count: 16 }), '3/16');
    assert.equal(formatShard(undefined), null);
  });

  it('names the default failed file of a sharded run with its shard, so workers started in the same second do not share one', () => {
    assert.equal(defaultFailedPath(shardedName('data-add', { index: 1, count: 4 }), '<time>'), 'csafe-data-add-shard-1-of-4-failed-<time>.jsonl');
    assert.equal(defaultFailedPath(shardedName('data-add', undefined), '<time>'), 'csafe-data-add-failed-<time>.jsonl');
  });

  it('refuses every other value with one message that names the flag, the form and the value', () => {
    for (const bad of ['3/3', '-1/2', 'a/b', '0/0', '1/', '/2', ' 1/2', '1/2/3', '1.0/2', '0/99999999999999999999']) {
      assert.throws(
        () => parseOptions(options, { shard: bad }),
        (error: unknown) => error instanceof UsageError && error.message === `--shard: expected i/n with 0 ≤ i < n (worker i of n workers, counted from 0), e.g. 3/16; got ${bad}`,
        bad,
      );
    }
  });

  it('puts every key in exactly one of n shards, for n in 1, 2, 3, 7, 16', () => {
    for (const seed of [1, 7, 2026]) {
      const keys = [...generatedKeys(3_000, seed)];
      for (const count of [1, 2, 3, 7, 16]) {
        const owners = keys.map((key) => shards(count).filter((shard) => keyInShard(key, shard)));
        const stray = keys.find((_, i) => owners[i]!.length !== 1);
        assert.equal(stray, undefined, `seed ${seed}, n ${count}: ${stray} is in ${owners[keys.indexOf(stray!)]?.length} shards`);
        const sizes = shards(count).map((shard) => owners.filter(([owner]) => owner!.index === shard.index).length);
        assert.ok(sizes.every((size) => size > keys.length / count / 2), `seed ${seed}, n ${count}: every shard gets a fair part: ${sizes}`);
      }
    }
  });

  it('keeps the shard hash events send has always used: bytes 4–7 of sha256(key)', () => {
    // user_id:u1 → 1039003520 is in the golden values of events send's placement test (checkpoints depend on it).
    assert.equal(shardHashOf(keyDigest('user_id:u1')), 1039003520);
    assert.equal(inShard(1039003520, { index: 0, count: 16 }), true);
    assert.equal(keyInShard('user_id:u1', { index: 0, count: 16 }), true);
    assert.equal(keyInShard('user_id:u1', { index: 1, count: 16 }), false);
    assert.equal(keyInShard('anything', undefined), true);
  });

  it('keeps the records of one shard in input order, counts the rest, and keeps a record without a key in every shard', async () => {
    async function* records() {
      yield* [{ id: 'a' }, { id: 'b' }, {}, { id: 'c' }, { id: 'd' }];
    }
    const keyOf = (record: { id?: string }) => (record.id === undefined ? undefined : `id:${record.id}`);
    const kept: Array<Array<{ id?: string }>> = [];
    let others = 0;
    for (const shard of shards(2)) {
      const skipped = { other_shards: 0 };
      const mine = [];
      for await (const record of shardRecords(records(), shard, keyOf, skipped)) mine.push(record);
      kept.push(mine);
      others += skipped.other_shards;
      assert.equal(skipped.other_shards, 5 - mine.length);
    }
    assert.deepEqual(kept.map((mine) => mine.filter((r) => r.id === undefined).length), [1, 1], 'the record without an id is in both');
    assert.deepEqual(kept.flat().map((r) => r.id).filter(Boolean).sort(), ['a', 'b', 'c', 'd'], 'each keyed record in one shard');
    assert.equal(others, 4);
    const all = [];
    for await (const record of shardRecords(records(), undefined, keyOf, { other_shards: 0 })) all.push(record);
    assert.equal(all.length, 5);
  });
});

describe('otherShardsNote', () => {
  it('says how many records other workers have, with the shard as written, and nothing without --shard', () => {
    assert.equal(otherShardsNote(37, 'line', { index: 1, count: 4 }), '; 37 lines of other shards (--shard 1/4)');
    assert.equal(otherShardsNote(1, 'object', { index: 0, count: 2 }), '; 1 object of other shards (--shard 0/2)');
    assert.equal(otherShardsNote(5, 'line', undefined), '');
  });
});
