import { kebab } from '../../../src/engine/api/operation-rows.js';
import type { RunResult } from '../../../src/engine/model.js';
import { loadSuites, run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { startMerchantServer, type MerchantServerOptions } from '../../../reference/merchant/server/server.js';
import { suite } from '../../../suites/merchant/index.js';
export { erroredCases, failedRequirements } from '../../helpers/verdicts.js';

/** The requirement of one operation, as the route cases name it: `recommendations.reportInteraction` -> `MERCHANT-OP-RECOMMENDATIONS-REPORT-INTERACTION`. */
export function opRequirement(operationId: string): string {
  return `MERCHANT-OP-${kebab(operationId).toUpperCase()}`;
}

/** IDs of the merchant suite's server-side cases (every case but the client ones). */
export function serverCaseIds(): string[] {
  const loaded = loadSuites([suite], ['merchant']).suites[0];
  return (loaded?.cases ?? []).filter((c) => !c.id.startsWith('client-')).map((c) => c.id);
}

/** Runs the merchant suite's server-side cases in-process against the reference service, or one started with `options` (a planted fault). */
export async function runMerchant(opts: { options?: MerchantServerOptions; seed?: number; cases?: string[]; runs?: number } = {}): Promise<RunResult> {
  const module: SuiteModule = opts.options
    ? {
        ...suite,
        reference: {
          async start() {
            const s = await startMerchantServer(opts.options ?? {});
            return { description: `merchant service with a planted fault at ${s.url}`, vars: { merchant_url: s.url, merchant_id: s.merchantId, css_group_id: s.cssGroupId, css_domain_id: s.cssDomainId, country: 'US' }, stop: () => s.stop() };
          },
        },
      }
    : suite;
  return run({ modules: [module], suites: ['merchant'], targets: {}, seed: opts.seed ?? 4242, cases: opts.cases ?? serverCaseIds(), ...(opts.runs ? { runs: opts.runs } : {}) });
}

/** Requirements with a blocked verdict, each with the requirements it is blocked by. */
export function blockedRequirements(r: RunResult): { id: string; blockedBy: string[] }[] {
  return r.requirements.filter((v) => v.status === 'blocked').map((v) => ({ id: v.id, blockedBy: v.blockedBy ?? [] }));
}

/** Cases that ended blocked, each with the requirement it is blocked by. */
export function blockedCases(r: RunResult): { id: string; blockedBy: string }[] {
  return r.suites.flatMap((s) => s.cases.flatMap((c) => (c.blockedBy ? [{ id: c.id, blockedBy: c.blockedBy.requirement }] : [])));
}

