import { SpecgateError } from '../../../src/errors.js';
import type { CtxClientBehaviour } from './behaviour.js';
import type { CtxClientEnv } from './contract.js';
import { describeAnswer, jsonObject, request, stringField } from './http.js';

/** Where the flow's endpoints are, and how they were found. */
export interface AuthEndpoints {
  /** `metadata`: from the RFC 8414 document; `fallback`: the default paths at the root (C, Endpoints 2). */
  source: 'metadata' | 'fallback';
  base: string;
  authorization: string;
  token: string;
  /** Undefined when the metadata advertises no registration endpoint. */
  registration: string | undefined;
  /** token_endpoint_auth_methods_supported, when the metadata lists it. */
  tokenAuthMethods: readonly string[] | undefined;
}

export const METADATA_PATH = '/.well-known/oauth-authorization-server';

function fallbacks(base: string): AuthEndpoints {
  return { source: 'fallback', base, authorization: `${base}/authorize`, token: `${base}/token`, registration: `${base}/register`, tokenAuthMethods: undefined };
}

function absoluteUrl(doc: Record<string, unknown>, key: string, where: string): string | undefined {
  const v = stringField(doc, key);
  if (v === undefined) return undefined;
  try {
    return new URL(v).href;
  } catch {
    throw new SpecgateError('SG_TARGET_PROTOCOL', `${where}: ${key} is not an absolute URL ("${v}")`);
  }
}

/** Issuers compare as URLs, a lone trailing slash aside (RFC 8414 §3.3: the issuer is the base URL). */
function sameIssuer(a: string, b: string): boolean {
  const norm = (s: string): string => {
    try {
      return new URL(s).href.replace(/\/$/, '');
    } catch {
      return s;
    }
  };
  return norm(a) === norm(b);
}

/**
 * Finds the authorization endpoints: the RFC 8414 document at the root of the server URL's
 * origin first, sent with the protocol version header (C, Endpoints 1-3); the fallback paths
 * only when the server has none (404).
 */
export async function discoverEndpoints(env: CtxClientEnv, b: CtxClientBehaviour): Promise<AuthEndpoints> {
  const base = b.authorizationBase(new URL(env.serverUrl)).replace(/\/+$/, '');
  if (!b.discoverMetadata) return fallbacks(base);
  const url = `${base}${METADATA_PATH}`;
  const what = 'metadata discovery';
  const answer = await request(what, url, { headers: { accept: 'application/json', ...b.discoveryHeaders(env.versionHeader) } });
  if (answer.status === 404) return fallbacks(base);
  if (answer.status !== 200) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: GET ${url} answered ${describeAnswer(answer)}; only 404 (no metadata) lets the client use the fallback endpoints`);
  const doc = jsonObject(answer.text);
  if (!doc) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: GET ${url} answered 200 without a JSON object`);
  const issuer = stringField(doc, 'issuer');
  if (issuer !== undefined && !sameIssuer(issuer, base)) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: the metadata's issuer "${issuer}" is not the authorization base URL ${base} (RFC 8414 §3.3)`);
  const authorization = absoluteUrl(doc, 'authorization_endpoint', what);
  const token = absoluteUrl(doc, 'token_endpoint', what);
  if (authorization === undefined || token === undefined) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: the metadata at ${url} names no authorization_endpoint or no token_endpoint`);
  const methods = doc['code_challenge_methods_supported'];
  if (Array.isArray(methods) && !methods.includes('S256')) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: code_challenge_methods_supported does not list S256, and PKCE with S256 is required (C, Authorization 1)`);
  if (!b.useAdvertisedEndpoints) return fallbacks(base);
  const authMethods = doc['token_endpoint_auth_methods_supported'];
  return {
    source: 'metadata',
    base,
    authorization,
    token,
    registration: absoluteUrl(doc, 'registration_endpoint', what),
    tokenAuthMethods: Array.isArray(authMethods) ? authMethods.filter((m): m is string => typeof m === 'string') : undefined,
  };
}
