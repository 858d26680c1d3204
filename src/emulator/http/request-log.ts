import type { IncomingMessage } from 'node:http';
import type { CredentialKind } from './auth.js';

/** What the emulator remembers of each request it served (GET /_emulator/requests), in bounded memory. */

/** One /v1 or /_storage request as seen on the wire. Holds no credential, only its kind. */
export interface RequestLogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  status: number;
  auth: CredentialKind;
  service_version: string | null;
  content_type: string | null;
  content_length: number | null;
  transfer_encoding: string | null;
  user_agent: string | null;
  /** The injected fault this request met (--faults), or null. */
  fault: string | null;
  duration_ms: number;
  /** The body as UTF-8 text, at most REQUEST_LOG_BODY_BYTES of it; null when there was none. */
  body: string | null;
  /** The whole body's length, however much of it is kept. */
  body_bytes: number;
  body_truncated: boolean;
}

/** How much of each request body the log keeps, so the log holds at most its size times this. */
export const REQUEST_LOG_BODY_BYTES = 4096;

export interface ServedRequest {
  req: IncomingMessage;
  path: string;
  status: number;
  auth: CredentialKind;
  fault: string | null;
  receivedAt: number;
  durationMs: number;
  body: BodySample;
}

/**
 * The first REQUEST_LOG_BODY_BYTES of a body and its whole length. Kept bytes are copied, so a
 * large chunk of an upload is not held in memory for the sake of its first few bytes.
 */
export class BodySample {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private totalBytes = 0;

  add(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    const room = REQUEST_LOG_BODY_BYTES - this.keptBytes;
    if (room <= 0) return;
    const part = Buffer.from(chunk.subarray(0, room));
    this.kept.push(part);
    this.keptBytes += part.length;
  }

  entry(): Pick<RequestLogEntry, 'body' | 'body_bytes' | 'body_truncated'> {
    return {
      body: this.totalBytes === 0 ? null : Buffer.concat(this.kept).toString('utf8'),
      body_bytes: this.totalBytes,
      body_truncated: this.totalBytes > this.keptBytes,
    };
  }
}

/** The part of the instance state the log lives in. */
interface RequestLog {
  requests: RequestLogEntry[];
  nextRequestSeq: number;
}

/** Appends to the log, dropping the oldest entries beyond `size`, so memory stays bounded; returns the entry. */
export function logRequest(state: RequestLog, served: ServedRequest, size: number): RequestLogEntry {
  const { req } = served;
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : null;
  };
  const contentLength = header('content-length');
  const entry: RequestLogEntry = {
    seq: state.nextRequestSeq++,
    time: new Date(served.receivedAt).toISOString(),
    method: req.method ?? '',
    path: served.path,
    status: served.status,
    auth: served.auth,
    service_version: header('service-version'),
    content_type: header('content-type'),
    content_length: contentLength === null ? null : Number(contentLength),
    transfer_encoding: header('transfer-encoding'),
    user_agent: header('user-agent'),
    fault: served.fault,
    duration_ms: Math.round(served.durationMs * 100) / 100,
    ...served.body.entry(),
  };
  state.requests.push(entry);
  // shift() drops the oldest in constant time; splice(0, 1) copied the whole log, 30 µs a request once it was full.
  while (state.requests.length > size) state.requests.shift();
  return entry;
}
