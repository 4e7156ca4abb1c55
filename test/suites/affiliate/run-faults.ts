import type { RunResult } from '../../../src/engine/model.js';
import { run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { affiliateVars, startAffiliateReference } from '../../../reference/affiliate/server/reference-target.js';
import { startAffiliateServer, type AffiliateServerOptions } from '../../../reference/affiliate/server/server.js';
import type { AffiliateFault } from '../../fixtures/affiliate/faults/faults.js';
import { platformCaseIds } from './run-affiliate.js';

/**
 * Runs the platform-side cases in-process against a platform with a planted fault. It is
 * started the way the reference target starts the clean one (on the run's clock, with the same
 * variables), so the two runs differ only by the fault. A fault with `pathNames` is a platform
 * with another layout: it runs as a profile target whose `paths:` maps the operations there.
 */
export async function runFault(module: SuiteModule, fault: AffiliateFault, opts: { seed?: number; runs?: number } = {}): Promise<RunResult> {
  return runPlatform(module, fault.options, { ...opts, ...(fault.pathNames ? { pathNames: fault.pathNames } : {}) });
}

/**
 * Runs the platform-side cases in-process against the reference platform changed by `options`
 * (a planted fault, or a control platform), started the way the reference target starts the
 * clean one; with `pathNames`, as a profile target whose `paths:` maps the operations there.
 */
export async function runPlatform(module: SuiteModule, options: AffiliateServerOptions, opts: { seed?: number; runs?: number; pathNames?: Record<string, string> } = {}): Promise<RunResult> {
  // 2 generated inputs per property (a check's own cap may be lower): a fault is a systematic
  // deviation, and the property inputs are biased to the records' own values and edges, so a
  // few runs catch each as surely as many (every planted fault is caught at 2, as it was at 5;
  // the property cases were two thirds of a run's time)
  const common = { suites: ['affiliate'], seed: opts.seed ?? 4242, runs: opts.runs ?? 2, cases: platformCaseIds(module) };
  if (opts.pathNames) {
    const server = await startAffiliateServer(options);
    try {
      const section = { vars: affiliateVars(server), secrets: [server.apiKey], pathNames: opts.pathNames };
      return await run({ ...common, modules: [module], targets: { affiliate: { section, label: 'planted-fault platform', secrets: [server.apiKey] } } });
    } finally {
      await server.stop();
    }
  }
  const faulty: SuiteModule = {
    ...module,
    reference: {
      async start({ clock }) {
        const r = await startAffiliateReference({ ...options, clock });
        return { ...r, description: `affiliate platform with a planted fault at ${r.server.url}` };
      },
    },
  };
  return run({ ...common, modules: [faulty], targets: {} });
}
