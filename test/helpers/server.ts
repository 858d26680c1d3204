import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
