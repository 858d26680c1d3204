import type { IncomingMessage } from 'node:http';

/** The address the caller reached this emulator at, so the links it hands out work from there. */
export function baseUrlOf(req: IncomingMessage): string {
  // HTTP/1.1 requires Host; the socket's address stands in for an HTTP/1.0 caller.
  return `http://${req.headers.host ?? `${req.socket.localAddress}:${req.socket.localPort}`}`;
}

/** An object's link into the service's review interface (GET /_emulator/review/…). */
export const reviewUrl = (baseUrl: string, namespace: string, id: string) =>
  `${baseUrl}/_emulator/review/${encodeURIComponent(namespace)}/${encodeURIComponent(id)}`;
