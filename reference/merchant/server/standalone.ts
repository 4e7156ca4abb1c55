import { serveUntilStopped } from '../../../src/targets/serve-until-stopped.js';
import { merchantVars } from './reference-target.js';
import { startMerchantServer, type MerchantServerOptions } from './server.js';
import { flagValue } from '../../../src/targets/flag-value.js';

/**
 * Runs the reference merchant service as its own process on 127.0.0.1 (planted faults, peer
 * runs, manual poking with curl). Prints one JSON line with the variables a profile needs, and
 * stops by itself after `--lifetime` seconds (default 600) or on SIGTERM.
 *
 * Flags: `--port N`, `--lifetime S`.
 */
export async function runStandalone(argv: readonly string[], options: MerchantServerOptions = {}): Promise<void> {
  const flag = (name: string): string | undefined => flagValue(argv, name);
  const server = await startMerchantServer({ ...options, port: Number(flag('port') ?? 0) });
  process.stdout.write(`${JSON.stringify(merchantVars(server))}\n`);
  const lifetime = Number(flag('lifetime') ?? 600) * 1000;
  serveUntilStopped(() => server.stop(), lifetime);
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) void runStandalone(process.argv.slice(2));
