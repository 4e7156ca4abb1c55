import { expect } from 'vitest';
import type { CtxObservation } from '../../reference/ctx-auth/server/observations.js';
import { CTX_SCENARIOS, find, form, grants, issuedRefresh, issuedToken, json, param, redirectParams, runClient, s256, type ClientRun, type CtxScenario, type RunOptions } from '../fixtures/ctx-auth/peers/run-client.js';
import { namedRuns } from './named-runs.js';

/** One run of a client command: the scenario its played server plays, and how it is launched. */
export interface PlannedRun {
  scenario: CtxScenario;
  opts?: RunOptions;
}

/** Every client-side scenario of the suite, each launched with `opts`. */
export function everyScenario(opts: RunOptions = {}): Record<CtxScenario, PlannedRun> {
  return Object.fromEntries(CTX_SCENARIOS.map((scenario) => [scenario, { scenario, opts }])) as Record<CtxScenario, PlannedRun>;
}

/**
 * Registers, in the calling `describe`, a `beforeAll` that runs the client `command` once per
 * planned run, two at a time (each plays a server of its own). Returns the reader of a run by
 * name, for once that hook is done.
 */
export function clientRuns<K extends string>(command: readonly string[], plan: Readonly<Record<K, PlannedRun>>, timeoutMs: number): (name: K) => ClientRun {
  const jobs = (): Record<K, () => Promise<ClientRun>> => {
    const out = {} as Record<K, () => Promise<ClientRun>>;
    for (const name of Object.keys(plan) as K[]) out[name] = () => runClient(command, plan[name].scenario, plan[name].opts);
    return out;
  };
  return namedRuns(jobs, timeoutMs);
}

/** The registration and the authorization request of a run; throws when either is missing. */
function registrationAndAuthorization(r: ClientRun): { reg: CtxObservation; authz: CtxObservation } {
  const [reg] = find(r, 'POST', '/register');
  const [authz] = find(r, 'GET', '/authorize');
  if (!reg || !authz) throw new Error('no registration or authorization request');
  return { reg, authz };
}

/**
 * Asserts that the client registered by JSON with the redirect URI it then authorized with, and
 * authorized as the client the registration answered; returns both requests for further checks.
 */
export function expectRegistrationUsed(r: ClientRun): { reg: CtxObservation; authz: CtxObservation } {
  const { reg, authz } = registrationAndAuthorization(r);
  expect(reg.headers['content-type']).toBe('application/json');
  expect(json(reg.body)['redirect_uris']).toEqual([param(authz, 'redirect_uri')]);
  expect(param(authz, 'client_id')).toBe(json(reg.responseBody)['client_id']);
  return { reg, authz };
}

/** Asserts that an authorization request asks for a code with an S256 challenge, a random state and the scope `ctx`. */
export function expectPkceAuthorization(authz: CtxObservation): void {
  expect(param(authz, 'response_type')).toBe('code');
  expect(param(authz, 'code_challenge_method')).toBe('S256');
  expect(param(authz, 'code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(param(authz, 'state')?.length).toBeGreaterThanOrEqual(43);
  expect(param(authz, 'scope')).toBe('ctx');
}

/**
 * Asserts that the client exchanged the code once: the code it was redirected with, the same
 * redirect_uri and client_id as its authorization request, and the verifier of its challenge.
 * Returns the requests and the token request's form for further checks.
 */
export function expectOneCodeExchange(r: ClientRun): { authz: CtxObservation; tok: CtxObservation; form: URLSearchParams } {
  const [authz] = find(r, 'GET', '/authorize');
  const exchanges = grants(r, 'authorization_code');
  expect(exchanges).toHaveLength(1);
  const [tok] = exchanges;
  if (!authz || !tok) throw new Error('no authorization or token request');
  const f = form(tok);
  expect(f.get('code')).toBe(redirectParams(authz).get('code'));
  expect(f.get('redirect_uri')).toBe(param(authz, 'redirect_uri'));
  expect(f.get('client_id')).toBe(param(authz, 'client_id'));
  expect(s256(f.get('code_verifier') ?? '')).toBe(param(authz, 'code_challenge'));
  return { authz, tok, form: f };
}

/**
 * Asserts that every resource call after the first carries the issued token as Bearer, that no
 * request put a token in its query, and that the two calls after the session began echo the
 * `ctx-session-id` the first answered call got. Returns the calls and that session ID.
 */
export function expectBearerSession(r: ClientRun): { first: CtxObservation | undefined; later: CtxObservation[]; session: string | undefined } {
  const [tok] = grants(r, 'authorization_code');
  if (!tok) throw new Error('no token request');
  const [first, ...later] = find(r, 'POST', '/ctx');
  expect(later.map((o) => o.headers['authorization'])).toEqual(later.map(() => `Bearer ${issuedToken(tok)}`));
  expect(r.observations.filter((o) => 'access_token' in o.query)).toEqual([]);
  const session = later[0]?.responseHeaders['ctx-session-id'];
  expect(later.slice(1).map((o) => o.headers['ctx-session-id'])).toEqual([session, session]);
  return { first, later, session };
}

/**
 * Asserts the refresh chain of the mid-session-expiry scenario: two refreshes, the first with the
 * refresh token the code exchange issued, the second with the one the first refresh issued, and
 * the request after each carrying the access token it got. Returns the refreshes.
 */
export function expectRefreshChain(r: ClientRun): CtxObservation[] {
  const [code] = grants(r, 'authorization_code');
  const refreshes = grants(r, 'refresh_token');
  if (!code || !refreshes[0]) throw new Error('no code exchange or refresh');
  expect(refreshes.map((o) => form(o).get('refresh_token'))).toEqual([issuedRefresh(code), issuedRefresh(refreshes[0])]);
  for (const refresh of refreshes) {
    expect(r.observations.find((o) => o.seq === refresh.seq + 1)?.headers['authorization']).toBe(`Bearer ${issuedToken(refresh)}`);
  }
  return refreshes;
}
