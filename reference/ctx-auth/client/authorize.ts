import { SpecgateError } from '../../../src/errors.js';
import type { CtxClientBehaviour } from './behaviour.js';
import type { CtxClientEnv } from './contract.js';
import type { AuthEndpoints } from './discovery.js';
import { describeAnswer, request } from './http.js';
import type { CtxClient } from './registration.js';
import { postToken, readTokens, type Tokens } from './tokens.js';

/** Thrown when the client stops on purpose: the code came back with a state it did not send. */
export function stateMismatch(sent: string | undefined, returned: string | undefined): SpecgateError {
  return new SpecgateError(
    'SG_TARGET_PROTOCOL',
    `state mismatch: the authorization response carries state ${returned === undefined ? '(none)' : `"${returned}"`}, not the "${sent ?? ''}" this client sent; the code is not exchanged (RFC 6749 §10.12)`,
    { refused: true },
  );
}

/** Whether `location` is the redirect URI (scheme, host, port and path; its query aside). */
function isRedirectUri(location: URL, redirectUri: string): boolean {
  const r = new URL(redirectUri);
  return location.origin === r.origin && location.pathname === r.pathname;
}

/**
 * One authorization code flow with PKCE (C, Authorization 1; OAuth 2.1 §4.1): the authorization
 * request with a fresh S256 pair and state, the headless user-agent step (GET the URL without
 * following the redirect, read `code` and `state` from Location: the played server approves at
 * once), the state check, then the code exchange with the verifier and the same redirect_uri.
 */
export async function authorize(env: CtxClientEnv, endpoints: AuthEndpoints, client: CtxClient, b: CtxClientBehaviour): Promise<Tokens> {
  const pkce = b.newPkce();
  const state = b.newState();
  const url = new URL(endpoints.authorization);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', client.redirectUri);
  url.searchParams.set('code_challenge', pkce.challenge);
  url.searchParams.set('code_challenge_method', pkce.method);
  if (state !== undefined) url.searchParams.set('state', state);
  if (env.scope) url.searchParams.set('scope', env.scope);

  const what = 'authorization request';
  const answer = await request(what, url.href);
  const locationText = answer.headers.get('location');
  if (answer.status < 300 || answer.status > 399 || locationText === null) {
    throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: GET ${endpoints.authorization} answered ${describeAnswer(answer)}, not a redirect to ${client.redirectUri}`);
  }
  const location = new URL(locationText, url);
  if (!isRedirectUri(location, client.redirectUri)) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: the server redirected to ${location.origin}${location.pathname}, not to the redirect URI ${client.redirectUri}`);
  const returned = location.searchParams.get('state') ?? undefined;
  if (!b.stateMatches(state, returned)) throw stateMismatch(state, returned);
  const error = location.searchParams.get('error');
  if (error !== null) {
    const description = location.searchParams.get('error_description');
    throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: the server refused the authorization: error=${error}${description ? ` (${description})` : ''}`);
  }
  const code = location.searchParams.get('code');
  if (code === null || code === '') throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: the redirect to ${client.redirectUri} carries no code`);

  const params = new URLSearchParams({ grant_type: 'authorization_code', code });
  const redirectUri = b.tokenRedirectUri(client.redirectUri);
  if (redirectUri !== undefined) params.set('redirect_uri', redirectUri);
  params.set('code_verifier', pkce.verifier);
  const exchange = 'code exchange';
  return readTokens(exchange, endpoints.token, await postToken(exchange, endpoints, client, params));
}
