import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReferenceTarget, RunningReference, SuiteModule } from '../../src/engine/suite-module.js';
import { referenceMerchantClientCommand } from '../../reference/merchant/client/command.js';
import { startMerchantReference } from '../../reference/merchant/server/reference-target.js';
import { clientRequests } from './checks/client-requests.js';
import { versionPrefix } from './checks/version-prefix.js';
import { MERCHANT_PASSIVE_RULES } from './passive/index.js';
import { conversionStates } from './transitions.js';

/** Suite files live next to the sources; compiled code runs from dist/, so step back out. */
function suiteDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.replace(/([\\/])dist[\\/]suites[\\/]merchant$/, '$1suites$1merchant');
}

/** The reference client as the client under test, unless `--merchant-client` names another. */
function withClient(running: RunningReference): RunningReference {
  return { ...running, vars: { ...running.vars, merchant_client_command: referenceMerchantClientCommand() } };
}

/** The reference service (a fresh one on the engine's clock), in a worker thread of a run (in-process under `specgate serve` and in tests). */
const reference: ReferenceTarget = {
  start: ({ clock, port, publicUrl }) => startMerchantReference({ clock, ...(port ? { port } : {}), ...(publicUrl ? { publicUrl } : {}), clientCommand: referenceMerchantClientCommand() }),
  takesPublicUrl: true,
  worker: { module: new URL('../../reference/merchant/server/reference-target.js', import.meta.url).href, name: 'merchantReference', around: withClient },
};

/**
 * The merchant catalog API (spec 001, part D), both sides. Its 135 operations are data
 * (api.yaml); the engine's api.* checks judge one route case per operation, the custombatch
 * rule, stateful sequences per resource family and the conversion-source state table; YAML
 * cases judge what the operations' purposes state. With specgate playing the service, a
 * client's requests are judged against the same table (`--merchant-client <command>`), and
 * from a recording (`--target har:`) the requests it holds are, by the same rules.
 */
export const suite: SuiteModule = {
  name: 'merchant',
  dir: suiteDir(),
  title: 'Merchant catalog API (/content/v2.1)',
  checks: { clientRequests, versionPrefix },
  apiModels: { 'conversion-states': conversionStates },
  passiveRules: MERCHANT_PASSIVE_RULES,
  reference,
  targetOptions: [
    {
      flag: 'merchant',
      valueName: 'url',
      description: 'run the merchant suite against the service at this root URL (the API is below <url>/content/v2.1); give merchant_id and the other variables in a profile',
      vars: (url) => ({ merchant_url: url.replace(/\/+$/, '') }),
    },
    {
      flag: 'merchant-client',
      valueName: 'command',
      description: 'judge this merchant API client: a command line started with SPECGATE_MERCHANT_URL naming the service specgate plays (reference/merchant/client/README.md)',
      vars: (value) => ({ merchant_client_command: value }),
      layer: 'reference',
    },
  ],
};
