import { flagValue } from '../../../src/targets/flag-value.js';
import { serveUntilStopped } from '../../../src/targets/serve-until-stopped.js';
import { affiliateVars } from './reference-target.js';
import { startAffiliateServer, type AffiliateServerOptions } from './server.js';

/**
 * Runs the reference affiliate platform as its own process on 127.0.0.1 (planted faults, peer
 * runs, manual poking with curl), on wall-clock time. Prints one JSON line with the variables a
 * profile needs, and stops by itself after `--lifetime` seconds (default 600) or on SIGTERM.
 *
 * Flags: `--port N`, `--lifetime S`, `--seed N`.
 */
export async function runStandalone(argv: readonly string[], options: AffiliateServerOptions = {}): Promise<void> {
  const flag = (name: string): string | undefined => flagValue(argv, name);
  const seed = flag('seed');
  const server = await startAffiliateServer({ ...options, port: Number(flag('port') ?? 0), ...(seed !== undefined ? { seed: Number(seed) } : {}) });
  process.stdout.write(`${JSON.stringify(affiliateVars(server))}\n`);
  const lifetime = Number(flag('lifetime') ?? 600) * 1000;
  serveUntilStopped(() => server.stop(), lifetime);
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) void runStandalone(process.argv.slice(2));
