import { SpecgateError } from '../../../src/errors.js';

/**
 * The launch contract between specgate (playing the platform of spec 000 part B) and a client
 * application under test. The harness starts the client as a process with these environment
 * variables; the client talks to the platform over HTTP and to the user through standard output.
 * See reference/oauth/client/README.md for the full contract.
 */

/** Environment variable names of the launch contract. */
export const CLIENT_ENV = {
  /** `web` (authorization code grant) or `device` (device authorization grant). */
  flow: 'SPECGATE_FLOW',
  /** {auth_url}: authorization pages and token endpoint. */
  authUrl: 'SPECGATE_AUTH_URL',
  /** {api_url}: the resource API (GET {api_url}/user). */
  apiUrl: 'SPECGATE_API_URL',
  clientId: 'SPECGATE_CLIENT_ID',
  /** Given in both flows: the device flow must not send it (B, Authentication 2). */
  clientSecret: 'SPECGATE_CLIENT_SECRET',
  /** The callback URL registered in the application settings (a loopback literal with a port). */
  callbackUrl: 'SPECGATE_CALLBACK_URL',
  /** Space-delimited scopes to request (may be empty). */
  scope: 'SPECGATE_SCOPE',
} as const;

export type ClientFlow = 'web' | 'device';

export interface ClientEnv {
  flow: ClientFlow;
  authUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  callbackUrl: string;
  scope: string;
}

/** The requested scopes of SPECGATE_SCOPE. */
export function scopeList(e: ClientEnv): string[] {
  return e.scope.split(/\s+/).filter(Boolean);
}

/** Exit statuses of the reference client (a client under test may use any non-zero status for failures). */
export const CLIENT_EXIT = {
  /** Token received and the user revalidated. */
  ok: 0,
  /** The environment does not follow the contract. */
  usage: 64,
  /** The flow was aborted on purpose: state mismatch, user cancelled, code expired. */
  aborted: 2,
  /** The platform answered something the client cannot go on with. */
  platform: 3,
} as const;

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Reads and checks the contract's variables; throws SG_CONFIG naming what is missing or wrong. */
export function readClientEnv(env: NodeJS.ProcessEnv): ClientEnv {
  const get = (name: string, required = true): string => {
    const v = env[name];
    if (required && (v === undefined || v === '')) throw new SpecgateError('SG_CONFIG', `${name} is not set: start this client with the variables of the specgate client launch contract (reference/oauth/client/README.md)`);
    return v ?? '';
  };
  const flow = get(CLIENT_ENV.flow);
  if (flow !== 'web' && flow !== 'device') throw new SpecgateError('SG_CONFIG', `${CLIENT_ENV.flow} must be web or device, not "${flow}": set it to the flow to run`);
  return {
    flow,
    authUrl: trimSlash(get(CLIENT_ENV.authUrl)),
    apiUrl: trimSlash(get(CLIENT_ENV.apiUrl)),
    clientId: get(CLIENT_ENV.clientId),
    clientSecret: get(CLIENT_ENV.clientSecret, false),
    callbackUrl: get(CLIENT_ENV.callbackUrl, flow === 'web'),
    scope: get(CLIENT_ENV.scope, false),
  };
}

/** The variables for a launch, as the harness sets them. */
export function clientEnvVars(e: ClientEnv): Record<string, string> {
  return {
    [CLIENT_ENV.flow]: e.flow,
    [CLIENT_ENV.authUrl]: e.authUrl,
    [CLIENT_ENV.apiUrl]: e.apiUrl,
    [CLIENT_ENV.clientId]: e.clientId,
    [CLIENT_ENV.clientSecret]: e.clientSecret,
    [CLIENT_ENV.callbackUrl]: e.callbackUrl,
    [CLIENT_ENV.scope]: e.scope,
  };
}
