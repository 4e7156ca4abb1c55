import { SpecgateError } from '../src/errors.js';
import { VirtualClock } from '../src/engine/clock.js';
import type { SuiteModule } from '../src/engine/suite-module.js';

/**
 * `specgate serve <suite>`: starts the embedded reference implementation (on a virtual clock
 * whose hook is exposed) and prints its variables until stopped with Ctrl-C or SIGTERM.
 */
export async function serveCommand(modules: SuiteModule[], suite: string, opts: { port?: number }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const m = modules.find((x) => x.name === suite);
  if (!m) throw new SpecgateError('SG_USAGE', `no suite named "${suite}"; known suites: ${modules.map((x) => x.name).join(', ')}`);
  if (!m.reference) throw new SpecgateError('SG_USAGE', `suite ${suite} has no embedded reference implementation to serve`);
  const running = await m.reference.start({ clock: new VirtualClock(Date.now()), standalone: true, ...(opts.port !== undefined ? { port: opts.port } : {}) });
  out.write(`specgate: serving the ${suite} reference (${running.description}); Ctrl-C stops it\n`);
  for (const [k, v] of Object.entries(running.vars)) out.write(`  ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}\n`);
  if (running.exec) out.write(`  exec: ${[running.exec.command, ...(running.exec.args ?? [])].join(' ')}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await running.stop();
  out.write('specgate: stopped\n');
  return 0;
}
