import { addData, encodeAddBody } from '../../../api/data.js';
import { batchLines, inBatches } from '../../../core/bulk/batches.js';
import type { SendableRecord } from '../../../core/bulk/checked-records.js';
import { mapInOrder } from '../../../core/bulk/concurrency.js';
import { InterruptedError, stopsTheRun } from '../../../core/errors.js';
import type { FailFast } from '../../../core/bulk/fail-fast.js';
import type { FailedFile } from '../../../core/files/failed-file.js';
import type { HttpClient } from '../../../core/http/client.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import { countOf } from '../../../core/terminal/words.js';
import type { Spinner } from '../../../core/terminal/spinner.js';
import type { AddOptions } from './options.js';
import { BODY_FRAME_BYTES } from '../shared/objects.js';
import { sayAwaitedAnswersOnInterrupt } from '../../../core/cli/resume.js';
import { InFlight } from '../../../core/bulk/in-flight.js';

/** An object to send, with its position among all records of the input (from 1), which the checkpoint counts in. */
export type NumberedObject = SendableRecord & { position: number };

/** One accepted add request: what the service answered and which input lines it carries. */
export interface AcceptedRequest {
  request_id: string;
  status: string;
  objects: number;
  first_line: number;
  last_line: number;
}

export interface AddDelivery {
  http: HttpClient;
  io: IOStreams;
  namespace: string;
  inputName: string;
  options: Pick<AddOptions, 'batchSize' | 'maxBatchBytes' | 'concurrency'>;
  /** Objects of batches that failed, one JSON line each, so the file can be fed back to `data add`. */
  failed: FailedFile;
  /** Every batch is sent through it; once it halts the run (credentials refused, the service unreachable …), the batches left go to the failed file unsent. */
  failFast: FailFast;
  progress: Spinner;
  /** Filled as requests are accepted, in the order the answers come, so a run that stops part-way can still say what went. */
  accepted: AcceptedRequest[];
  /** Ctrl-C: no new batch is sent; those in flight are answered first, so the count of accepted requests is exact. */
  signal: AbortSignal;
  /** Told of each request as soon as it is accepted (to print it, to checkpoint it). */
  onAccepted(request: AcceptedRequest, batch: readonly NumberedObject[]): Promise<void>;
}

/**
 * Sends the objects as `{"data":[…]}` batches of at most --batch-size objects and --max-batch-bytes,
 * --concurrency at a time. A batch that still fails after the core's retries is not tried again:
 * its objects go to the failed file. Failures no batch could escape (credentials, Ctrl-C, a file
 * that cannot be written) stop the run, once every request in flight has its answer: what the
 * run then says was accepted is all that was.
 */
export async function deliverObjects(objects: AsyncIterable<NumberedObject>, delivery: AddDelivery): Promise<void> {
  const { options } = delivery;
  const batches = inBatches(objects, { maxItems: options.batchSize, maxBytes: options.maxBatchBytes - BODY_FRAME_BYTES, sizeOf: (o) => o.bytes });
  const inFlight = new InFlight();
  const stop: { error?: unknown } = {};
  const stopListening = sayAwaitedAnswersOnInterrupt(delivery.signal, delivery.io, inFlight);
  const send = (batch: NumberedObject[]) =>
    delivery.signal.aborted ? Promise.reject(new InterruptedError()) : inFlight.run(() => sendBatch(batch, delivery, stop));
  try {
    for await (const { item: batch, outcome } of mapInOrder(batches, options.concurrency, send)) {
      if (stop.error !== undefined) throw stop.error;
      if (outcome.ok) continue;
      if (stopsTheRun(outcome.error) && !delivery.failFast.isStop(outcome.error)) throw outcome.error;
      // Why the run halted is said once, when it ends.
      if (!delivery.failFast.isStop(outcome.error)) delivery.io.warn(`${delivery.inputName}:${batchLines(batch)}: a batch of ${countOf(batch.length, 'object')} failed: ${(outcome.error as Error).message}`);
      await delivery.failed.appendLines(batch.map((object) => ({ text: object.json, line: object.line })));
      reportProgress(delivery);
    }
  } finally {
    await inFlight.settled();
    stopListening();
  }
  if (stop.error !== undefined) throw stop.error;
}

/** Sends one batch and hands the accepted request on at once; an error in handing it on stops the run, it does not fail the batch. */
async function sendBatch(batch: NumberedObject[], delivery: AddDelivery, stop: { error?: unknown }): Promise<void> {
  const response = await delivery.failFast.send(() => addData(delivery.http, delivery.namespace, encodeAddBody(batch.map((o) => o.json))));
  const request = { request_id: response.requestId, status: response.status, objects: batch.length, first_line: batch[0]!.line, last_line: batch.at(-1)!.line };
  delivery.accepted.push(request);
  await delivery.onAccepted(request, batch).catch((error: unknown) => (stop.error ??= error));
  reportProgress(delivery);
}

const reportProgress = (delivery: AddDelivery) =>
  delivery.progress.update(`Adding objects: ${countOf(delivery.accepted.length, 'request')} accepted, ${countOf(delivery.failed.count, 'object')} failed`);
