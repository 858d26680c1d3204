import { requestImport } from '../../../api/data.js';
import { CsafeError, PermissionDeniedError } from '../../../core/errors.js';
import type { HttpClient } from '../../../core/http.js';
import type { IOStreams } from '../../../core/io.js';
import { formatBytes, startProgressBar } from '../../../core/progress.js';
import { uploadFile, type UploadFile } from '../../../core/upload.js';
import type { ImportResponse } from '../../../schemas/data.js';

/** Import requests per run: one, plus a fresh one each time an upload address has expired (a long stall, a wrong clock). */
const MAX_IMPORT_REQUESTS = 3;

export interface ImportedFile {
  /** The import request whose upload succeeded. */
  request: ImportResponse;
  bytes: number;
  durationMs: number;
  /** Import requests made, the successful one included. */
  imports: number;
  /** Upload attempts repeated after a failure (connection cut, 5xx) on the successful request's address. */
  retries: number;
}

export interface ImportDeps {
  http: HttpClient;
  io: IOStreams;
  now: () => number;
}

/**
 * POST …/import, then PUT the file to its upload address. A failed upload is retried from the
 * start by the HTTP core (a PUT to a pre-signed address replaces the object, so it is safe to
 * repeat; --max-retries sets how often) while the address is valid; once it has expired —
 * expires_at has passed, or the store answers 403 AccessDenied "Request has expired" — a new
 * import is requested and the file uploaded to the new address.
 */
export async function importFile(deps: ImportDeps, namespace: string, file: UploadFile): Promise<ImportedFile> {
  for (let imports = 1; ; imports++) {
    const request = await requestImport(deps.http, namespace);
    const last = imports === MAX_IMPORT_REQUESTS;
    // By our clock it has expired already; on the last request the store's clock has the final word.
    if (!last && Date.parse(request.expires_at) <= deps.now()) {
      deps.io.note(`the upload address of ${request.requestId} expired at ${request.expires_at}; requesting another`);
      continue;
    }
    const started = deps.now();
    const progress = await startProgressBar(deps.io, `Uploading ${formatBytes(file.size)}`);
    try {
      const response = await uploadFile(deps.http, request.upload_url, file, { now: deps.now, onProgress: (p) => progress.update(p) });
      return { request, bytes: file.size, durationMs: deps.now() - started, imports, retries: response.retries };
    } catch (error) {
      if (!isExpiredAddress(error)) throw error;
      // The key is fine (the import requests succeeded): this is a failure to upload in time, not an authentication error.
      if (last) throw new CsafeError(`the upload address expired ${MAX_IMPORT_REQUESTS} times (last: ${error.message}); nothing was imported`, { cause: error, hint: "check this machine's clock, and whether the upload stalls" });
      deps.io.note(`the upload address of ${request.requestId} expired during the upload; requesting another`);
    } finally {
      progress.stop();
    }
  }
}

const isExpiredAddress = (error: unknown): error is PermissionDeniedError =>
  error instanceof PermissionDeniedError && (error.details.errorType === 'AccessDenied' || /request has expired/i.test(error.details.serviceMessage));
