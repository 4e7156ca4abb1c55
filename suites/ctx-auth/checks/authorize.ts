import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { APPENDIX_B, s256Challenge } from '../../../generators/ctx-auth/pkce-pair.js';
import { playedThirdParty } from './third-party.js';
import { thirdPartyAuthorizations } from './third-party-server.js';
import { cannotJudge, discoveredEndpoint, field, objectBody, optionalText, parseUrl, text } from './support.js';

/**
 * Parameters of one authorization request (OAuth 2.1 section 4.1.1). Left out, a parameter takes
 * the case's value (`client_id`, `redirect_uri`, `scope`), `response_type` is `code`, and PKCE is
 * RFC 7636 appendix B's S256 pair; `null` leaves a parameter out of the request altogether.
 */
export interface AuthorizeArgs {
  client_id?: string | null;
  redirect_uri?: string | null;
  response_type?: string | null;
  state?: string | null;
  scope?: string | null;
  /** The challenge is computed from it (S256, or the verifier itself for `plain`) unless code_challenge is given. */
  code_verifier?: string;
  code_challenge?: string | null;
  code_challenge_method?: string | null;
  /** Another authorization endpoint than the discovered one. */
  endpoint?: string;
}

/** What the user-agent step saw: where the authorization server sent the browser, and what it carried. */
export interface AuthorizationOutcome {
  /** The status of the authorization server's last answer (302 when it sent the browser to the client). */
  status: number | undefined;
  /** Whether the browser was sent to the redirect URI the request named (off the authorization server, when it named none). */
  redirected: boolean;
  location: string | undefined;
  code: string | undefined;
  state: string | undefined;
  error: string | undefined;
}

/** Redirects within the authorization server (a login or consent step) followed before giving up. */
export const MAX_HOPS = 5;

/** The query parameters of the request, `null` and absent values left out. */
export function authorizationQuery(ctx: CheckContext, args: AuthorizeArgs): Record<string, string> {
  const method = args.code_challenge_method === undefined ? 'S256' : args.code_challenge_method;
  let challenge = args.code_challenge;
  if (challenge === undefined) challenge = args.code_verifier === undefined ? APPENDIX_B.challenge : method === 'plain' ? args.code_verifier : s256Challenge(args.code_verifier);
  const chosen = (given: string | null | undefined, fallback: string | undefined): string | undefined => (given === null ? undefined : given ?? fallback);
  const query: Record<string, string | undefined> = {
    response_type: chosen(args.response_type, 'code'),
    client_id: chosen(args.client_id, optionalText(ctx, 'client_id')),
    redirect_uri: chosen(args.redirect_uri, optionalText(ctx, 'redirect_uri')),
    scope: chosen(args.scope, optionalText(ctx, 'scope')),
    state: args.state ?? undefined,
    code_challenge: challenge ?? undefined,
    code_challenge_method: challenge === null ? undefined : (method ?? undefined),
  };
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
}

/** The endpoint with the parameters appended to whatever query it already has. */
export function authorizationUrl(endpoint: string, query: Record<string, string>): string {
  const url = parseUrl(endpoint);
  if (!url) throw cannotJudge(`the authorization endpoint "${endpoint}" is not an absolute URL, so no authorization request can be sent to it`);
  for (const [k, v] of Object.entries(query)) url.searchParams.append(k, v);
  return url.href;
}

/**
 * The outcome read off the URL the browser was sent off the authorization server to: redirected
 * to the client when that is the redirect URI the request named (any URL off the server when it
 * named none).
 */
