import { serveUntilStopped } from '../../../src/targets/serve-until-stopped.js';
import { eventsVars } from './reference-target.js';
import { startEventsServer, type EventsServerOptions } from './server.js';
import { flagValue } from '../../../src/targets/flag-value.js';

/**
 * Runs the reference events service as its own process on 127.0.0.1 (planted faults, peer
 * runs, manual poking with curl), on wall-clock time, with the user agent's bridge
 * (`POST /__specgate/agent/new-event`). Prints one JSON line with the variables a profile
 * needs, and stops by itself after `--lifetime` seconds (default 600) or on SIGTERM.
 *
 * Flags: `--port N`, `--lifetime S`.
 */
export async function runStandalone(argv: readonly string[], options: EventsServerOptions = {}): Promise<void> {
  const flag = (name: string): string | undefined => flagValue(argv, name);
  const server = await startEventsServer({ agentBridge: true, ...options, port: Number(flag('port') ?? 0) });
  process.stdout.write(`${JSON.stringify(eventsVars(server))}\n`);
  const lifetime = Number(flag('lifetime') ?? 600) * 1000;
  serveUntilStopped(() => server.stop(), lifetime);
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) void runStandalone(process.argv.slice(2));
