import { rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { run } from '../../src/engine/run.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { listenOnLoopback } from '../../src/targets/loopback-server.js';
import type { TargetSection } from '../../src/targets/target-section.js';

/**
 * A suite in `dir` (written by the test) run against a vendor played by `vendor` on loopback:
 * the server listens for the test file's tests and stops after them, `dir` is removed then.
 * Returns what runs the suite (seed 1) with `base_url` set to the vendor and `extra` laid over
 * the target's section (field or header names, ...).
 */
export function vendorSuiteRun(name: string, dir: string, vendor: RequestListener): (extra?: Omit<TargetSection, 'vars'>) => ReturnType<typeof run> {
  let listening: Awaited<ReturnType<typeof listenOnLoopback>> | undefined;
  beforeAll(async () => {
    listening = await listenOnLoopback(createServer(vendor));
  });
  afterAll(async () => {
    await listening?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const module: SuiteModule = { name, dir, reference: { start: async () => ({ description: 'none', vars: {}, stop: async () => undefined }) } };
  return (extra = {}) => {
    if (!listening) throw new Error('the vendor is not listening yet: run the suite from a test');
    const section: TargetSection = { vars: { base_url: listening.url }, ...extra };
    return run({ modules: [module], suites: [name], targets: { [name]: { section, label: 'vendor', secrets: [] } }, seed: 1 });
  };
}
