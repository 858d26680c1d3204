import type { IOStreams } from '../../../core/terminal/io.js';
import { printResult, recordView, type OutputFormat } from '../../../core/terminal/output.js';
import { formatBytes } from '../../../core/terminal/progress.js';
import type { ImportedFile } from './upload.js';

/** What the upload did, in the service's words where it has them (request id, object key). */
export function uploadSummary(namespace: string, imported: ImportedFile) {
  const seconds = imported.durationMs / 1000;
  return {
    namespace,
    request_id: imported.request.requestId,
    object_key: imported.request.objectKey,
    status: 'uploaded',
    bytes: imported.bytes,
    seconds: Number(seconds.toFixed(3)),
    bytes_per_second: seconds > 0 ? Math.round(imported.bytes / seconds) : null,
    upload_expires_at: imported.request.expires_at,
    import_requests: imported.imports,
    upload_retries: imported.retries,
  };
}
export type UploadSummary = ReturnType<typeof uploadSummary>;

/** The line for people on stderr, e.g. `uploaded 1.0 GB in 8.1 s (123.4 MB/s) as req_…`. */
export function uploadNote(summary: UploadSummary): string {
  const rate = summary.bytes_per_second === null ? '' : ` (${formatBytes(summary.bytes_per_second)}/s)`;
  return `uploaded ${formatBytes(summary.bytes)} in ${summary.seconds.toFixed(1)} s${rate} as ${summary.request_id}`;
}

/** A key: value view on a terminal, JSON in a pipe. */
export const printUploadSummary = (io: IOStreams, format: OutputFormat, summary: UploadSummary) =>
  printResult(io, format, summary, recordView(summary));
