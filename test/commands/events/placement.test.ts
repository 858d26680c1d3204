import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson, derivedIdempotencyKey, inShard, partitionOf, placementOf, SLOT_COUNT, withIdempotencyKey } from '../../../src/commands/events/send/placement.js';
import { sendOptionsSchema } from '../../../src/commands/events/send/options.js';

describe('partitions, shards and idempotency keys', () => {
  it('partitions by user_id, else (moderation_decision) by content_id, else source_id', () => {
    assert.equal(partitionOf({ user_id: 'u1', content_id: 'c1' }), 'user_id:u1');
    assert.equal(partitionOf({ content_id: 'c1', source_id: 's1' }), 'content_id:c1');
    assert.equal(partitionOf({ source_id: 's1' }), 'source_id:s1');
  });

  it('places a partition on the same slot every time', () => {
    const { slot } = placementOf('user_id:u1');
    assert.ok(slot >= 0 && slot < SLOT_COUNT);
    assert.deepEqual(placementOf('user_id:u1'), placementOf('user_id:u1'));
  });

  it('splits partitions into shards that are disjoint and complete, and balanced', () => {
    const partitions = Array.from({ length: 10_000 }, (_, i) => `user_id:u${i}`);
    const count = 4;
    const owners = partitions.map((p) => [0, 1, 2, 3].filter((index) => inShard(placementOf(p), { index, count })));
    assert.ok(owners.every((o) => o.length === 1), 'each partition in exactly one shard');
    const sizes = [0, 1, 2, 3].map((index) => owners.filter((o) => o[0] === index).length);
    assert.ok(sizes.every((size) => size > 2_200 && size < 2_800), `balanced: ${sizes}`);
  });

  it('derives the same key whatever the key order, ignoring an idempotency_key field, and keeps a given key', () => {
    const a = { type: 'create_account', user_id: 'u1', metadata: { x: 1, y: [1, 2] } };
    const b = { metadata: { y: [1, 2], x: 1 }, user_id: 'u1', type: 'create_account' };
    assert.equal(canonicalJson(a), canonicalJson(b));
    assert.equal(derivedIdempotencyKey(a), derivedIdempotencyKey(b));
    assert.match(derivedIdempotencyKey(a), /^csafe-[0-9a-f]{32}$/);
    assert.notEqual(derivedIdempotencyKey(a), derivedIdempotencyKey({ ...a, user_id: 'u2' }));
    assert.equal(withIdempotencyKey({ ...a, idempotency_key: 'mine' }).idempotency_key, 'mine');
    assert.equal(withIdempotencyKey(a).idempotency_key, derivedIdempotencyKey(a));
  });

  it('parses --shard i/n and refuses i >= n', () => {
    assert.deepEqual(sendOptionsSchema.parse({ shard: '3/16' }).shard, { index: 3, count: 16 });
    assert.equal(sendOptionsSchema.safeParse({ shard: '16/16' }).success, false);
    assert.equal(sendOptionsSchema.safeParse({ shard: '1/0' }).success, false);
    assert.equal(sendOptionsSchema.safeParse({ shard: 'x' }).success, false);
  });
});
