import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { pkcePair } from '../../generators/ctx-auth/pkce-pair.js';
import { invalidRegistration, nonLoopbackHttpRegistration, validRegistration } from '../../generators/ctx-auth/registration-metadata.js';
import { referenceCtxClientCommand } from '../../reference/ctx-auth/client/command.js';
import { ctxAuthReferenceTarget } from '../../reference/ctx-auth/server/reference-target.js';
import { clientCheck } from './checks/acting-client.js';
import { authorizeCheck } from './checks/authorize.js';
import { clientChecks, ctxClientOption } from './checks/client-index.js';
import { discoverCheck } from './checks/discover.js';
import { expectCheck, requireCheck } from './checks/expect.js';
import { httpsCheck } from './checks/https.js';
import { thirdPartyCheck } from './checks/third-party.js';
import { CTX_AUTH_PASSIVE_RULES } from './passive/index.js';

/** Suite files live next to the sources; compiled code runs from dist/, so step back out. */
function suiteDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.replace(/([\\/])dist[\\/]suites[\\/]ctx-auth$/, '$1suites$1ctx-auth');
}

/**
 * Authorization of the HTTP-based context protocol (spec 000, part C, revision 2025-03-26), both
 * sides. Server side: discovery at the host root (RFC 8414 metadata or the fallback endpoints),
 * PKCE, the authorization and token endpoints, registration (RFC 7591), the bearer token on the
 * resource, and HTTPS; the flow's steps are YAML (suite.yaml fragments), and typed checks do what
 * YAML cannot: discovery and the case's applicability to the target's mode (`ctx-auth.discover`),
 * obtaining a client (`ctx-auth.client`), the headless user-agent step (`ctx-auth.authorize`), and
 * the HTTPS rule with its loopback exemption. Client side: with specgate playing the server, a
 * client's requests are judged (`--ctx-client <command>`; the reference client by default).
 * From a recording (`--target har:`), passive rules judge what the recorded exchanges show of
 * both sides (passive/).
 */
export const suite: SuiteModule = {
  name: 'ctx-auth',
  dir: suiteDir(),
  title: 'Context-protocol authorization (OAuth 2.1, RFC 8414, RFC 7591)',
  checks: {
    discover: discoverCheck,
    client: clientCheck,
    authorize: authorizeCheck,
    https: httpsCheck,
    expect: expectCheck,
    require: requireCheck,
    thirdParty: thirdPartyCheck,
    ...clientChecks,
  },
  generators: {
    pkcePair: () => pkcePair(),
    validRegistration: () => validRegistration(),
    invalidRegistration: () => invalidRegistration(),
    nonLoopbackHttpRegistration: () => nonLoopbackHttpRegistration(),
  },
  // the reference server, with the reference client as the client under test unless --ctx-client names another
  reference: {
    ...ctxAuthReferenceTarget(() => ({ ctx_client_command: referenceCtxClientCommand() })),
    // in a run, the server answers from a worker thread; the client under test is added here
    worker: {
      module: new URL('../../reference/ctx-auth/server/reference-target.js', import.meta.url).href,
      name: 'ctxAuthReference',
      around: (running) => ({ ...running, vars: { ...running.vars, ctx_client_command: referenceCtxClientCommand() } }),
    },
  },
  targetOptions: [{ ...ctxClientOption, layer: 'reference' }],
  passiveRules: CTX_AUTH_PASSIVE_RULES,
};