function landedOn(target: URL, status: number, redirectUri: string | undefined): AuthorizationOutcome {
  // an error for a response type that answers in the fragment (token) comes back there, not in
  // the query (RFC 6749 §4.2.2.1): read both, the query first
  const fragment = new URLSearchParams(target.hash.replace(/^#/, ''));
  const param = (name: string): string | undefined => target.searchParams.get(name) ?? fragment.get(name) ?? undefined;
  const redirected = redirectUri === undefined || isRedirectUri(target, redirectUri);
  return { status, redirected, location: target.href, code: param('code'), state: param('state'), error: param('error') };
}

function header(res: CheckResponse, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The `name=value` part of each Set-Cookie, kept across the authorization server's own redirects. */
function keepCookies(res: CheckResponse, jar: Map<string, string>): void {
  const raw = res.headers['set-cookie'];
  for (const line of raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
    const pair = line.split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
}

/** Whether a redirect target is the client's redirect URI (same origin and path). */
function isRedirectUri(target: URL, redirectUri: string | undefined): boolean {
  const r = redirectUri === undefined ? undefined : parseUrl(redirectUri);
  return r !== undefined && r.origin === target.origin && r.pathname === target.pathname;
}

/**
 * The headless user-agent step: GET the authorization URL without following redirects, as the
 * protocol's own conformance tests do, and read `code`, `state` or `error` from the Location the
 * server sends the browser to. Redirects that stay on the authorization server (its own login or
 * consent steps) are followed, cookies kept, up to MAX_HOPS; an answer that is not a redirect
 * (a 400 error page, or a page asking a person) ends the step where it is.
 */
export async function headlessAuthorize(ctx: CheckContext, url: string, redirectUri: string | undefined, thirdParty?: string): Promise<AuthorizationOutcome> {
  const serverOrigin = new URL(url).origin;
  // a delegating server sends the browser on to its third party, which sends it back (C Auth 9)
  const within = (origin: string): boolean => origin === serverOrigin || origin === thirdParty;
  const jar = new Map<string, string>();
  let current = url;
  for (let hop = 0; ; hop++) {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await ctx.request({ method: 'GET', url: current, headers: cookie ? { Cookie: cookie } : {}, accept: 'text/html, application/json;q=0.9' });
    keepCookies(res, jar);
    const location = header(res, 'location');
    if (res.status < 300 || res.status >= 400 || location === undefined) {
      const error = text(field(res.body, 'error'));
      return { status: res.status, redirected: false, location, code: undefined, state: undefined, error: error === '' ? undefined : error };
    }
    let target: URL;
    try {
      target = new URL(location, current);
    } catch {
      throw cannotJudge(`the authorization server answered ${res.status} with Location "${location}", which is not a URL`);
    }
    if (!within(target.origin) || isRedirectUri(target, redirectUri)) return landedOn(target, res.status, redirectUri);
    if (hop + 1 >= MAX_HOPS)
      throw cannotJudge(`the authorization server kept redirecting the browser within itself (${MAX_HOPS} redirects, the last to ${target.href}); a server that asks a person to sign in or consent needs a user-agent driver: add agent: with an "authorize" action to the target profile`);
    current = target.href;
  }
}

/** A user-agent action's result, read the same way as the headless step's. */
function fromAgent(result: Record<string, unknown>): AuthorizationOutcome {
  const opt = (name: string): string | undefined => (text(result[name]) === '' ? undefined : text(result[name]));
  // a driver that could not see a status says null (a browser sent to an address nobody
  // listens on); that is no status, not status 0
  const raw = result['status'];
  const status = raw === undefined || raw === null || raw === '' ? Number.NaN : Number(raw);
  const location = opt('location');
  return {
    status: Number.isFinite(status) ? status : undefined,
    redirected: typeof result['redirected'] === 'boolean' ? result['redirected'] : location !== undefined,
    location,
    code: opt('code'),
    state: opt('state'),
    error: opt('error'),
  };
}

/**
 * Runs the authorization step: the target's user-agent driver when it has one (the profile's
 * `agent:` with an `authorize` action, given `url`, `query` and `redirect_uri`), the user-agent
 * bridge at vars.agent_bridge_url, or else the headless step.
 */
export async function authorize(ctx: CheckContext, args: AuthorizeArgs): Promise<AuthorizationOutcome> {
  const endpoint = args.endpoint ?? discoveredEndpoint(ctx, 'authorization_endpoint');
  const query = authorizationQuery(ctx, args);
  const url = authorizationUrl(endpoint, query);
  const params = { url, query, redirect_uri: query['redirect_uri'] };
  const bridge = optionalText(ctx, 'agent_bridge_url');
  if (ctx.agent || bridge) {
    let result: Record<string, unknown>;
    const driver = ctx.agent ? `user agent (${ctx.agent.kind})` : 'user-agent bridge';
    if (ctx.agent) result = await ctx.agent.perform('authorize', params, ctx.signal);
    else {
      const res = await ctx.request({ method: 'POST', url: `${bridge ?? ''}/authorize`, json: params, accept: 'json' });
      const body = objectBody(res.body);
      if (res.status !== 200 || !body) throw cannotJudge(`the user-agent bridge at vars.agent_bridge_url answered HTTP ${res.status} to authorize, not a JSON object; check the bridge`);
      result = body;
    }
    ctx.exchange({ kind: 'note', summary: `${driver}: authorize`, request: params, response: result });
    return fromAgent(result);
  }
  return headlessAuthorize(ctx, url, query['redirect_uri'], (await playedThirdParty(ctx))?.url);
}

const nullable = { type: ['string', 'null'] };

/**
 * `ctx-auth.authorize`: one authorization request through the user-agent step (see
 * {@link authorize}); sets `code`, `state`, `error` (from the redirect, or the error answer's
 * JSON), `status`, `location`, `redirected`, and `delegated` (whether the user reached the
 * played third party of a delegating server, vars.delegation_url). It judges nothing: the case's
 * expectations do.
 */
export const authorizeCheck = defineCheck<AuthorizeArgs>({
  description: 'sends one authorization request through the user-agent step (headless: no redirect followed) and sets code, state, error, status, location and redirected',
  args: {
    type: 'object',
    additionalProperties: false,
    properties: {
      client_id: { ...nullable, description: 'default: the case\'s client_id; null leaves it out' },
      redirect_uri: { ...nullable, description: 'default: the case\'s redirect_uri; null leaves it out' },
      response_type: { ...nullable, description: 'default: code' },
      state: { ...nullable, description: 'sent when given' },
      scope: { ...nullable, description: 'default: vars.scope' },
      code_verifier: { type: 'string', description: 'the challenge is computed from it' },
      code_challenge: { ...nullable, description: 'default: from code_verifier, else RFC 7636 appendix B\'s; null sends no PKCE' },
      code_challenge_method: { ...nullable, description: 'default: S256; null leaves it out' },
      endpoint: { type: 'string', description: 'default: the discovered authorization_endpoint' },
    },
  },
  judges: [],
  sets: ['code', 'state', 'error', 'status', 'location', 'redirected', 'delegated'],
  async run(ctx, args) {
    const tp = await playedThirdParty(ctx);
    const asked = tp ? thirdPartyAuthorizations(tp) : 0;
    const o = await authorize(ctx, args);
    // whether the user was sent to the played third party during the step (C Auth 9, step 2)
    const delegated = tp ? thirdPartyAuthorizations(tp) > asked : false;
    Object.assign(ctx.vars, { code: o.code, state: o.state, error: o.error, status: o.status, location: o.location, redirected: o.redirected, delegated });
  },
});
