import type { Clock } from '../../../src/engine/clock.js';
import type { ReferenceStartOptions, ReferenceTarget, RunningReference } from '../../../src/engine/suite-module.js';
import { CONFIDENTIAL_CLIENT_ID, CONFIDENTIAL_CLIENT_SECRET, CONFIDENTIAL_REDIRECT_URIS, PUBLIC_CLIENT_ID, PUBLIC_REDIRECT_URIS } from '../model/clients.js';
import { PROTOCOL_VERSION } from '../model/protocol.js';
import { PROFILE_SCOPE, RESOURCE_SCOPE } from '../model/scopes.js';
import { freePort } from '../../../src/targets/free-port.js';
import { OffsetClock } from './clock-hook.js';
import { startCtxServer, type CtxServerOptions, type RunningCtxServer } from './server.js';

/**
 * The variables the ctx-auth cases use, for a running reference server (see the suite's
 * suite.yaml). A profile for another server sets the same names. The preconfigured client is
 * the public `sg-ctx-public`, so `client_secret` is absent; the confidential client (client
 * credentials) comes as `confidential_client_*`. `ctx_client_command` is not set here: the
 * suite adds the reference client's command itself.
 */
export function ctxVars(server: Pick<RunningCtxServer, 'serverUrl' | 'origin' | 'issuer'> & { hooks?: boolean }): Record<string, unknown> {
  return {
    server_url: server.serverUrl,
    client_id: PUBLIC_CLIENT_ID,
    redirect_uri: PUBLIC_REDIRECT_URIS[0],
    confidential_client_id: CONFIDENTIAL_CLIENT_ID,
    confidential_client_secret: CONFIDENTIAL_CLIENT_SECRET,
    confidential_redirect_uri: CONFIDENTIAL_REDIRECT_URIS[0],
    scope: RESOURCE_SCOPE,
    insufficient_scope: PROFILE_SCOPE,
    protocol_version: PROTOCOL_VERSION,
    https_exempt_loopback: true,
    ...(server.hooks ? { observations_url: `${server.issuer}/__specgate/observations` } : {}),
  };
}

export type CtxReferenceOptions = Partial<Omit<CtxServerOptions, 'clock'>> & {
  clock: Clock;
  /**
   * Delegate to a third-party authorization server (C Auth 9) that the run plays: a free port is
   * chosen for it, the server delegates to that address, and `delegation_url` names it to the
   * cases, which start specgate's third party there.
   */
  delegation?: boolean;
  /** More variables (the suite adds `ctx_client_command`); they win over the reference's. */
  extraVars?: Record<string, unknown>;
};

/**
 * Starts the reference server in any of its modes (metadata, registration, customPaths, the
 * client-side scenarios, planted faults) and describes it as a target.
 */
export async function startCtxReference(opts: CtxReferenceOptions): Promise<RunningReference & { server: RunningCtxServer }> {
  const { extraVars, delegation, ...rest } = opts;
  const serverOpts: Omit<CtxReferenceOptions, 'extraVars' | 'delegation'> = delegation ? { ...rest, delegateTo: `http://127.0.0.1:${await freePort()}` } : rest;
  const server = await startCtxServer(serverOpts);
  const modes = [
    serverOpts.metadata === false ? 'no metadata' : 'metadata',
    serverOpts.registration === false ? 'no registration' : 'registration',
    ...(serverOpts.customPaths ? ['custom paths'] : []),
    ...(serverOpts.delegateTo ? [`delegating to the third party at ${serverOpts.delegateTo}`] : []),
  ];
  const delegationVars = serverOpts.delegateTo ? { delegation_url: serverOpts.delegateTo } : {};
  return {
    description: `reference context-protocol authorization server (spec 000 part C; ${modes.join(', ')}) at ${server.serverUrl}`,
    vars: { ...ctxVars({ ...server, hooks: serverOpts.hooks === true }), ...delegationVars, ...extraVars },
    // another process moves its clock through the hook; the client under test is named by the
    // run that judges one (--ctx-client), not by the server's profile
    ...(serverOpts.hooks === true
      ? {
          served: {
            listening: server.origin,
            vars: { ...ctxVars({ ...server, hooks: true }), ...delegationVars },
            clock: { advance: { method: 'POST', url: `${server.issuer}/__specgate/clock/advance`, json: { ms: '${ms}' } } },
          },
        }
      : {}),
    server,
    stop: () => server.stop(),
  };
}

/**
 * How the embedded target starts for the engine's options: on the engine's virtual clock in a
 * run; under `specgate serve` on wall-clock time plus the offset its clock hook adds (a real
 * client sees time pass, a case can still make a token expire), with the hooks served.
 */
export function referenceStartOptions(start: ReferenceStartOptions): CtxReferenceOptions {
  return {
    clock: start.standalone ? new OffsetClock() : start.clock,
    ...(start.port ? { port: start.port } : {}),
    ...(start.standalone ? { hooks: true } : {}),
    ...(start.publicUrl ? { publicUrl: start.publicUrl } : {}),
  };
}

/**
 * The embedded default target of the ctx-auth suite, with metadata and registration. `extra`
 * adds variables at each start (the suite passes the reference client's command this way, so
 * the server never imports the client).
 */
export function ctxAuthReferenceTarget(extra: () => Record<string, unknown> = () => ({})): ReferenceTarget {
  return { start: (start) => startCtxReference({ ...referenceStartOptions(start), extraVars: extra() }), takesPublicUrl: true };
}

/** The embedded target without extra variables. */
export const ctxAuthReference: ReferenceTarget = ctxAuthReferenceTarget();
