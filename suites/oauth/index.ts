import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { deviceActions } from '../../generators/oauth/device-actions.js';
import { pkceCase } from '../../generators/oauth/pkce-case.js';
import { pollSchedule as pollScheduleGen } from '../../generators/oauth/poll-schedule.js';
import { callbackApps, redirectCandidate } from '../../generators/oauth/redirect-candidate.js';
import { oauthReference } from '../../reference/oauth/server/reference-target.js';
import { clientChecks, clientTargetOption } from './checks/client-index.js';
import { deviceModel } from './checks/device-model.js';
import { deviceStart } from './checks/device-start.js';
import { pkceFlow } from './checks/pkce-flow.js';
import { pollSchedule } from './checks/poll-schedule.js';
import { redirectOutcome } from './checks/redirect-outcome.js';
import { redirectTable } from './checks/redirect-table.js';
import { expectValue, requireValue } from './checks/expect-value.js';
import { signInPages } from './checks/sign-in-pages.js';
import { personalTokenUser } from './checks/personal-token.js';
import { reviewRevokes, tokenCreationRate, tokenMultiplicity, userCodeRate } from './checks/token-limits.js';
import { pkceVerdict, redirectVerdict } from './oracles.js';
import { OAUTH_PASSIVE_RULES } from './passive/index.js';

/** Suite files live next to the sources; compiled code runs from dist/, so step back out. */
function suiteDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.replace(/([\\/])dist[\\/]suites[\\/]oauth$/, '$1suites$1oauth');
}

/**
 * The platform OAuth suite (spec 000, part B), both sides: the platform's authorization
 * endpoints, web and device flows, redirect rules, PKCE, formats and limits; and, with the
 * platform played by specgate, a client application's obligations (`--client <command>`). From a
 * recording (`--target har:`), passive rules judge what recorded traffic shows of both sides.
 */
export const suite: SuiteModule = {
  name: 'oauth',
  dir: suiteDir(),
  title: 'Platform OAuth 2.0 (web application flow, device flow)',
  checks: { expect: expectValue, require: requireValue, personalTokenUser, signInPages, deviceStart, redirectOutcome, redirectTable, pkceFlow, pollSchedule, deviceModel, tokenMultiplicity, tokenCreationRate, userCodeRate, reviewRevokes, ...clientChecks },
  generators: {
    redirectCandidate: (ctx) => redirectCandidate(callbackApps(ctx.vars).slice(0, 1)),
    loopbackRedirectCandidate: (ctx) => redirectCandidate(callbackApps(ctx.vars).slice(1)),
    pkceCase: () => pkceCase(),
    pollSchedule: () => pollScheduleGen(),
    deviceActions: () => deviceActions(),
  },
  oracles: { redirectVerdict, pkceVerdict },
  passiveRules: OAUTH_PASSIVE_RULES,
  // in a run, the platform and its user agent answer from a worker thread
  reference: { ...oauthReference, worker: { module: new URL('../../reference/oauth/server/reference-target.js', import.meta.url).href, name: 'oauthReference' } },
  targetOptions: [{ ...clientTargetOption, layer: 'reference' }],
};
