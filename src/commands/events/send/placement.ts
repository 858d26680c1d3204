import { keyDigest, shardHashOf } from '../../../core/bulk/shard.js';
import { contentKey } from '../../../core/json/canonical.js';

/**
 * Checkpoint progress is kept per slot, not per user: a file of a million users still gives a
 * checkpoint of at most this many numbers, whatever --concurrency a later run uses.
 */
export const SLOT_COUNT = 1024;

type EventRecord = Record<string, unknown>;

const PARTITION_FIELDS = ['user_id', 'content_id', 'source_id'] as const;

/** The first of PARTITION_FIELDS the event has as a string: its index, or -1. */
function partitionFieldOf(event: EventRecord): number {
  for (let index = 0; index < PARTITION_FIELDS.length; index++) if (typeof event[PARTITION_FIELDS[index]!] === 'string') return index;
  return -1;
}

/**
 * Events that must keep their order share a partition: a user's events by user_id; a
 * moderation_decision (which has no user_id) by the content it is about, else its source.
 */
export function partitionOf(event: EventRecord): string {
  const index = partitionFieldOf(event);
  if (index === -1) return 'unkeyed';
  const field = PARTITION_FIELDS[index]!;
  return `${field}:${event[field] as string}`;
}

export interface Placement {
  slot: number;
  /** A number for --shard i/n, taken from other bits than the slot so lanes stay balanced inside a shard. */
  shardHash: number;
}

export function placementOf(partition: string): Placement {
  const digest = keyDigest(partition);
  return { slot: digest.readUInt32BE(0) % SLOT_COUNT, shardHash: shardHashOf(digest) };
}

/** Partitions whose placement is remembered: enough for the users of a busy file, few enough to keep memory flat. */
const REMEMBERED_PARTITIONS = 65_536;

/** An event's partition (partitionOf) and its placement. */
export interface PartitionPlacement extends Placement {
  partition: string;
}

/**
 * Each event's partition and placement, hashed once per partition (a user's events share it) as
 * long as it is remembered. Looked up by the field's value, so no partition text is built per event.
 * Two generations: when the recent one is full it becomes the older one, and a partition found
 * there moves back to the recent one, so users who keep coming stay remembered while partitions
 * seen once (a moderation_decision's content) pass through.
 */
export class Placements {
  private recent = newGeneration();
  private older = newGeneration();
  private remembered = 0;
  private unkeyed?: PartitionPlacement;

  of(event: EventRecord): PartitionPlacement {
    const index = partitionFieldOf(event);
    if (index === -1) return (this.unkeyed ??= { partition: 'unkeyed', ...placementOf('unkeyed') });
    const value = event[PARTITION_FIELDS[index]!] as string;
    return this.recent[index]!.get(value) ?? this.recall(index, value);
  }

  private recall(index: number, value: string): PartitionPlacement {
    let placement = this.older[index]!.get(value);
    if (placement === undefined) {
      const partition = `${PARTITION_FIELDS[index]}:${value}`;
      placement = { partition, ...placementOf(partition) };
    }
    if (++this.remembered > REMEMBERED_PARTITIONS / 2) {
      this.older = this.recent;
      this.recent = newGeneration();
      this.remembered = 1;
    }
    this.recent[index]!.set(value, placement);
    return placement;
  }
}

const newGeneration = () => PARTITION_FIELDS.map(() => new Map<string, PartitionPlacement>());

/**
 * A key derived from the event's content alone: a retry, or a re-run over the same file, sends
 * the same key, so the service ingests the event once. Two events identical in every field
 * (timestamp included) are taken to be the same logical event.
 */
export const derivedIdempotencyKey = (event: EventRecord): string => contentKey(event, 'idempotency_key');

export function withIdempotencyKey(event: EventRecord): EventRecord {
  return typeof event.idempotency_key === 'string' ? event : { ...event, idempotency_key: derivedIdempotencyKey(event) };
}

/**
 * The exact text sent for the event: JSON.stringify(withIdempotencyKey(event)) with auto
 * idempotency, JSON.stringify(event) without. The key joins the event's own text at its end
 * rather than a copy of the event, where that gives the same text.
 */
export function outgoingJson(event: EventRecord, autoIdempotency: boolean): string {
  if (!autoIdempotency || typeof event.idempotency_key === 'string') return JSON.stringify(event);
  if (Object.hasOwn(event, 'idempotency_key')) return JSON.stringify(withIdempotencyKey(event));
  const json = JSON.stringify(event);
  return json === '{}' ? JSON.stringify(withIdempotencyKey(event)) : `${json.slice(0, -1)},"idempotency_key":"${derivedIdempotencyKey(event)}"}`;
}
