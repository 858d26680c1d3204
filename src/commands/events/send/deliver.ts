import { encodeBatch, sendEvents } from '../../../api/events.js';
import { batchLines } from '../../../core/bulk/batches.js';
import { InterruptedError, mayHaveBeenApplied, stopsTheRun } from '../../../core/errors.js';
import type { FailFast } from '../../../core/bulk/fail-fast.js';
import type { FailedFile } from '../../../core/files/failed-file.js';
import type { HttpClient } from '../../../core/http/client.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import { runLanesInGroups } from '../../../core/bulk/lanes.js';
import { countOf } from '../../../core/terminal/words.js';
import type { Spinner } from '../../../core/terminal/spinner.js';
import type { Checkpoint } from './checkpoint.js';
import type { SendOptions } from './options.js';
import type { OutgoingEvent } from './outgoing.js';
import type { Tally } from './summary.js';
import { sayAwaitedAnswersOnInterrupt } from '../../../core/cli/resume.js';
import { InFlight } from '../../../core/bulk/in-flight.js';

/** Sends one batch, returning the retries it took: queued by default (queueBatch), ingested with --sync. */
export type BatchSender = (events: readonly OutgoingEvent[]) => Promise<{ retries: number }>;

export const queueBatch = (http: HttpClient): BatchSender => (events) => sendEvents(http, encodeBatch(events.map((event) => event.json)), allKeyed(events));

/** Whether a batch may be sent again after a lost answer: the service stores an event with an idempotency_key once. */
export const allKeyed = (events: readonly OutgoingEvent[]) => events.every((event) => event.keyed);

export interface Delivery {
  send: BatchSender;
  io: IOStreams;
  inputName: string;
  options: SendOptions;
  tally: Tally;
  /** Events that could not be delivered, exactly as sent, so the file can be resent as-is. */
  failed: FailedFile;
  /** Events without an idempotency_key whose batch may have been stored (its answer was lost): not safe to resend. */
  unconfirmed: FailedFile;
  checkpoint?: Checkpoint;
  progress: Spinner;
  /** Every batch is sent through it; once it halts the run (credentials refused, the service unreachable …), the batches left go to the failed file unsent. */
  failFast: FailFast;
  /** Ctrl-C or SIGTERM: no new batch is sent; those in flight are answered first, so the checkpoint records them. */
  signal: AbortSignal;
}

/**
 * Sends the events in ordered batches over --concurrency lanes. A partition (one user) always
 * uses the same lane, so its events arrive in file order; once one of its batches fails, the
 * rest of that partition goes to the failed file instead, so order is never broken.
 */
export async function deliver(events: AsyncIterable<readonly OutgoingEvent[]>, delivery: Delivery): Promise<void> {
  const stopped = new Set<string>();
  const inFlight = new InFlight();
  const stopListening = sayAwaitedAnswersOnInterrupt(delivery.signal, delivery.io, inFlight);
  const lanes = delivery.options.concurrency;
  try {
    await runLanesInGroups(
      unsettled(events, delivery),
      {
        lanes,
        laneOf: (event) => event.slot % lanes,
        maxBatchItems: delivery.options.batchSize,
        maxBatchBytes: delivery.options.maxBatchBytes,
        sizeOf: (event) => Buffer.byteLength(event.json) + 1,
      },
      (batch) => deliverBatch(batch, delivery, stopped, inFlight),
    );
  } finally {
    stopListening();
  }
}

/** The events --checkpoint does not record as acknowledged (counted as skipped). */
async function* unsettled(groups: AsyncIterable<readonly OutgoingEvent[]>, { checkpoint, tally }: Delivery): AsyncGenerator<readonly OutgoingEvent[]> {
  for await (const events of groups) {
    if (checkpoint === undefined) {
      yield events;
      continue;
    }
    const due = events.filter((event) => !checkpoint.isSettled(event.slot, event.position));
    tally.skipped_checkpoint += events.length - due.length;
    yield due;
  }
}

async function deliverBatch(batch: OutgoingEvent[], delivery: Delivery, stopped: Set<string>, inFlight: InFlight): Promise<void> {
  if (delivery.signal.aborted) throw new InterruptedError();
  const { tally } = delivery;
  const runHalted = () => delivery.failFast.stoppedBy !== undefined;
  const held = (event: OutgoingEvent) => runHalted() || stopped.has(event.partition);
  // While every batch has gone through, none is held: no lookup per event.
  const anyHeld = runHalted() || stopped.size > 0;
  const toSend = anyHeld ? batch.filter((event) => !held(event)) : batch;
  const handBack = anyHeld ? batch.filter(held) : [];
  if (toSend.length > 0) {
    try {
      const { retries } = await inFlight.run(() => delivery.failFast.send(() => delivery.send(toSend)));
      tally.sent += toSend.length;
      tally.batches++;
      tally.retries += retries;
    } catch (error) {
      const halted = delivery.failFast.isStop(error);
      if (error instanceof InterruptedError || (stopsTheRun(error) && !halted)) throw error;
      if (!allKeyed(toSend) && mayHaveBeenApplied(error)) {
        await setAsideUnconfirmed(toSend, error as Error, delivery);
      } else {
        // Why the run halted is said once, when it ends.
        if (!halted) delivery.io.warn(`${delivery.inputName}:${batchLines(toSend)}: a batch of ${countOf(toSend.length, 'event')} failed, so its users' later events are held back too: ${(error as Error).message}`);
        for (const event of toSend) stopped.add(event.partition);
        handBack.push(...toSend);
      }
    }
  }
  if (delivery.checkpoint !== undefined) recordAcknowledged(batch, new Set(handBack), delivery.checkpoint);
  handBack.sort((a, b) => a.position - b.position);
  await delivery.failed.appendLines(handBack.map((event) => ({ text: event.json, line: event.line })));
  tally.failed += handBack.length;
  delivery.progress.update(`sent ${tally.sent}, failed ${tally.failed}, skipped ${tally.skipped_checkpoint + tally.other_shards}`);
  await delivery.checkpoint?.save();
}

/**
 * A batch of events without idempotency keys whose answer was lost may have been stored: sending
 * it again could store it twice, so it goes to the unconfirmed file, not the failed one, and the
 * checkpoint counts it as dealt with (a re-run does not send it). Its users' later events still go:
 * holding them back would leave them for a re-run that skips this batch anyway.
 */
async function setAsideUnconfirmed(events: OutgoingEvent[], error: Error, delivery: Delivery): Promise<void> {
  delivery.io.warn(`${delivery.inputName}:${batchLines(events)}: a batch of ${countOf(events.length, 'event')} without idempotency keys may have been stored, its answer was lost: ${error.message}`);
  await delivery.unconfirmed.appendLines(events.map((event) => ({ text: event.json, line: event.line })));
  delivery.tally.unconfirmed += events.length;
}

/** Only what the service acknowledged is done: a failed or held-back event stops its slot's progress, so the next run sends it. */
function recordAcknowledged(batch: readonly OutgoingEvent[], notAcknowledged: ReadonlySet<OutgoingEvent>, checkpoint: Checkpoint): void {
  for (const event of batch) {
    if (notAcknowledged.has(event)) checkpoint.hold(event.slot);
    else checkpoint.acknowledge(event.slot, event.position);
  }
}
