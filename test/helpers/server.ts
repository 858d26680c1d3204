import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient } from '../../src/core/http/client.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src/core/http/retry.js';
import { bufferIO } from './io.js';

/** Starts a test's own node:http server on an ephemeral loopback port; returns its base URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops it, dropping connections a client under test may have left open. */
export function closeServer(server: Server): void {
  server.closeAllConnections();
  server.close();
}

/** The HTTP core pointed at a test's server: real time, retries without waiting, output discarded. */
export const loopbackClient = (baseUrl: string, retry: RetryPolicy = DEFAULT_RETRY_POLICY) =>
  new HttpClient({ baseUrl, apiKey: 'sk_test_key', timeoutMs: 5000, retry, userAgent: 'csafe/test', io: bufferIO().io, now: () => Date.now(), sleep: async () => {} });

/**
 * A webhook receiver of the test's own: records each request's body and answers it with the next
 * of `statuses` (then 204), or never when `hang`.
 */
export async function webhookReceiver({ statuses = [] as number[], hang = false } = {}) {
  const received: string[] = [];
  const server = createServer((req, res) => {
    req.setEncoding('utf8');
    let body = '';
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push(body);
      if (!hang) res.writeHead(statuses.shift() ?? 204).end();
    });
  });
  return { url: await listenOnLoopback(server), received, close: () => closeServer(server) };
}
