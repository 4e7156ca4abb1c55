/**
 * Targets broken by definition, for the end-to-end tests of error codes and deadlines: a server
 * that never answers, a TCP server that answers every request with bytes that are not valid
 * HTTP/1.1, and an oauth platform that answers every endpoint with a shape the spec does not
 * allow. All listen on 127.0.0.1 port 0 and are stopped by the test file that starts them.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { listenOnLoopback } from '../../src/targets/loopback-server.js';

export interface Hostile {
  url: string;
  stop(): Promise<void>;
}

/** A server that accepts every connection and request and never answers (a stalled target). */
export async function silentServer(): Promise<Hostile> {
  const server = createHttpServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How a raw answer ends: the connection closed after it, or reset (RST) right after it. */
export type Ending = 'close' | 'reset';

/** A server that reads a request and answers `bytes`, whatever was asked. */
export async function rawHttpServer(bytes: string | Buffer, ending: Ending = 'close'): Promise<Hostile> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.write(bytes, () => {
        // a moment for the bytes to leave before the reset, so the client sees them first
        if (ending === 'reset') setTimeout(() => socket.resetAndDestroy(), 100);
        else socket.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What the hostile oauth platform answers: JSON bodies by endpoint (missing: `{}`). */
export interface PlatformAnswers {
  deviceCode?: unknown;
  token?: unknown;
  /** The user-agent bridge's answer to an approval (`POST /__specgate/agent/approve`). */
  approve?: unknown;
}

/**
 * An oauth platform that serves the clock hook and the user-agent bridge the way the reference
 * does, and answers the device, token and approval endpoints with the given bodies.
 */
export async function hostilePlatform(answers: PlatformAnswers): Promise<Hostile> {
  const json = (res: ServerResponse, body: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  };
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (path === '/login/device/code') return json(res, answers.deviceCode);
      if (path === '/login/oauth/access_token') return json(res, answers.token);
      if (path === '/__specgate/agent/approve') return json(res, answers.approve);
      return json(res, {});
    });
  });
  return listenOnLoopback(server);
}

/** The platform variables a profile of the hostile platform gives (every one the server-side cases read). */
export function platformVars(url: string): Record<string, string> {
  return {
    auth_url: url,
    api_url: url,
    client_id: 'web-app',
    client_secret: 'web-secret-0001',
    callback_url: 'https://app.example.test/callback',
    device_client_id: 'device-app',
    disabled_device_client_id: 'no-device-app',
    loopback_client_id: 'loopback-app',
    loopback_callback_url: 'http://127.0.0.1/callback',
    localhost_client_id: 'localhost-app',
    localhost_callback_url: 'http://localhost/callback',
    user_login: 'octo',
    user_password: 'octo-password-0001',
    agent_bridge_url: `${url}/__specgate/agent`,
  };
}
