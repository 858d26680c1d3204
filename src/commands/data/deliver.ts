import { addData, encodeAddBody } from '../../api/data.js';
import { inBatches } from '../../core/batches.js';
import { mapInOrder } from '../../core/concurrency.js';
import { stopsTheRun } from '../../core/errors.js';
import type { FailedFile } from '../../core/failed-file.js';
import type { HttpClient } from '../../core/http.js';
import type { IOStreams } from '../../core/io.js';
import { countOf } from '../../core/output.js';
import type { Spinner } from '../../core/spinner.js';
import type { AddOptions } from './add-options.js';
import { BODY_FRAME_BYTES, type SendableObject } from './objects.js';

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
  progress: Spinner;
  /** Filled as requests are accepted, in input order, so a run that stops part-way can still say what went. */
  accepted: AcceptedRequest[];
}

/**
 * Sends the objects as `{"data":[…]}` batches of at most --batch-size objects and --max-batch-bytes,
 * --concurrency at a time. A batch that still fails after the core's retries is not tried
 * again: its objects go to the failed file. Failures no batch could escape
 * (credentials, Ctrl-C) stop the run.
 */
export async function deliverObjects(objects: AsyncIterable<SendableObject>, delivery: AddDelivery): Promise<void> {
  const { options, accepted } = delivery;
  const batches = inBatches(objects, { maxItems: options.batchSize, maxBytes: options.maxBatchBytes - BODY_FRAME_BYTES, sizeOf: (o) => o.bytes });
  const send = (batch: SendableObject[]) => addData(delivery.http, delivery.namespace, encodeAddBody(batch.map((o) => o.json)));
  for await (const { item: batch, outcome } of mapInOrder(batches, options.concurrency, send)) {
    const lines = { first_line: batch[0]!.line, last_line: batch.at(-1)!.line };
    if (outcome.ok) {
      accepted.push({ request_id: outcome.value.requestId, status: outcome.value.status, objects: batch.length, ...lines });
    } else {
      if (stopsTheRun(outcome.error)) throw outcome.error;
      const where = lines.first_line === lines.last_line ? lines.first_line : `${lines.first_line}-${lines.last_line}`;
      delivery.io.warn(`${delivery.inputName}:${where}: a batch of ${countOf(batch.length, 'object')} failed: ${(outcome.error as Error).message}`);
      for (const object of batch) await delivery.failed.appendLine(object.json);
    }
    delivery.progress.update(`Adding objects: ${countOf(accepted.length, 'request')} accepted, ${countOf(delivery.failed.count, 'object')} failed`);
  }
}
