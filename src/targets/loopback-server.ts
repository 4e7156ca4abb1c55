import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server listening on loopback: its base URL and how to stop it (open connections too). */
export interface Listening {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `server` on 127.0.0.1 (port 0: an ephemeral one) and gives its URL and a stop that
 * closes every connection, so a test or a played server never outlives its run.
 */
export async function listenOnLoopback(server: Server, port = 0): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
