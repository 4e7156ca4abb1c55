import { PUBLIC_CLIENT_ID, PUBLIC_REDIRECT_URIS } from '../../../reference/ctx-auth/model/clients.js';
import { RESOURCE_SCOPE } from '../../../reference/ctx-auth/model/scopes.js';
import type { EndpointPaths, ScenarioRun } from './client-evidence.js';
import { SCENARIO_NAMES, type ScenarioName } from './client-scenario-names.js';

/**
 * The servers specgate plays for a context-protocol client (spec 000 part C): each scenario is
 * one launch of the client against a fresh reference server started with these options, and
 * shows the requirements its cases name. A client is told only what the client contract
 * (reference/ctx-auth/client/README.md) gives it.
 */

export { SCENARIO_NAMES, type ScenarioName };

/** The reference server's options a scenario sets (reference/ctx-auth/server: CtxServerOptions). */
export interface PlayedServerOptions {
  metadata?: boolean;
  registration?: boolean;
  customPaths?: boolean;
  expireAfterCalls?: number;
  wrongState?: boolean;
}

/** The seeded public client a client is given when the played server offers no registration. */
export const PRECONFIGURED_CLIENT = { clientId: PUBLIC_CLIENT_ID, redirectUri: PUBLIC_REDIRECT_URIS[0] ?? 'http://127.0.0.1:7777/callback' } as const;

/** Resource calls a client makes in one session (SPECGATE_CTX_CALLS; the first is `initialize`). */
export const SESSION_CALLS = 3;

/** The scope a client is told to ask for: the one the played resource needs. */
export const PLAYED_SCOPE = RESOURCE_SCOPE;

export interface Scenario {
  /** One line: what the played server does differently. */
  what: string;
  server: PlayedServerOptions;
  /** The client is given the seeded client ID and redirect URI (no registration to use). */
  preconfigured: boolean;
}

export const SCENARIOS: Readonly<Record<ScenarioName, Scenario>> = {
  standard: { what: 'metadata and registration at the default paths', server: { metadata: true, registration: true }, preconfigured: false },
  'custom-paths': { what: 'metadata advertising endpoints under /oauth2/', server: { metadata: true, registration: true, customPaths: true }, preconfigured: false },
  'no-metadata': { what: 'no metadata (404): the fallback endpoints at the root, with registration', server: { metadata: false, registration: true }, preconfigured: false },
  'no-registration': { what: 'metadata without registration: the client is given a client ID', server: { metadata: true, registration: false }, preconfigured: true },
  'mid-session-expiry': { what: 'each access token is refused (401 invalid_token) after one successful resource call', server: { metadata: true, registration: true, expireAfterCalls: 1 }, preconfigured: false },
  'wrong-state': { what: 'the authorization redirect carries another state than the one received', server: { metadata: true, registration: true, wrongState: true }, preconfigured: false },
};

/** Where a scenario's server serves the three OAuth endpoints. */
export function endpointPaths(scenario: ScenarioName): EndpointPaths {
  const base = SCENARIOS[scenario].server.customPaths ? '/oauth2' : '';
  return { authorize: `${base}/authorize`, token: `${base}/token`, register: `${base}/register` };
}

export function isScenarioName(s: string): s is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).includes(s);
}

/** Where the server of a run serves the three OAuth endpoints: what it advertised, else its scenario's paths (the fallbacks for a recording). */
export function advertisedPaths(run: ScenarioRun): EndpointPaths {
  if (run.endpoints) return run.endpoints;
  return run.scenario === 'recorded' ? { authorize: '/authorize', token: '/token', register: '/register' } : endpointPaths(run.scenario);
}
