import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inShard } from '../../../src/core/bulk/shard.js';
import { canonicalJson, jsonString } from '../../../src/core/json/canonical.js';
import { derivedIdempotencyKey, partitionOf, placementOf, Placements, SLOT_COUNT, withIdempotencyKey } from '../../../src/commands/events/send/placement.js';
import { mulberry32 } from '../../../src/emulator/http/faults.js';
import { eventsSend } from '../../../src/commands/events/send/send-command.js';
import { optionsSchema } from '../../../src/core/cli/options.js';

describe('partitions, shards and idempotency keys', () => {
  it('partitions by user_id, else (moderation_decision) by content_id, else source_id', () => {
    assert.equal(partitionOf({ user_id: 'u1', content_id: 'c1' }), 'user_id:u1');
    assert.equal(partitionOf({ content_id: 'c1', source_id: 's1' }), 'content_id:c1');
    assert.equal(partitionOf({ source_id: 's1' }), 'source_id:s1');
  });

  it('remembers each partition\'s placement, the same as placementOf(partitionOf(event))', () => {
    const placements = new Placements();
    const events = [{ user_id: 'u1', content_id: 'c1' }, { content_id: 'c1' }, { source_id: 's1' }, { user_id: 7, source_id: 's1' }, {}, { user_id: 'u1' }, { content_id: 'u1' }];
    for (const event of [...events, ...events]) {
      assert.deepEqual(placements.of(event), { partition: partitionOf(event), ...placementOf(partitionOf(event)) });
    }
    // As many users as there are: what it remembers is bounded, and every answer stays the same.
    for (let n = 0; n < 70_000; n += 1) placements.of({ user_id: `u${n}` });
    assert.deepEqual(placements.of({ user_id: 'u69999' }), { partition: 'user_id:u69999', ...placementOf('user_id:u69999') });
    assert.deepEqual(placements.of({ user_id: 'u1' }), { partition: 'user_id:u1', ...placementOf('user_id:u1') });
  });

  it('keeps a user who keeps coming remembered while partitions seen once pass through (each is hashed once, not again)', () => {
    const placements = new Placements();
    const user = placements.of({ user_id: 'u1' });
    // A moderation_decision's content comes once: far more of them than are remembered, between the user's events.
    for (let n = 0; n < 200_000; n++) {
      placements.of({ content_id: `c${n}` });
      if (n % 1000 === 0) assert.equal(placements.of({ user_id: 'u1' }), user);
    }
  });

  // Golden values: a checkpoint records progress per slot, and --shard splits by shardHash, so a
  // change of the hash (or of which bytes it reads) would apply old checkpoints to the wrong users.
  // Each is sha256(partition): slot = first 4 bytes (big-endian) mod 1024, shardHash = the next 4.
  it('places partitions on the slots and shard hashes that existing checkpoints were written with', () => {
    assert.equal(SLOT_COUNT, 1024);
    assert.deepEqual(
      ['user_id:u1', 'user_id:user_42', 'content_id:c1', 'source_id:s1', 'unkeyed'].map((partition) => placementOf(partition)),
      [
        { slot: 135, shardHash: 1039003520 },
        { slot: 470, shardHash: 3501278695 },
        { slot: 4, shardHash: 1235581547 },
        { slot: 157, shardHash: 81013634 },
        { slot: 721, shardHash: 2991269399 },
      ],
    );
    assert.equal(inShard(1039003520, { index: 0, count: 16 }), true, '1039003520 % 16 is 0');
    assert.equal(inShard(1039003520, { index: 1, count: 16 }), false);
    assert.equal(inShard(1039003520, undefined), true);
  });

  it('derives the idempotency keys that earlier runs sent, from canonical JSON', () => {
    assert.equal(canonicalJson({ b: [1, { d: null, c: 'x' }], a: true }), '{"a":true,"b":[1,{"c":"x","d":null}]}');
    assert.equal(derivedIdempotencyKey({ type: 'create_account', user_id: 'u1', metadata: { x: 1, y: [1, 2] } }), 'csafe-6ae45f935be0be3bca372c1dea39d25d');
    const uploaded = { type: 'content_uploaded', user_id: 'u1', timestamp: '2026-08-11T00:00:00.000Z', content: [{ type: 'text', text: 'héllo' }] };
    assert.equal(derivedIdempotencyKey(uploaded), 'csafe-5980faaf020e27dad2c091af0d6ac77b');
    assert.equal(derivedIdempotencyKey({ ...uploaded, idempotency_key: 'mine' }), 'csafe-5980faaf020e27dad2c091af0d6ac77b');
  });

  it('writes every string exactly as JSON.stringify does (a table of edge cases, and seeded random strings)', () => {
    const table = ['', 'plain', 'héllo', 'a"b', 'a\\b', 'tab\there', 'nl\n', '\u0000', '\u001f', '\u007f', '\u2028\u2029', '😀', '\ud83d', 'x\ude00', '</script>', '/'];
    const random = mulberry32(14);
    const pick = (): string => String.fromCharCode(random() < 0.7 ? 32 + Math.floor(random() * 95) : Math.floor(random() * 0x10000));
    const drawn = Array.from({ length: 5_000 }, () => Array.from({ length: Math.floor(random() * 12) }, pick).join(''));
    for (const text of [...table, ...drawn]) assert.equal(jsonString(text), JSON.stringify(text), JSON.stringify(text));
  });

  it('splits partitions into shards that are disjoint and complete, and balanced', () => {
    const partitions = Array.from({ length: 10_000 }, (_, i) => `user_id:u${i}`);
    const count = 4;
    const owners = partitions.map((p) => [0, 1, 2, 3].filter((index) => inShard(placementOf(p).shardHash, { index, count })));
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
    const sendOptionsSchema = optionsSchema(eventsSend.flags);
    assert.deepEqual(sendOptionsSchema.parse({ shard: '3/16' }).shard, { index: 3, count: 16 });
    assert.equal(sendOptionsSchema.safeParse({ shard: '16/16' }).success, false);
    assert.equal(sendOptionsSchema.safeParse({ shard: '1/0' }).success, false);
    assert.equal(sendOptionsSchema.safeParse({ shard: 'x' }).success, false);
  });
});
