import { hash } from 'node:crypto';
import { keyDigest, shardHashOf } from '../../../core/shard.js';

/**
 * Checkpoint progress is kept per slot, not per user: a file of a million users still gives a
 * checkpoint of at most this many numbers, whatever --concurrency a later run uses.
 */
export const SLOT_COUNT = 1024;

type EventRecord = Record<string, unknown>;

/**
 * Events that must keep their order share a partition: a user's events by user_id; a
 * moderation_decision (which has no user_id) by the content it is about, else its source.
 */
export function partitionOf(event: EventRecord): string {
  for (const field of ['user_id', 'content_id', 'source_id'] as const) {
    const value = event[field];
    if (typeof value === 'string') return `${field}:${value}`;
  }
  return 'unkeyed';
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

/** JSON with object keys sorted at every level, so equal events give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as EventRecord;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A key derived from the event's content alone: a retry, or a re-run over the same file, sends
 * the same key, so the service ingests the event once. Two events identical in every field
 * (timestamp included) are taken to be the same logical event.
 */
export function derivedIdempotencyKey(event: EventRecord): string {
  const { idempotency_key: _ignored, ...rest } = event;
  return `csafe-${hash('sha256', canonicalJson(rest), 'hex').slice(0, 32)}`;
}

export function withIdempotencyKey(event: EventRecord): EventRecord {
  return typeof event.idempotency_key === 'string' ? event : { ...event, idempotency_key: derivedIdempotencyKey(event) };
}
