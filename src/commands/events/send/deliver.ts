import { encodeBatch, ingestEvents, sendEvents } from '../../../api/events.js';
import type { BulkJob } from '../../../core/bulk/engine.js';
import type { HttpClient } from '../../../core/http/client.js';
import type { Checkpoint } from './checkpoint.js';
import type { SendOptions } from './options.js';
import type { OutgoingEvent } from './outgoing.js';

/** Sends one batch, answering what the command prints of it (with --sync, its event ids): queued by default (queueBatch), ingested with --sync. */
export type BatchSender<A = void> = (events: readonly OutgoingEvent[]) => Promise<A>;

export const queueBatch = (http: HttpClient): BatchSender => (events) => sendEvents(http, encodeBatch(events.map((event) => event.json)), allKeyed(events));

/** With --sync: each batch ingested before the answer, which gives each event's id, in order. */
export const ingestBatch = (http: HttpClient): BatchSender<string[]> => (events) => ingestEvents(http, encodeBatch(events.map((event) => event.json)), events.length, allKeyed(events));

/** Whether a batch may be sent again after a lost answer: the service stores an event with an idempotency_key once. */
const allKeyed = (events: readonly OutgoingEvent[]) => events.every((event) => event.keyed);

/**
 * `events send` on the bulk engine: ordered batches over --concurrency lanes. A partition (one
 * user) always uses the same lane, so its events arrive in file order; once one of its batches
 * fails, the rest of that partition (with a checkpoint, of its checkpoint slot) goes to the
 * failed file instead, so order is never broken.
 * A batch of events without idempotency keys whose answer was lost may have been stored: it goes
 * to the unconfirmed file, and its users' later events still go (holding them back would leave
 * them for a re-run that skips this batch anyway).
 */
export function eventsJob<A>(send: BatchSender<A>, inputName: string, checkpoint: Checkpoint | undefined, onAnswer?: (answer: A) => Promise<void>): BulkJob<OutgoingEvent, A> {
  return {
    noun: 'event',
    inputName,
    send,
    replaySafe: allKeyed,
    order: checkpoint === undefined ? BY_USER : BY_CHECKPOINT_SLOT,
    async acknowledged(batch, answer) {
      acknowledge(batch, checkpoint);
      await onAnswer?.(answer);
    },
    // An unconfirmed event is dealt with: the next run must not send it again. A failed one, or one held back behind it, stops its slot's progress, so the next run sends it.
    notAcknowledged: (batch, file) => (file === 'unconfirmed' ? acknowledge(batch, checkpoint) : batch.forEach((event) => checkpoint?.hold(event.slot))),
  };
}

/** Once a batch fails, the later events of its users are held back: their order is kept. */
const BY_USER = { keyOf: (event: OutgoingEvent) => event.partition, heldNote: "so its users' later events are held back too" };

/**
 * With a checkpoint, the later events of its checkpoint slots (its users' among them): a slot's
 * progress is one position, which stops before the failed event, so the next run sends every
 * later event of the slot again. Sent meanwhile, the events of other users in the slot arrived
 * twice: without idempotency keys, stored twice.
 */
const BY_CHECKPOINT_SLOT = { keyOf: (event: OutgoingEvent) => String(event.slot), heldNote: 'so the later events that share its users\' checkpoint slots are held back too, for the same command to send' };

function acknowledge(batch: readonly OutgoingEvent[], checkpoint: Checkpoint | undefined): void {
  if (checkpoint !== undefined) for (const event of batch) checkpoint.acknowledge(event.slot, event.position);
}

/** The lanes events travel on: a slot's events share one, so a partition keeps its order. */
export const eventLanes = (options: Pick<SendOptions, 'concurrency'>) => ({ lanes: options.concurrency, laneOf: (event: OutgoingEvent) => event.slot % options.concurrency });

export const eventBatchLimits = (options: Pick<SendOptions, 'batchSize' | 'maxBatchBytes'>) => ({
  maxItems: options.batchSize,
  maxBytes: options.maxBatchBytes,
  sizeOf: (event: OutgoingEvent) => Buffer.byteLength(event.json) + 1,
});
