import { encodeBatch, sendEvents } from '../../../api/events.js';
import { InterruptedError, stopsTheRun } from '../../../core/errors.js';
import type { FailFast } from '../../../core/fail-fast.js';
import type { FailedFile } from '../../../core/failed-file.js';
import type { HttpClient } from '../../../core/http.js';
import type { IOStreams } from '../../../core/io.js';
import { inShard } from '../../../core/shard.js';
import { runLanes } from '../../../core/lanes.js';
import type { Spinner } from '../../../core/spinner.js';
import type { CheckedRecord } from './checked.js';
import { problemLines } from './checked.js';
import type { Checkpoint } from './checkpoint.js';
import type { SendOptions } from './options.js';
import { partitionOf, placementOf, withIdempotencyKey } from './placement.js';
import type { Tally } from './summary.js';

/** An event on its way: where it came from, which partition it keeps order in, and the exact text sent. */
interface OutgoingEvent {
  position: number;
  line: number;
  partition: string;
  slot: number;
  json: string;
}

/** Sends one batch, returning the retries it took: queued by default (queueBatch), ingested with --sync. */
export type BatchSender = (events: readonly OutgoingEvent[]) => Promise<{ retries: number }>;

export const queueBatch = (http: HttpClient): BatchSender => (events) => sendEvents(http, encodeBatch(events.map((event) => event.json)));

export interface Delivery {
  send: BatchSender;
  io: IOStreams;
  inputName: string;
  options: SendOptions;
  tally: Tally;
  /** Events that could not be delivered, exactly as sent, so the file can be resent as-is. */
  failed: FailedFile;
  /** --skip-invalid: records that are not valid events. Without it none are expected here (the input was checked first). */
  invalid?: FailedFile;
  checkpoint?: Checkpoint;
  progress: Spinner;
  /** --max-consecutive-failures: every batch is sent through it. */
  failFast: FailFast;
  /** Set on a failure that stops the run (stopsTheRun: a 401/403, a Retry-After over --max-wait; the service unreachable): no later batch is sent, the rest go straight to the failed file. */
  halted?: Error;
}

/**
 * Sends the events in ordered batches over --concurrency lanes. A partition (one user) always
 * uses the same lane, so its events arrive in file order; once one of its batches fails, the
 * rest of that partition goes to the failed file instead, so order is never broken.
 */
export async function deliver(records: AsyncIterable<CheckedRecord>, delivery: Delivery): Promise<void> {
  const stopped = new Set<string>();
  const lanes = delivery.options.concurrency;
  await runLanes(
    outgoing(records, delivery),
    {
      lanes,
      laneOf: (event) => event.slot % lanes,
      maxBatchItems: delivery.options.batchSize,
      maxBatchBytes: delivery.options.maxBatchBytes,
      sizeOf: (event) => Buffer.byteLength(event.json) + 1,
    },
    (batch) => deliverBatch(batch, delivery, stopped),
  );
}

async function* outgoing(records: AsyncIterable<CheckedRecord>, delivery: Delivery): AsyncGenerator<OutgoingEvent> {
  const { tally, options, checkpoint } = delivery;
  for await (const record of records) {
    tally.read++;
    if ('problems' in record) {
      tally.invalid++;
      for (const line of problemLines(delivery.inputName, record)) delivery.io.warn(line);
      const text = typeof record.original === 'string' ? record.original : JSON.stringify(record.original);
      await delivery.invalid?.append({ line: record.line, error: record.problems.join('; '), record: text }, record.line);
      continue;
    }
    tally.valid++;
    const partition = partitionOf(record.event);
    const placement = placementOf(partition);
    if (!inShard(placement.shardHash, options.shard)) {
      tally.other_shards++;
      continue;
    }
    if (checkpoint?.isSettled(placement.slot, record.position)) {
      tally.skipped_checkpoint++;
      continue;
    }
    const event = options.autoIdempotency ? withIdempotencyKey(record.event) : record.event;
    yield { position: record.position, line: record.line, partition, slot: placement.slot, json: JSON.stringify(event) };
  }
}

async function deliverBatch(batch: OutgoingEvent[], delivery: Delivery, stopped: Set<string>): Promise<void> {
  const { tally } = delivery;
  const held = (event: OutgoingEvent) => delivery.halted !== undefined || stopped.has(event.partition);
  const toSend = batch.filter((event) => !held(event));
  const handBack = batch.filter(held);
  if (toSend.length > 0) {
    try {
      const { retries } = await delivery.failFast.send(() => delivery.send(toSend));
      tally.sent += toSend.length;
      tally.batches++;
      tally.retries += retries;
    } catch (error) {
      if (error instanceof InterruptedError) throw error;
      const unreachable = delivery.failFast.isStop(error);
      if (stopsTheRun(error) || unreachable) delivery.halted ??= error as Error;
      const lines = `${toSend[0]!.line}-${toSend.at(-1)!.line}`;
      // The service unreachable is said once, when the run ends.
      if (!unreachable) delivery.io.warn(`${delivery.inputName}:${lines}: a batch of ${toSend.length} events failed, so its users' later events are held back too: ${(error as Error).message}`);
      for (const event of toSend) stopped.add(event.partition);
      handBack.push(...toSend);
    }
  }
  recordAcknowledged(batch, new Set(handBack), delivery.checkpoint);
  handBack.sort((a, b) => a.position - b.position);
  await delivery.failed.appendLines(handBack.map((event) => ({ text: event.json, line: event.line })));
  tally.failed += handBack.length;
  delivery.progress.update(`sent ${tally.sent}, failed ${tally.failed}, skipped ${tally.skipped_checkpoint + tally.other_shards}`);
  await delivery.checkpoint?.saveIfDue();
}

/** Only what the service acknowledged is done: a failed or held-back event stops its slot's progress, so the next run sends it. */
function recordAcknowledged(batch: readonly OutgoingEvent[], notAcknowledged: ReadonlySet<OutgoingEvent>, checkpoint: Checkpoint | undefined): void {
  for (const event of batch) {
    if (notAcknowledged.has(event)) checkpoint?.hold(event.slot);
    else checkpoint?.acknowledge(event.slot, event.position);
  }
}
