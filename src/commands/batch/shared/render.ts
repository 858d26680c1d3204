import type { IOStreams } from '../../../core/terminal/io.js';
import { printResult, recordView, type OutputFormat } from '../../../core/terminal/output.js';
import { BATCH_STATUSES, type Batch } from '../../../schemas/batches.js';

/** The batch as a key: value view on a terminal (every field, those the spec does not list too), JSON in a pipe. */
export const printBatch = (io: IOStreams, format: OutputFormat, batch: Batch) => printResult(io, format, batch, recordView(batch));

const count = (value: number | null | undefined) => (value === null || value === undefined ? '?' : String(value));

/** The spinner's line: `PENDING: 40/100 succeeded, 2 failed, 58 pending, 0 cancelled`, or the status alone before there are counts. */
export const batchProgress = (batch: Batch) =>
  batch.batch_count === null || batch.batch_count === undefined ? batch.batch_status : `${batch.batch_status}: ${count(batch.success_count)}/${count(batch.batch_count)} succeeded, ${count(batch.error_count)} failed, ` +
  `${count(batch.pending_count)} pending, ${count(batch.cancelled_count)} cancelled`;

/** A batch that ended without its result: ERROR, CANCELLED or a status csafe does not know (exit 1). */
export const batchFailed = (batch: Batch) => batch.batch_status !== BATCH_STATUSES.succeeded;
