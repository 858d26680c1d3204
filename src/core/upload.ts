import { createReadStream, type ReadStream } from 'node:fs';
import type { HttpClient, HttpResponse, ReopenableBody } from './http.js';

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
  /** The Content-Type the address was signed for (default application/json). */
  contentType?: string;
}

/** A file of known size, read from disk; `size` is sent as Content-Length and no byte past it is read. */
export interface UploadFile {
  path: string;
  size: number;
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
    contentType: options.contentType ?? 'application/json',
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
