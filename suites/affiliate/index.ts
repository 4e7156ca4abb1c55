import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReferenceTarget, RunningReference, SuiteModule } from '../../src/engine/suite-module.js';
import { referenceIntegrationCommand } from '../../reference/affiliate/integration/command.js';
import { affiliateReference } from '../../reference/affiliate/server/reference-target.js';
import { datesRequired } from './checks/dates-required.js';
import { httpCode } from './checks/http-code.js';
import { incomeFilter } from './checks/income-filters.js';
import { integration } from './checks/integration.js';
import { closeIdleBrowser } from '../../src/targets/browser/shared-browser.js';
import { offerList } from './checks/offer-lists.js';
import { postbackList } from './checks/postback-list.js';
import { refusal } from './checks/refusal.js';
import { registerRequired, registerTypes } from './checks/register-properties.js';
import { newLead, registerLead } from './checks/registration.js';
import { versionPath } from './checks/version-path.js';
import { whitelist } from './checks/whitelist.js';
import { windowList } from './checks/window-lists.js';
import { affiliatePassiveRules } from './passive/index.js';

/** Suite files live next to the sources; compiled code runs from dist/, so step back out. */
function suiteDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.replace(/([\\/])dist[\\/]suites[\\/]affiliate$/, '$1suites$1affiliate');
}

/**
 * What the run adds to the reference platform: the reference integration as the integration
 * under test unless `--affiliate-integration` names another, and the close of the browser that
 * rendered the integration's pages when no visit uses it, rather than keeping the run's process
 * up for its idle close.
 */
function withIntegration(running: RunningReference): RunningReference {
  return {
    ...running,
    vars: { integration_command: referenceIntegrationCommand(), ...running.vars },
    stop: async () => {
      await closeIdleBrowser();
      await running.stop();
    },
  };
}

/** The reference platform, in a worker thread of a run (in-process under `specgate serve` and in tests). */
const reference: ReferenceTarget = {
  start: async (opts) => withIntegration(await affiliateReference.start(opts)),
  takesPublicUrl: affiliateReference.takesPublicUrl,
  worker: { module: new URL('../../reference/affiliate/server/reference-target.js', import.meta.url).href, name: 'affiliateReference', around: withIntegration },
};

/**
 * The affiliate lead API (spec 001, part E), platform side: registration, the autologin
 * target, offers, leads, conversions, income and postbacks. Routes, shapes and statuses are data
 * (api.yaml, schemas/); typed checks judge what YAML cannot: refusals whose status the spec does
 * not show, a request from a source address the platform has not whitelisted, generated lead
 * requests with a required field removed (fast-check, shrunk), and the lists' filters, windows
 * and paging against the platform's own unfiltered lists. With specgate playing the platform,
 * an integration's server-side calls and the pages it serves (rendered in headless Chromium) are
 * judged too (`--affiliate-integration <command>`). A recording (`--target har:`) is judged by
 * the cases that opted in and by the rules of passive/.
 */
export const suite: SuiteModule = {
  name: 'affiliate',
  dir: suiteDir(),
  title: 'Affiliate lead API',
  checks: { datesRequired, httpCode, incomeFilter, integration, newLead, offerList, postbackList, refusal, register: registerLead, registerRequired, registerTypes, versionPath, whitelist, windowList },
  passiveRules: affiliatePassiveRules(suiteDir()),
  reference,
  targetOptions: [
    {
      flag: 'affiliate-integration',
      valueName: 'command',
      description: 'judge this affiliate integration: a command line started with SPECGATE_AFFILIATE_URL, SPECGATE_AFFILIATE_API_KEY and PORT (reference/affiliate/integration/README.md); its pages are rendered in headless Chromium',
      vars: (value) => ({ integration_command: value }),
      layer: 'reference',
    },
  ],
};
