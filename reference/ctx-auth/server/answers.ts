import type { CtxModel } from '../model/ctx-model.js';
import type { EndpointPaths } from '../model/metadata.js';
import type { Delegation } from './delegation.js';
import type { CtxRouteId } from './routes.js';

/** One request, routed to its endpoint (see routes.ts). */
export interface CtxCall {
  routeId: CtxRouteId;
  method: string;
  /** The request's path as sent, query left out. */
  path: string;
  query: URLSearchParams;
  /** Request headers, lower-case names, repeated ones joined with ", ". */
  headers: Record<string, string>;
  /** The request body as text ('' when none). */
  body: string;
}

/** What an endpoint answers: a status, headers, and a JSON body, a text body or none. */
export interface CtxAnswer {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
}

/** The settings a handler follows: the server's options with their defaults filled. */
export interface CtxSettings {
  metadata: boolean;
  registration: boolean;
  customPaths: boolean;
  /** Where the protected resource is served (the server URL's path). */
  resourcePath: string;
  /** Client-side scenario: the authorization redirect carries a state other than the one received. */
  wrongState: boolean;
  /** The session header's name (lower case is not required; HTTP names are case-insensitive). */
  sessionHeader: string;
  /** The protocol version header's name (only recorded, never required). */
  versionHeader: string;
}

/** What a handler sees besides the request. */
export interface CtxHandlerContext {
  model: CtxModel;
  /** The issuer and base of every advertised endpoint: the public origin, no path, no trailing slash. */
  issuer: string;
  /** Where the authorization, token and registration endpoints are served. */
  paths: EndpointPaths;
  settings: CtxSettings;
  /** The third party the server delegates to (C Auth 9), when it does. */
  delegation?: Delegation;
}

/** Answers one endpoint. A planted fault wraps or replaces one through the server's `override`. */
export type Handler = (call: CtxCall, ctx: CtxHandlerContext) => CtxAnswer | Promise<CtxAnswer>;

export function jsonAnswer(status: number, body: unknown, headers?: Record<string, string>): CtxAnswer {
  return { status, json: body, ...(headers ? { headers } : {}) };
}

/** An OAuth error body (OAuth 2.1 §3.2.4, RFC 7591 §3.2.2): `{error, error_description}`. */
export function oauthError(status: number, error: string, description: string, headers?: Record<string, string>): CtxAnswer {
  return jsonAnswer(status, { error, error_description: description }, headers);
}

/** A 302 to `base` with `params` added to its query (its own query kept, OAuth 2.1 §4.1.2). */
export function redirectTo(base: string, params: Record<string, string | undefined>): CtxAnswer {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return { status: 302, headers: { location: url.toString(), 'cache-control': 'no-store' } };
}

/**
 * The first value of each parameter and the names sent more than once (OAuth 2.1 §3.1 and
 * §3.2: request parameters must not be repeated).
 */
export function singleParams(params: URLSearchParams): { params: Record<string, string>; repeated: string[] } {
  const out: Record<string, string> = {};
  const repeated = new Set<string>();
  for (const [k, v] of params) {
    if (k in out) repeated.add(k);
    else out[k] = v;
  }
  return { params: out, repeated: [...repeated] };
}
