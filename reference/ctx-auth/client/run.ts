import { SpecgateError } from '../../../src/errors.js';
import { authorize } from './authorize.js';
import { REFERENCE_BEHAVIOUR, type CtxClientBehaviour } from './behaviour.js';
import { CTX_CLIENT_EXIT, readCtxClientEnv, type CtxClientEnv } from './contract.js';
import { discoverEndpoints, type AuthEndpoints } from './discovery.js';
import { obtainClient, type CtxClient } from './registration.js';
import { callResource, checkAnswered, type ResourceSession } from './resource.js';
import { refreshTokens, type Tokens } from './tokens.js';

export type Log = (line: string) => void;

/** The methods of one session: `initialize` first, then `ping` (C: any call needs the token). */
export function sessionMethods(calls: number): string[] {
  return ['initialize', ...Array.from({ length: calls - 1 }, () => 'ping')];
}

/**
 * One session of a client of the context protocol at revision 2025-03-26 (spec 000 part C):
 * the first call goes without a token; its 401 starts the flow (C, Authorization 5): metadata
 * discovery at the root, or the fallbacks; registration unless a client ID was given; the
 * authorization code flow with PKCE. Every later call carries the token. A 401 in the middle
 * of the session (an expired token, C, Authorization 7) is met with a refresh when a refresh
 * token was issued, else with the flow again, and the call is retried once.
 */
export async function runCtxClient(env: CtxClientEnv, b: CtxClientBehaviour = REFERENCE_BEHAVIOUR, log: Log = () => undefined): Promise<void> {
  let flow: { endpoints: AuthEndpoints; client: CtxClient } | undefined;
  let tokens: Tokens | undefined;
  const session: ResourceSession = { sessionId: undefined, nextId: 1 };

  const startFlow = async (): Promise<Tokens> => {
    if (flow === undefined) {
      const endpoints = await discoverEndpoints(env, b);
      log(`endpoints from ${endpoints.source === 'metadata' ? 'the server metadata' : 'the fallback paths'}: ${endpoints.authorization}, ${endpoints.token}`);
      const client = await obtainClient(env, endpoints, b);
      log(`${client.origin === 'registered' ? 'registered' : 'using the given'} client ${client.clientId}`);
      flow = { endpoints, client };
    }
    const issued = await authorize(env, flow.endpoints, flow.client, b);
    log('authorized: access token received');
    return issued;
  };

  const renew = async (current: Tokens): Promise<Tokens> => {
    const step = b.afterExpiry(current.refreshToken !== undefined);
    if (step === 'give-up') throw new SpecgateError('SG_TARGET_PROTOCOL', 'the server refused the token in the middle of the session');
    if (step === 'refresh' && current.refreshToken !== undefined && flow !== undefined) {
      const refreshed = await refreshTokens(flow.endpoints, flow.client, current.refreshToken);
      if (refreshed) {
        log('token refreshed');
        return refreshed;
      }
      log('the refresh token was refused: starting the flow again');
    }
    return startFlow();
  };

  for (const method of sessionMethods(env.calls)) {
    const id = session.nextId++;
    let answer = await callResource(env, b, tokens?.accessToken, session, method, id);
    if (answer.status === 401) {
      tokens = tokens === undefined ? await startFlow() : await renew(tokens);
      answer = await callResource(env, b, tokens.accessToken, session, method, id);
      if (answer.status === 401) throw new SpecgateError('SG_TARGET_PROTOCOL', `resource call ${method}: POST ${env.serverUrl} answered 401 again with the token just issued`);
    }
    checkAnswered(answer, method, id, env.serverUrl);
    log(`${method}: answered`);
  }
}

/** The exit status for an error: on purpose (state mismatch), usage, or a failure. */
export function exitStatusFor(e: unknown): number {
  if (e instanceof SpecgateError && e.detail?.['refused'] === true) return CTX_CLIENT_EXIT.refused;
  if (e instanceof SpecgateError && e.code === 'SG_CONFIG') return CTX_CLIENT_EXIT.usage;
  return CTX_CLIENT_EXIT.failed;
}

/** The process entry: reads the launch contract, runs one session, exits with the contract's status. */
export function ctxClientMain(b: CtxClientBehaviour = REFERENCE_BEHAVIOUR): void {
  let env: CtxClientEnv;
  try {
    env = readCtxClientEnv(process.env);
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(CTX_CLIENT_EXIT.usage);
  }
  runCtxClient(env, b, (line) => void process.stdout.write(`${line}\n`)).then(
    () => process.exit(CTX_CLIENT_EXIT.ok),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(exitStatusFor(e));
    },
  );
}
