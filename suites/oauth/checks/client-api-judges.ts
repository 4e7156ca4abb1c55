import type { ObservedRequest } from '../../../reference/oauth/server/observation.js';
import { authorization, isApiCall, issuedToken, toExchange } from './client-log.js';
import { fail, unjudged, type Verdict } from '../../../src/engine/checks/contract.js';

/**
 * Judges of what an application does with a token, shared by both flows:
 * OAUTH-CLIENT-REVALIDATE-USER (spec 000, B, Endpoints 3: after every token, GET {api_url}/user
 * with it) and OAUTH-CLIENT-BEARER (B, Authentication 3: API calls use
 * `Authorization: Bearer <ACCESS_TOKEN>`). Kept apart on purpose: a client that calls /user
 * with the wrong scheme revalidates (and fails BEARER); one that never calls it fails
 * REVALIDATE-USER and shows nothing about BEARER.
 */
export interface ApiView {
  requests: readonly ObservedRequest[];
  t0: number;
  /** Why the flow did not get as far as a token, when it did not. */
  problem?: string | undefined;
}

/** Whether a request carries `token` in any way a server could read it (header or query). */
function carries(e: ObservedRequest, token: string): boolean {
  return authorization(e)?.credentials === token || Object.values(e.query).includes(token) || (e.headers['authorization'] ?? '').includes(token);
}

export function judgeRevalidateUser(v: ApiView): Verdict {
  const tokens = v.requests.map((e) => ({ e, token: issuedToken(e) })).filter((x): x is { e: ObservedRequest; token: string } => x.token !== undefined);
  if (!tokens.length) return unjudged(v.problem ?? 'the client never received a token');
  for (const { e, token } of tokens) {
    const check = v.requests.find((x) => x.seq > e.seq && x.method === 'GET' && x.path === '/api/user' && carries(x, token));
    if (!check) {
      const api = v.requests.filter((x) => x.seq > e.seq && isApiCall(x)).map((x) => `${x.method} ${x.path}`);
      return fail(`after receiving a token the client did not call GET {api_url}/user with it${api.length ? ` (it called ${api.join(', ')})` : ' (no API call at all)'}`, {
        expected: 'GET {api_url}/user with the new token, after the token response',
        actual: api.length ? api : 'no API request',
        exchange: toExchange(e, v.t0),
      });
    }
  }
  return { ok: true, observed: tokens.length };
}

/**
 * Judged on the API calls that present a credential at all (an Authorization header, or an
 * issued token anywhere in the query): a call without one is an unauthenticated call, which
 * the rule does not cover.
 */
export function judgeBearer(v: ApiView): Verdict {
  const tokens = new Set(v.requests.map(issuedToken).filter((t): t is string => t !== undefined));
  const inQuery = (e: ObservedRequest): boolean => [...tokens].some((t) => Object.values(e.query).includes(t));
  const calls = v.requests.filter((e) => isApiCall(e) && (authorization(e) !== undefined || inQuery(e)));
  if (!calls.length) {
    const anyApi = v.requests.some(isApiCall);
    return unjudged(tokens.size ? `the client made no authenticated API call${anyApi ? ' (only calls without credentials)' : ''}, so how it presents the token was not seen` : (v.problem ?? 'the client never received a token'));
  }
  for (const e of calls) {
    const auth = authorization(e);
    const ok = auth !== undefined && auth.scheme.toLowerCase() === 'bearer' && tokens.has(auth.credentials) && !inQuery(e);
    if (!ok) {
      return fail(
        inQuery(e)
          ? `the client put the access token in the query string of ${e.method} ${e.path}`
          : `the client called ${e.method} ${e.path} with Authorization: ${auth?.scheme ?? ''} …, not Authorization: Bearer <ACCESS_TOKEN>`,
        { expected: 'Authorization: Bearer <ACCESS_TOKEN>', actual: auth ? `${auth.scheme} ${tokens.has(auth.credentials) ? '<ACCESS_TOKEN>' : '<something else>'}` : 'token in the query', exchange: toExchange(e, v.t0) },
      );
    }
  }
  return { ok: true, observed: calls.length };
}
