import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpecgateError } from '../../../src/errors.js';

/**
 * The loopback listener that receives the platform's redirect (spec 000, B, Endpoints 1:
 * "the platform redirects to the redirect URI with query parameters code and state").
 */
export interface Loopback {
  /** `http://<host>:<port><path>` as the client names it in redirect_uri. */
  redirectUri: string;
  /** Resolves with the query of the first request to the callback path. */
  next(timeoutMs: number): Promise<URLSearchParams>;
  /** Answers the browser that delivered the redirect, then stops listening. */
  close(status: number, message: string): Promise<void>;
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function openLoopback(host: string, port: number, path: string): Promise<Loopback> {
  let deliver: ((q: URLSearchParams) => void) | undefined;
  const received = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  let pending: { end(status: number, message: string): void } | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://loopback.invalid');
    // Browsers also ask for /favicon.ico and the like: only the callback path counts.
    if (url.pathname !== path || pending) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    pending = {
      end: (status, message) => res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(message),
    };
    deliver?.(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return {
    redirectUri: `http://${hostForUrl(host)}:${addr.port}${path}`,
    next: (timeoutMs) =>
      new Promise<URLSearchParams>((resolve, reject) => {
        const timer = setTimeout(() => reject(new SpecgateError('SG_TARGET_TIMEOUT', `no redirect arrived within ${timeoutMs / 1000} s: the sign-in was not completed in the browser`)), timeoutMs);
        timer.unref();
        void received.then((q) => {
          clearTimeout(timer);
          resolve(q);
        });
      }),
    close: (status, message) =>
      new Promise<void>((resolve) => {
        pending?.end(status, message);
        // The answer carries `connection: close`; a browser's other idle connections must not
        // keep the process alive, so whatever is left after a moment is cut.
        const cut = setTimeout(() => server.closeAllConnections(), 1000);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
      }),
  };
}
