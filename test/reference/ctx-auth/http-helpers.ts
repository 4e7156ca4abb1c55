import { request } from 'undici';
import { expect } from 'vitest';

/** RFC 7636 appendix B: a verifier and its S256 challenge. */
export const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
export const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
export const PUBLIC_REDIRECT = 'http://127.0.0.1:7777/callback';
export const CONFIDENTIAL_REDIRECT = 'http://127.0.0.1:7778/callback';
export const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

export interface Got {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: Record<string, unknown>;
}

/** One HTTP request on loopback, without following redirects. */
export async function call(url: string, init: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD'; headers?: Record<string, string>; body?: string } = {}): Promise<Got> {
  const res = await request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, ...(init.body !== undefined ? { body: init.body } : {}) });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  let json: Record<string, unknown> = {};
  if (text.startsWith('{')) json = JSON.parse(text) as Record<string, unknown>;
  return { status: res.statusCode, headers, text, json };
}

export const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
export const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

/** The authorization request for the public client with S256, `changes` applied (undefined removes a parameter). */
export function authorizeQuery(changes: Record<string, string | undefined> = {}): string {
  const base: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: 'sg-ctx-public',
    redirect_uri: PUBLIC_REDIRECT,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    scope: 'ctx',
    state: 'st-123',
    ...changes,
  };
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(base)) if (v !== undefined) q.set(k, v);
  return q.toString();
}

/** GETs the authorization URL and reads the redirect's query (empty when there is no redirect). */
export async function authorize(authorizeEndpoint: string, changes: Record<string, string | undefined> = {}): Promise<{ got: Got; location?: URL; params: URLSearchParams }> {
  const got = await call(`${authorizeEndpoint}?${authorizeQuery(changes)}`);
  const location = got.headers['location'] ? new URL(got.headers['location']) : undefined;
  return { got, ...(location ? { location } : {}), params: location?.searchParams ?? new URLSearchParams() };
}

export async function codeFor(authorizeEndpoint: string, changes: Record<string, string | undefined> = {}): Promise<string> {
  const { got, params } = await authorize(authorizeEndpoint, changes);
  expect(got.status, got.text).toBe(302);
  const code = params.get('code');
  expect(code).toEqual(expect.any(String));
  return code ?? '';
}

export function exchange(tokenEndpoint: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Got> {
  return call(tokenEndpoint, { method: 'POST', headers: { ...FORM_TYPE, ...headers }, body: form(fields) });
}

/** A code for the public client, exchanged: the token response. */
export async function tokensFor(ends: { authorize: string; token: string }, scope = 'ctx'): Promise<Got> {
  const code = await codeFor(ends.authorize, { scope });
  return exchange(ends.token, { grant_type: 'authorization_code', code, code_verifier: VERIFIER, client_id: 'sg-ctx-public', redirect_uri: PUBLIC_REDIRECT });
}

export function callResource(serverUrl: string, token: string | undefined, extra: { headers?: Record<string, string>; body?: unknown; query?: string; method?: 'POST' | 'GET' } = {}): Promise<Got> {
  return call(`${serverUrl}${extra.query ?? ''}`, {
    method: extra.method ?? 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}), ...extra.headers },
    ...(extra.method === 'GET' ? {} : { body: JSON.stringify(extra.body ?? INITIALIZE) }),
  });
}

export const basic = (id: string, secret: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}` });
