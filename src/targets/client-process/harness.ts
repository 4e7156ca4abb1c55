import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Exchange } from '../../engine/model.js';
import { SpecgateError } from '../../errors.js';
import { freePort } from '../free-port.js';
import { CLIENT_CLOCK_VAR, ClientClock, clientClockHandler } from './client-clock.js';
import { describeExit, launchClient, outputTail, prepareClientLaunches, type ClientExit, type ClientProcess } from './client-process.js';

/**
 * The client-process target mode: specgate plays the server side of a protocol and judges a
 * client application it launches. A suite's played server (its platform, its tool host) is
 * suite code; the harness gives it what every client-side suite needs:
 *
 * - `clock`: real time plus what the application slept through the clock hook (client-clock.ts):
 *   every launch gets SPECGATE_CLOCK_URL, and an application that waits through it is judged
 *   on the played server's time, in milliseconds; one that waits for real is judged in real
 *   time. Long periods a client would not wait for are made to "pass" by answering as if they had;
 * - `listen`: an HTTP server on 127.0.0.1, port 0; `freePort` for an address to register;
 * - `launch`: the application, started with the suite's SPECGATE_* contract variables;
 * - cleanup: everything started through the harness (servers, launches, anything handed to
 *   `own`) is stopped when the case ends, whether it passed, failed, errored or timed out.
 */
export interface ClientHarness {
  readonly clock: ClientClock;
  /** Serves `handler` on 127.0.0.1 and an ephemeral port until the harness closes. */
  listen(handler: RequestListener): Promise<LoopbackServer>;
  /** A port free on 127.0.0.1 right now (e.g. for a callback address the application registers). */
  freePort(): Promise<number>;
  /**
   * Starts the application under test; it is stopped (with its process group) at the latest
   * when the harness closes. `what` names it in errors (e.g. how the user gives the command).
   */
  launch(command: unknown, contract: Readonly<Record<string, string>>, what?: string): ClientProcess;
  /** Stops `resource` when the harness closes (a server the suite started itself). */
  own<T extends Stoppable>(resource: T): T;
}

export interface Stoppable {
  stop(): Promise<void>;
}

export interface LoopbackServer extends Stoppable {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
}

/** How a launched client ended, once the harness has stopped it if needed. */
export interface FinishedClient {
  exit: ClientExit;
  /** True when the harness had to stop it (it was still running). */
  stopped: boolean;
  stdout: string;
  stderr: string;
  /** The run as a report exchange: command, how it ended, the tail of its output. */
  exchange: Exchange;
}

/**
 * Runs `play` with a harness bound to the case's `signal`, and always cleans up after it:
 * launched clients first (their group killed), then servers in reverse order of start.
 */
export async function withClientHarness<T>(signal: AbortSignal, play: (h: ClientHarness) => Promise<T>): Promise<T> {
  // the thread that starts clients gets ready while the played side starts its servers
  prepareClientLaunches();
  const clients: ClientProcess[] = [];
  const owned: Stoppable[] = [];
  const clock = new ClientClock();
  const clockHook = await listenLoopback(clientClockHandler(clock));
  owned.push(clockHook);
  const harness: ClientHarness = {
    clock,
    listen: async (handler) => harness.own(await listenLoopback(handler)),
    freePort,
    launch: (command, contract, what) => {
      const proc = launchClient(command, { [CLIENT_CLOCK_VAR]: clockHook.url, ...contract }, signal, what);
      clients.push(proc);
      return proc;
    },
    own: (resource) => {
      owned.push(resource);
      return resource;
    },
  };
  try {
    return await play(harness);
  } finally {
    await Promise.allSettled(clients.map((c) => c.stop()));
    for (const r of owned.reverse()) await r.stop().catch(() => undefined);
  }
}

/** Stops `client` if it is still running and says how it ended, with an exchange for the report. */
export async function finishClient(client: ClientProcess, label = 'client'): Promise<FinishedClient> {
  const stopped = !client.exit();
  const exit = await client.stop();
  const stdout = client.stdout();
  const stderr = client.stderr();
  const exchange: Exchange = {
    kind: 'exec',
    summary: `${label} ${client.argv.join(' ')} -> ${stopped ? 'stopped by the harness' : describeExit(exit)}`,
    response: { stdout: outputTail(stdout), stderr: outputTail(stderr) },
  };
  return { exit, stopped, stdout, stderr, exchange };
}

async function listenLoopback(handler: RequestListener): Promise<LoopbackServer> {
  const server = createServer(handler);
  // A client that keeps its connection open must not hold the case's cleanup.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) => reject(new SpecgateError('SG_INTERNAL', `cannot listen on 127.0.0.1: ${e.message}`)));
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export { freePort };
