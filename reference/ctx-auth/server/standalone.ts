import { flagValue } from '../../../src/targets/flag-value.js';
import { serveUntilStopped } from '../../../src/targets/serve-until-stopped.js';
import { OffsetClock } from './clock-hook.js';
import { ctxVars } from './reference-target.js';
import { startCtxServer, type CtxServerOptions } from './server.js';

/**
 * Runs the reference server as its own process on 127.0.0.1 (planted faults, peer runs, manual
 * poking with curl), on wall-clock time plus the offset of its clock hook. Prints one JSON line
 * with the variables a profile needs, and stops by itself after `--lifetime` seconds (default
 * 600) or on SIGTERM.
 *
 * Flags: `--port N`, `--lifetime S`, `--no-metadata`, `--no-registration`, `--custom-paths`.
 */
export async function runStandalone(argv: readonly string[], options: Partial<CtxServerOptions> = {}): Promise<void> {
  const flag = (name: string): string | undefined => flagValue(argv, name);
  const server = await startCtxServer({
    hooks: true,
    ...(argv.includes('--no-metadata') ? { metadata: false } : {}),
    ...(argv.includes('--no-registration') ? { registration: false } : {}),
    ...(argv.includes('--custom-paths') ? { customPaths: true } : {}),
    ...options,
    clock: options.clock ?? new OffsetClock(),
    port: Number(flag('port') ?? 0),
  });
  process.stdout.write(`${JSON.stringify(ctxVars({ ...server, hooks: options.hooks ?? true }))}\n`);
  const lifetime = Number(flag('lifetime') ?? 600) * 1000;
  serveUntilStopped(() => server.stop(), lifetime);
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) void runStandalone(process.argv.slice(2));
