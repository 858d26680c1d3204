import type { IncomingMessage } from 'node:http';
import type { CredentialKind } from './auth.js';
import type { State } from './state.js';

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
}

export interface ServedRequest {
  req: IncomingMessage;
  path: string;
  status: number;
  auth: CredentialKind;
  fault: string | null;
  receivedAt: number;
  durationMs: number;
}

/** Appends to the log, dropping the oldest entries beyond `size`, so memory stays bounded. */
export function logRequest(state: State, served: ServedRequest, size: number): void {
  const { req } = served;
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : null;
  };
  const contentLength = header('content-length');
  state.requests.push({
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
  });
  if (state.requests.length > size) state.requests.splice(0, state.requests.length - size);
}
