import { partsFrameBytes, sendStreamParts } from '../../../api/streams.js';
import { batchLines } from '../../../core/bulk/batches.js';
import type { SendableRecord } from '../../../core/bulk/checked-records.js';
import { InterruptedError, mayHaveBeenApplied, stopsTheRun } from '../../../core/errors.js';
import type { FailFast } from '../../../core/bulk/fail-fast.js';
import { FailedFile } from '../../../core/files/failed-file.js';
import { defaultFailedPath } from '../../../core/files/failed-path.js';
import type { HttpClient } from '../../../core/http/client.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import { runLanes } from '../../../core/bulk/lanes.js';
import { countOf } from '../../../core/terminal/words.js';
import { batchOutcome } from '../../app.js';
import type { PartsOptions } from './options.js';

/** The run's --failed and --unconfirmed files, each created only when a part is written to it. */
export const partsFailureFiles = (options: Pick<PartsOptions, 'failed' | 'unconfirmed'>, now: number) => ({
  failed: new FailedFile(options.failed ?? defaultFailedPath('stream-parts', now)),
  unconfirmed: new FailedFile(options.unconfirmed ?? defaultFailedPath('stream-parts', now, 'unconfirmed')),
});

/** How the run ended for main.ts; `skipped`: the invalid parts set aside by --skip-invalid. */
export const partsOutcome = (tally: PartsTally, run: { skipped?: number; stoppedBy?: unknown } = {}) =>
  batchOutcome({ sent: tally.sent, failed: tally.failed, unconfirmed: tally.unconfirmed, skipped: run.skipped ?? 0, stoppedBy: run.stoppedBy });

/** What a delivery has done so far, for the summary and a status line. */
export interface PartsTally {
  sent: number;
  /** Parts the service refused or never saw: safe to resend. */
  failed: number;
  /** Parts of batches the service may have applied (the answer was lost): resending could store them twice. */
  unconfirmed: number;
  requests: number;
  lastRequestId: string | null;
  /** The message of the last batch that failed. */
  lastError: string | null;
}

export const emptyPartsTally = (): PartsTally => ({ sent: 0, failed: 0, unconfirmed: 0, requests: 0, lastRequestId: null, lastError: null });

export interface PartsDelivery {
  http: HttpClient;
  io: IOStreams;
  namespace: string;
  /** The stream's id, sent with every request. */
  id: string;
  /** How messages name the input: a file, `stdin`, `flags`. */
  inputName: string;
  options: Pick<PartsOptions, 'batchSize' | 'maxBatchBytes'>;
  /** The parts of batches that failed, exactly as sent, so the file can be sent again with `stream parts`. */
  failed: FailedFile;
  /** The parts of batches that may have been applied (see mayHaveBeenApplied): never in `failed`, which is safe to resend. */
  unconfirmed: FailedFile;
  tally: PartsTally;
  /** --max-consecutive-failures: every batch is sent through it; once it stops the run, the rest go to the failed file unsent. */
  failFast: FailFast;
  /** Told after each batch, sent or failed (a spinner, a status line). */
  onProgress(tally: PartsTally): void;
  /** When given, no batch starts once it is aborted (Ctrl-C): the one in flight has its answer, the rest go to the failed file unsent. */
  signal?: AbortSignal;
  /** --follow: a batch that is not full goes once its oldest part has waited this long. */
  flushAfterMs?: number;
  /** --follow: parts read ahead while a batch is sent (default: 64 batches); reading pauses while they wait. */
  maxBuffer?: number;
  /**
   * --follow: parts read from a pipe cannot be read again, so a failure no later batch could
   * escape does not drop them: `halt` is told (it stops the reading), and this batch and every
   * later one go to the failed file. Without it, such a failure stops the run (except the service
   * unreachable, after which every later batch goes to the failed file unsent).
   */
  halt?(error: Error): void;
  /** The failure `halt` was told of. */
  halted?: Error;
}

/**
 * Sends the parts in input order, one request at a time, in batches of at most --batch-size parts
 * and --max-batch-bytes. Reading pauses while the queue is full. A batch that still fails after
 * the core's retries goes to the failed file, or to the unconfirmed file when the service may
 * have applied it, and the next one is sent; a failure no later batch could escape (credentials
 * refused) stops the run. After Ctrl-C or once the service is unreachable, every later batch goes
 * to the failed file unsent, so the failed file and what was sent make up the input.
 */
export async function deliverParts(parts: AsyncIterable<SendableRecord>, delivery: PartsDelivery): Promise<void> {
  const { options } = delivery;
  await runLanes(
    parts,
    {
      lanes: 1,
      laneOf: () => 0,
      maxBatchItems: options.batchSize,
      maxBatchBytes: options.maxBatchBytes - partsFrameBytes(delivery.id),
      sizeOf: (part) => part.bytes,
      flushAfterMs: delivery.flushAfterMs,
      capacity: delivery.maxBuffer,
    },
    (batch) => deliverBatch(batch, delivery),
  );
}

async function deliverBatch(batch: SendableRecord[], delivery: PartsDelivery): Promise<void> {
  const { tally } = delivery;
  let unconfirmed = false;
  if (delivery.halted === undefined && !delivery.signal?.aborted) {
    try {
      const accepted = await delivery.failFast.send(() => sendStreamParts(delivery.http, delivery.namespace, delivery.id, batch.map((part) => part.json)));
      tally.sent += batch.length;
      tally.requests++;
      tally.lastRequestId = accepted.requestId;
      delivery.onProgress(tally);
      return;
    } catch (error) {
      haltOn(error, delivery);
      unconfirmed = mayHaveBeenApplied(error);
      tally.lastError = (error as Error).message;
      const what = unconfirmed ? 'may have been stored, its answer was lost' : 'failed';
      // The service unreachable is said once, when the run ends.
      if (!delivery.failFast.isStop(error)) delivery.io.warn(`${delivery.inputName}:${batchLines(batch)}: a batch of ${countOf(batch.length, 'part')} ${what}: ${tally.lastError}`);
    }
  }
  const lines = batch.map((part) => ({ text: part.json, line: part.line }));
  if (unconfirmed) {
    await delivery.unconfirmed.appendLines(lines);
    tally.unconfirmed += batch.length;
  } else {
    await delivery.failed.appendLines(lines);
    tally.failed += batch.length;
  }
  delivery.onProgress(tally);
}

/**
 * A failure no later batch could escape stops the run, or with `halt` only the reading; the
 * service unreachable holds every later batch back. Ctrl-C during a retry's wait costs that batch
 * alone (it was not processed): the signal holds the later ones back, or, following, they are
 * still tried.
 */
function haltOn(error: unknown, delivery: PartsDelivery): void {
  if (error instanceof InterruptedError) return;
  const unreachable = delivery.failFast.isStop(error);
  if (!unreachable && !stopsTheRun(error)) return;
  if (!unreachable && delivery.halt === undefined) throw error;
  delivery.halted = error as Error;
  delivery.halt?.(delivery.halted);
}
