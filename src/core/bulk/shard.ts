import * as z from 'zod';
import { UsageError } from '../errors.js';
import { countOf } from '../terminal/words.js';

/** Which records are this worker's under `--shard i/n`, and how the shard marks a run's files. */

/** `--shard i/n`: this run is worker `index` of `count`, counted from 0. */
export interface Shard {
  index: number;
  count: number;
}

const SHARD_FORM = /^(\d+)\/(\d+)$/;

const parseShard = (text: string): Shard | undefined => {
  const match = SHARD_FORM.exec(text);
  if (match === null) return undefined;
  const [index, count] = [Number(match[1]), Number(match[2])];
  return Number.isSafeInteger(count) && count >= 1 && index < count ? { index, count } : undefined;
};

/** One message for every bad value on every command, so a typo in a worker's template reads the same everywhere. */
const shardSchema = z.string().transform((text, ctx): Shard => {
  const shard = parseShard(text);
  if (shard === undefined) {
    ctx.addIssue({ code: 'custom', message: `expected i/n with 0 ≤ i < n (worker i of n workers, counted from 0), e.g. 3/16; got ${text}` });
    return z.NEVER;
  }
  return shard;
});

/** The validation of `--shard` (core/cli/bulk-flags, shardFlag). */
export const shardFlagSchema = shardSchema.optional();

/** `3/16` as the user wrote it, or null without --shard (as a checkpoint records it). */
export const formatShard = (shard: Shard | undefined) => (shard === undefined ? null : `${shard.index}/${shard.count}`);

/** `; 37 lines of other shards (--shard 1/4)`, for a run's closing note; nothing without --shard. */
export const otherShardsNote = (count: number, noun: string, shard: Shard | undefined) =>
  shard === undefined ? '' : `; ${countOf(count, noun)} of other shards (--shard ${formatShard(shard)})`;

/**
 * A command's name in the default failed file's name, with the shard: n workers started in the
 * same second would otherwise all append to one file (and each report the others' failures).
 */
export const shardedName = (command: string, shard: Shard | undefined) => (shard === undefined ? command : `${command}-shard-${shard.index}-of-${shard.count}`);

/** A checkpoint records the shard it was written for: another shard's run (or one without --shard) would skip records it never sent. */
export function assertCheckpointShard(path: string, written: string | null, current: Shard | undefined, hint: string): void {
  const wanted = formatShard(current);
  if (written !== wanted) throw new UsageError(`${path} was written for --shard ${written ?? '(none)'}, not ${wanted ?? '(none)'}`, { hint });
}

/** node:crypto, loaded when a key is first hashed: every command loads this module (its --shard), few hash. */
let crypto: typeof import('node:crypto') | undefined;
const nodeCrypto = () => (crypto ??= process.getBuiltinModule('node:crypto'));

/** SHA-256 of a record's key (`user_id:u1`, `id:obj_1`, `line:12`): stable across runs, machines and versions. */
export const keyDigest = (key: string): Buffer => nodeCrypto().hash('sha256', key, 'buffer');

/**
 * The number a key is sharded by: bytes 4–7 of its digest. events send takes the slot of its
 * checkpoint from bytes 0–3, so keeping them apart keeps its lanes balanced inside a shard, and
 * every checkpoint written by a sharded run stays valid.
 */
export const shardHashOf = (digest: Buffer): number => digest.readUInt32BE(4);

export const inShard = (shardHash: number, shard: Shard | undefined) => shard === undefined || shardHash % shard.count === shard.index;

export const keyInShard = (key: string, shard: Shard | undefined) => shard === undefined || inShard(shardHashOf(keyDigest(key)), shard);

/** Whether another shard's worker sends the record: never one without its key (keyOf gives undefined). */
export function inOtherShard<T>(record: T, shard: Shard | undefined, keyOf: (record: T) => string | undefined): boolean {
  const key = shard === undefined ? undefined : keyOf(record);
  return key !== undefined && !keyInShard(key, shard);
}

/**
 * The records of one shard, in input order; `skipped.other_shards` counts the rest (the bulk counts). A record
 * without its key (keyOf gives undefined) is invalid and kept in every shard, so that
 * validation reports it as it would without --shard.
 */
export async function* shardRecords<T>(
  records: AsyncIterable<T>,
  shard: Shard | undefined,
  keyOf: (record: T) => string | undefined,
  skipped: { other_shards: number },
): AsyncGenerator<T> {
  for await (const record of records) {
    if (inOtherShard(record, shard, keyOf)) skipped.other_shards++;
    else yield record;
  }
}
