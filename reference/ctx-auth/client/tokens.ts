import { SpecgateError } from '../../../src/errors.js';
import type { AuthEndpoints } from './discovery.js';
import { describeAnswer, jsonObject, request, stringField, type HttpAnswer } from './http.js';
import { authenticate, type CtxClient } from './registration.js';

export interface Tokens {
  accessToken: string;
  refreshToken: string | undefined;
}

/** A token request: a form POST asking for JSON (OAuth 2.1 §3.2.2), with the client's authentication. */
export async function postToken(what: string, endpoints: AuthEndpoints, client: CtxClient, params: URLSearchParams): Promise<HttpAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  authenticate(client, params, headers);
  return request(what, endpoints.token, { method: 'POST', headers, body: params.toString() });
}

/** Reads a successful token response (OAuth 2.1 §3.2.3): an access token of type Bearer. */
export function readTokens(what: string, url: string, answer: HttpAnswer, previousRefresh?: string): Tokens {
  const doc = jsonObject(answer.text);
  const accessToken = stringField(doc, 'access_token');
  if (answer.status !== 200 || accessToken === undefined) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: POST ${url} answered ${describeAnswer(answer)}${answer.status === 200 ? ' without an access_token' : ''}`);
  const type = stringField(doc, 'token_type');
  if (type === undefined || type.toLowerCase() !== 'bearer') throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: token_type is "${type ?? ''}", not Bearer (C, Endpoints 4 sends the token as a bearer token)`);
  // a refresh response without a new refresh token leaves the old one in force (OAuth 2.1 §4.3.3)
  return { accessToken, refreshToken: stringField(doc, 'refresh_token') ?? previousRefresh };
}

/**
 * Renews the access token with the refresh token (OAuth 2.1 §4.3). Undefined when the server
 * refuses the grant (400): the caller then starts the flow again.
 */
export async function refreshTokens(endpoints: AuthEndpoints, client: CtxClient, refreshToken: string): Promise<Tokens | undefined> {
  const what = 'token refresh';
  const answer = await postToken(what, endpoints, client, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }));
  if (answer.status === 400 || answer.status === 401) return undefined;
  return readTokens(what, endpoints.token, answer, refreshToken);
}
