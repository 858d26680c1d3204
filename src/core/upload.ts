import { createReadStream, type ReadStream } from 'node:fs';
import { CsafeError, PermissionDeniedError } from './errors.js';
import type { HttpClient, HttpResponse, ReopenableBody } from './http.js';
import type { IOStreams } from './io.js';
import { formatBytes, startProgressBar } from './progress.js';

/** Bigger reads than the default 64 KiB: fewer system calls and socket writes, for the same flat memory. */
const READ_CHUNK_BYTES = 1048576;

/** How far the current attempt has got; a retry starts again from 0. */
export interface UploadProgress {
  sent: number;
  total: number;
  elapsedMs: number;
}

export interface UploadOptions {
  /** Called every `progressIntervalMs` while the upload runs (not on every chunk). */
  onProgress?: (progress: UploadProgress) => void;
  progressIntervalMs?: number;
  now: () => number;
}

/** A file of known size, read from disk; `size` is sent as Content-Length and no byte past it is read. */
export interface UploadFile {
  path: string;
  size: number;
  /** What the pre-signed address was signed for (default application/json): text/csv … */
  contentType?: string;
}

/**
 * PUTs a file to a pre-signed URL through the one HTTP core. Object stores refuse chunked
 * uploads, so the body has an explicit Content-Length; it is streamed from disk and re-opened
 * for every attempt, so a retry sends the whole file again rather than the rest of a half-read
 * stream. No whole-exchange time limit (a 5 GB upload takes as long as it takes; the core's idle
 * limits still apply), and no Authorization header: the core sends none to absolute URLs, and
 * an object store refuses a request that carries one besides its signature.
 */
export async function uploadFile(http: HttpClient, url: string, file: UploadFile, options: UploadOptions): Promise<HttpResponse> {
  let current: ReadStream | undefined;
  let attemptStarted = options.now();
  const body: ReopenableBody = {
    open: () => {
      current?.destroy();
      attemptStarted = options.now();
      if (file.size === 0) return Buffer.alloc(0);
      current = createReadStream(file.path, { start: 0, end: file.size - 1, highWaterMark: READ_CHUNK_BYTES });
      return current;
    },
    length: file.size,
    contentType: file.contentType ?? 'application/json',
  };
  // Bytes read from disk by the request, sampled: counting them per chunk would cost more than drawing them.
  const report = () => options.onProgress?.({ sent: current?.bytesRead ?? 0, total: file.size, elapsedMs: options.now() - attemptStarted });
  const timer = options.onProgress === undefined ? undefined : setInterval(report, options.progressIntervalMs ?? 100);
  try {
    const response = await http.request({ method: 'PUT', url, body, timeoutMs: null });
    report();
    return response;
  } finally {
    clearInterval(timer);
    current?.destroy();
  }
}

/** An upload address issued by the service: the resource it belongs to, and until when it is valid. */
export interface UploadAddress {
  /** The id of the resource the address was issued with (an import request, a batch). */
  id: string;
  url: string;
  /** Epoch ms. */
  expiresAt: number;
}

export interface FreshUploadDeps {
  http: HttpClient;
  io: IOStreams;
  now: () => number;
}

export interface FreshUpload<T> {
  /** The resource whose upload succeeded. */
  issued: T;
  durationMs: number;
  /** Addresses requested, the successful one included. */
  requests: number;
  /** Upload attempts repeated after a failure (connection cut, 5xx) on the successful address. */
  retries: number;
}

/** Addresses requested per run: one, plus a fresh one each time an upload address has expired (a long stall, a wrong clock). */
const MAX_ADDRESS_REQUESTS = 3;

/**
 * Requests an upload address (`issue`: POST …/import, POST /v1/batches …), then PUTs the file to
 * it with a progress bar on a terminal. A failed upload is retried from the start by the HTTP core
 * (a PUT to a pre-signed address replaces the object, so it is safe to repeat) while the address
 * is valid; once it has expired — by our clock, or the store answers 403 AccessDenied "Request
 * has expired" — a new resource is requested, the old id reported, and the file uploaded again.
 */
export async function uploadToFreshAddress<T>(
  deps: FreshUploadDeps,
  file: UploadFile,
  issue: () => Promise<{ issued: T; address: UploadAddress }>,
): Promise<FreshUpload<T>> {
  for (let requests = 1; ; requests++) {
    const { issued, address } = await issue();
    const last = requests === MAX_ADDRESS_REQUESTS;
    // By our clock it has expired already; on the last request the store's clock has the final word.
    if (!last && address.expiresAt <= deps.now()) {
      deps.io.note(`the upload address of ${address.id} expired at ${new Date(address.expiresAt).toISOString()}; requesting another`);
      continue;
    }
    const started = deps.now();
    const progress = await startProgressBar(deps.io, `Uploading ${formatBytes(file.size)}`);
    try {
      const response = await uploadFile(deps.http, address.url, file, { now: deps.now, onProgress: (p) => progress.update(p) });
      return { issued, durationMs: deps.now() - started, requests, retries: response.retries };
    } catch (error) {
      if (!isExpiredAddress(error)) throw error;
      // The key is fine (the address requests succeeded): this is a failure to upload in time, not an authentication error.
      if (last) throw new CsafeError(`the upload address expired ${MAX_ADDRESS_REQUESTS} times (last: ${error.message}); nothing was sent`, { cause: error, hint: "check this machine's clock, and whether the upload stalls" });
      deps.io.note(`the upload address of ${address.id} expired during the upload; requesting another`);
    } finally {
      progress.stop();
    }
  }
}

/** The object store's answer to a pre-signed address used too late (or signed wrong): 403 AccessDenied. */
export const isExpiredAddress = (error: unknown): error is PermissionDeniedError =>
  error instanceof PermissionDeniedError && (error.details.errorType === 'AccessDenied' || /request has expired/i.test(error.details.serviceMessage));
