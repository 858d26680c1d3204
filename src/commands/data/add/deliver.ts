import { addData, encodeAddBody } from '../../../api/data.js';
import type { SendableRecord } from '../../../core/bulk/checked-records.js';
import type { BulkJob } from '../../../core/bulk/engine.js';
import type { HttpClient } from '../../../core/http/client.js';
import { bodyFrameBytes } from '../shared/objects.js';
import type { AddOptions } from './options.js';

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

/**
 * `data add` on the bulk engine: objects go as `{"data":[…]}` batches of at most --batch-size
 * objects and --max-batch-bytes, --concurrency at a time, in any order (the service upserts by id,
 * so a batch is safe to send twice). `onAccepted` hears of each accepted request in input order.
 */
/** `schemaJson`: the namespace schema (--schema), serialised once and sent with every batch, so whichever batch arrives first applies it. */
export function addJob(http: HttpClient, namespace: string, inputName: string, schemaJson: string | undefined, onAccepted: (request: AcceptedRequest, batch: readonly NumberedObject[]) => Promise<void>): BulkJob<NumberedObject, AcceptedRequest> {
  return {
    noun: 'object',
    inputName,
    async send(batch) {
      const response = await addData(http, namespace, encodeAddBody(batch.map((o) => o.json), schemaJson));
      return { request_id: response.requestId, status: response.status, objects: batch.length, first_line: batch[0]!.line, last_line: batch.at(-1)!.line };
    },
    replaySafe: () => true,
    acknowledged: (batch, request) => onAccepted(request, batch),
  };
}

export const addBatchLimits = (options: Pick<AddOptions, 'batchSize' | 'maxBatchBytes'>, schemaJson?: string) => ({
  maxItems: options.batchSize,
  maxBytes: options.maxBatchBytes - bodyFrameBytes(schemaJson),
  sizeOf: (object: NumberedObject) => object.bytes,
});
