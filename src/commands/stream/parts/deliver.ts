import { partsFrameBytes, sendStreamParts } from '../../../api/streams.js';
import { deliveredEarlier, type Numbered, type SendableRecord, type SkipFile } from '../../../core/bulk/checked-records.js';
import { emptyCounts, type BulkCounts } from '../../../core/bulk/counts.js';
import { deliverInBatches, type BulkRun, type Delivered } from '../../../core/bulk/engine.js';
import { FailedFile } from '../../../core/files/failed-file.js';
import { defaultFailedPath } from '../../../core/files/failed-path.js';
import type { HttpClient } from '../../../core/http/client.js';
import type { RangeCheckpoint } from '../../../core/bulk/range-checkpoint.js';
import { batchOutcome } from '../../app.js';
import type { PartsOptions } from './options.js';

/** The run's --failed and --unconfirmed files, each created only when a part is written to it. */
export const partsFailureFiles = (options: Pick<PartsOptions, 'failed' | 'unconfirmed'>, now: number) => ({
  failed: new FailedFile(options.failed ?? defaultFailedPath('stream-parts', now)),
  unconfirmed: new FailedFile(options.unconfirmed ?? defaultFailedPath('stream-parts', now, 'unconfirmed')),
});

/** How the run ended for main.ts; `setAside`: --skip-invalid's file. */
export const partsOutcome = (tally: PartsTally, run: { setAside?: SkipFile; stoppedBy?: unknown } = {}) =>
  batchOutcome({ sent: tally.sent, done: deliveredEarlier(tally.skipped_checkpoint, run.setAside), failed: tally.failed, unconfirmed: tally.unconfirmed, skipped: run.setAside?.count ?? 0, stoppedBy: run.stoppedBy });

/** The counts of every bulk run, and the last request the stream took and the last failure, for the summary and the status line. */
export interface PartsTally extends BulkCounts {
  lastRequestId: string | null;
  lastError: string | null;
}

export const emptyPartsTally = (): PartsTally => ({ ...emptyCounts(), lastRequestId: null, lastError: null });

export interface PartsDelivery {
  /** The run (core/bulk/engine.ts bulkRun): its counts are `tally`. --follow's run has a signal that never aborts: what was read is sent before csafe exits. */
  run: BulkRun;
  http: HttpClient;
  namespace: string;
  /** The stream's id, sent with every request. */
  id: string;
  /** How messages name the input: a file, `stdin`, `flags`. */
  inputName: string;
  options: Pick<PartsOptions, 'batchSize' | 'maxBatchBytes'>;
  tally: PartsTally;
  /** --follow: a batch that is not full goes once its oldest part has waited this long. */
  flushAfterMs?: number;
  /** --follow: parts read ahead while a batch is sent (default: 64 batches); reading pauses while they wait. */
  maxBuffer?: number;
  /** --checkpoint: the parts acknowledged, or unconfirmed (not safe to send twice), by position in the input; with it, the parts not sent after Ctrl-C are left to the same command run again. */
  checkpoint?: RangeCheckpoint;
  /** --follow: told once the run halts (a refused key, the service unreachable), to stop the reading: what was read goes to the failed file. */
  halt?(error: Error): void;
}

/**
 * `stream parts` on the bulk engine: parts in input order, one request at a time (one lane), in
 * batches of at most --batch-size parts and --max-batch-bytes. Parts carry no idempotency key,
 * so a batch whose answer was lost goes to the unconfirmed file. A part not sent, whatever
 * stopped it (a halt, Ctrl-C), goes to the failed file, so the failed file and what was sent make
 * up the input; with a checkpoint, what Ctrl-C left unsent is left to the same command again.
 */
export function deliverParts(parts: AsyncIterable<Iterable<Numbered<SendableRecord>>>, delivery: PartsDelivery): Promise<Delivered> {
  const { http, options, tally, run } = delivery;
  const job = {
    noun: 'part',
    inputName: delivery.inputName,
    send: partsSender(http, delivery.namespace, delivery.id),
    replaySafe: () => false,
    acknowledged(batch: readonly Numbered<SendableRecord>[], accepted: { requestId: string }) {
      tally.lastRequestId = accepted.requestId;
      delivery.checkpoint?.acknowledge(batch[0]!.position, batch.at(-1)!.position);
    },
    notAcknowledged(batch: readonly Numbered<SendableRecord>[], file: 'failed' | 'unconfirmed', error: Error) {
      tally.lastError = error.message;
      if (file === 'unconfirmed') delivery.checkpoint?.acknowledge(batch[0]!.position, batch.at(-1)!.position);
    },
    setAsideUnsent: delivery.checkpoint === undefined,
    onHalt: delivery.halt,
  };
  const dispatch = { lanes: 1, laneOf: () => 0, capacity: delivery.maxBuffer };
  const limits = { ...partsBatchLimits(options, delivery.id), flushAfterMs: delivery.flushAfterMs };
  return deliverInBatches<Numbered<SendableRecord>, { requestId: string }>(parts, limits, dispatch, job, run);
}


/** One request: the parts of a batch, appended to the stream. */
export const partsSender = (http: HttpClient, namespace: string, id: string) => (batch: SendableRecord[]) =>
  sendStreamParts(http, namespace, id, batch.map((part) => part.json));

/** At most --batch-size parts a request, and --max-batch-bytes with the body around them. */
export const partsBatchLimits = (options: Pick<PartsOptions, 'batchSize' | 'maxBatchBytes'>, id: string) => ({
  maxItems: options.batchSize,
  maxBytes: options.maxBatchBytes - partsFrameBytes(id),
  sizeOf: (part: SendableRecord) => part.bytes,
});
