import { SpecgateError } from '../../../src/errors.js';

/**
 * The launch contract between specgate (playing a server of the context protocol, spec 000
 * part C, revision 2025-03-26, and its authorization server) and a client under test: the
 * harness starts the client as a process with these environment variables and judges every
 * request the played server receives. See README.md in this folder.
 */
export const CTX_CLIENT_ENV = {
  /** The server URL, with its path (the resource requests go to it). */
  serverUrl: 'SPECGATE_CTX_SERVER_URL',
  /** Resource calls to make in one session; the first is `initialize`. Default 3. */
  calls: 'SPECGATE_CTX_CALLS',
  /** Space-delimited scopes to request (may be empty: no `scope` is sent then). */
  scope: 'SPECGATE_CTX_SCOPE',
  /** A preconfigured client (set when the played server offers no registration). */
  clientId: 'SPECGATE_CTX_CLIENT_ID',
  clientSecret: 'SPECGATE_CTX_CLIENT_SECRET',
  redirectUri: 'SPECGATE_CTX_REDIRECT_URI',
  /** Header naming the protocol version during metadata discovery. */
  versionHeader: 'SPECGATE_CTX_VERSION_HEADER',
  /** Header carrying the session id the server answered to `initialize`. */
  sessionHeader: 'SPECGATE_CTX_SESSION_HEADER',
} as const;

/** The revision this client implements (C, Versioning 2: sent during metadata discovery). */
export const CTX_PROTOCOL_VERSION = '2025-03-26';
export const DEFAULT_VERSION_HEADER = 'CTX-Protocol-Version';
export const DEFAULT_SESSION_HEADER = 'CTX-Session-Id';
export const DEFAULT_CALLS = 3;
/**
 * The redirect URI the client registers when none is given. The user-agent step is headless
 * (the code is read from the redirect's Location), so nothing listens there; it is a loopback
 * URL because redirect URIs must be localhost or HTTPS (C, Authorization 8).
 */
export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:7777/callback';

export interface CtxClientEnv {
  serverUrl: string;
  calls: number;
  scope: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  redirectUri: string;
  versionHeader: string;
  sessionHeader: string;
}

/** Exit statuses of the bundled clients (a client under test may use any non-zero status for failures). */
export const CTX_CLIENT_EXIT = {
  /** Every call of the session answered. */
  ok: 0,
  /** A request failed or the server answered something the client cannot go on with. */
  failed: 1,
  /** The environment does not follow the contract. */
  usage: 2,
  /** The client refused to go on on purpose: the authorization response's state is not the one sent. */
  refused: 3,
} as const;

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

const usage = (message: string): SpecgateError => new SpecgateError('SG_CONFIG', `${message} (see the ctx-auth client contract, reference/ctx-auth/client/README.md)`);

/** Reads and checks the contract's variables; throws SG_CONFIG naming the one that is missing or wrong. */
export function readCtxClientEnv(env: NodeJS.ProcessEnv): CtxClientEnv {
  const serverUrl = optional(env, CTX_CLIENT_ENV.serverUrl);
  if (serverUrl === undefined) throw usage(`${CTX_CLIENT_ENV.serverUrl} is not set: start this client with the server URL to call`);
  if (!/^https?:\/\/[^/]/.test(serverUrl)) throw usage(`${CTX_CLIENT_ENV.serverUrl} must be an http(s) URL, not "${serverUrl}"`);
  const callsText = optional(env, CTX_CLIENT_ENV.calls);
  const calls = callsText === undefined ? DEFAULT_CALLS : Number(callsText);
  if (!Number.isInteger(calls) || calls < 1) throw usage(`${CTX_CLIENT_ENV.calls} must be a positive integer, not "${callsText ?? ''}"`);
  const redirectUri = optional(env, CTX_CLIENT_ENV.redirectUri) ?? DEFAULT_REDIRECT_URI;
  try {
    new URL(redirectUri);
  } catch {
    throw usage(`${CTX_CLIENT_ENV.redirectUri} must be an absolute URL, not "${redirectUri}"`);
  }
  return {
    serverUrl,
    calls,
    scope: optional(env, CTX_CLIENT_ENV.scope) ?? '',
    clientId: optional(env, CTX_CLIENT_ENV.clientId),
    clientSecret: optional(env, CTX_CLIENT_ENV.clientSecret),
    redirectUri,
    versionHeader: optional(env, CTX_CLIENT_ENV.versionHeader) ?? DEFAULT_VERSION_HEADER,
    sessionHeader: optional(env, CTX_CLIENT_ENV.sessionHeader) ?? DEFAULT_SESSION_HEADER,
  };
}

/** The variables for a launch, as the harness sets them (unset optional ones are left out). */
export function ctxClientEnvVars(e: Partial<CtxClientEnv> & { serverUrl: string }): Record<string, string> {
  const out: Record<string, string> = { [CTX_CLIENT_ENV.serverUrl]: e.serverUrl };
  if (e.calls !== undefined) out[CTX_CLIENT_ENV.calls] = String(e.calls);
  if (e.scope !== undefined) out[CTX_CLIENT_ENV.scope] = e.scope;
  if (e.clientId !== undefined) out[CTX_CLIENT_ENV.clientId] = e.clientId;
  if (e.clientSecret !== undefined) out[CTX_CLIENT_ENV.clientSecret] = e.clientSecret;
  if (e.redirectUri !== undefined) out[CTX_CLIENT_ENV.redirectUri] = e.redirectUri;
  if (e.versionHeader !== undefined) out[CTX_CLIENT_ENV.versionHeader] = e.versionHeader;
  if (e.sessionHeader !== undefined) out[CTX_CLIENT_ENV.sessionHeader] = e.sessionHeader;
  return out;
}
