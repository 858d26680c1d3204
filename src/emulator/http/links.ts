import type { IncomingMessage } from 'node:http';
import { signedLink } from '../stores/signing.js';

/** Which addresses the emulator hands out: its own, as the caller reached it, and signed review links. */

/** The address the caller reached this emulator at, so the links it hands out work from there. */
export function baseUrlOf(req: IncomingMessage): string {
  // HTTP/1.1 requires Host; the socket's address stands in for an HTTP/1.0 caller.
  return `http://${req.headers.host ?? `${req.socket.localAddress}:${req.socket.localPort}`}`;
}

/** The canonical path of an object's review page, which is also what its link's signature covers. */
export const reviewPath = (namespace: string, id: string) => `/_emulator/review/${encodeURIComponent(namespace)}/${encodeURIComponent(id)}`;

/**
 * An object's link into the service's review interface (GET /_emulator/review/…), signed so it
 * opens in a browser without the API key. Built when read, from the address it is read at.
 */
export const reviewUrl = (secret: Buffer, baseUrl: string, namespace: string, id: string) =>
  signedLink(secret, baseUrl, reviewPath(namespace, id));
