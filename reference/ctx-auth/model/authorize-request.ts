import type { ClientRegistry } from './clients.js';
import type { AuthorizationCode, CodeStore } from './codes.js';
import type { AuthorizeErrorCode } from './oauth-errors.js';
import { challengeProblem } from './pkce.js';
import { redirectUriProblem } from './redirect-uris.js';
import { DEFAULT_SCOPES, parseScope, unknownScopes } from './scopes.js';

/** The parameters of an authorization request (first value of each; absent when not sent). */
export interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  scope?: string;
  state?: string;
}

/**
 * What the authorization endpoint decides. The user approves at once (the reference has no
 * user interaction), so a valid request always gets a code.
 * - `refuse`: no trustworthy redirect URI (unknown client, unregistered URI): answered 400 to
 *   the user agent, never redirected (OAuth 2.1 §4.1.2.1; C Auth 8; C Status codes 400).
 * - `redirect-error`: the client and URI are valid, the request is not: the error goes back to
 *   the redirect URI with the state.
 * - `code`: the code and the state go back to the redirect URI.
 */
export type AuthorizeOutcome =
  | { kind: 'refuse'; error: 'invalid_request'; description: string }
  | { kind: 'redirect-error'; redirectUri: string; error: AuthorizeErrorCode; description: string; state?: string }
  | { kind: 'code'; redirectUri: string; code: AuthorizationCode; state?: string };

const present = (v: string | undefined): v is string => v !== undefined && v !== '';

/** Decides one authorization request, issuing a code when it is valid. */
export function decideAuthorization(params: AuthorizeParams, clients: ClientRegistry, codes: CodeStore, now: number): AuthorizeOutcome {
  if (!present(params.client_id)) return { kind: 'refuse', error: 'invalid_request', description: 'client_id is required' };
  const client = clients.get(params.client_id);
  if (!client) return { kind: 'refuse', error: 'invalid_request', description: `client_id ${params.client_id} is not a registered client` };

  let redirectUri: string;
  if (present(params.redirect_uri)) {
    const problem = redirectUriProblem(params.redirect_uri);
    if (problem) return { kind: 'refuse', error: 'invalid_request', description: problem };
    if (!client.redirectUris.includes(params.redirect_uri)) return { kind: 'refuse', error: 'invalid_request', description: `redirect_uri ${params.redirect_uri} is not registered for ${client.clientId}` };
    redirectUri = params.redirect_uri;
  } else {
    const only = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
    if (only === undefined) return { kind: 'refuse', error: 'invalid_request', description: `redirect_uri is required: ${client.clientId} has ${client.redirectUris.length} registered redirect URIs` };
    redirectUri = only;
  }

  const state = params.state;
  const back = (error: AuthorizeErrorCode, description: string): AuthorizeOutcome => ({ kind: 'redirect-error', redirectUri, error, description, ...(state !== undefined ? { state } : {}) });
  if (!present(params.response_type)) return back('invalid_request', 'response_type is required; use code');
  if (params.response_type !== 'code') return back('unsupported_response_type', `response_type ${params.response_type} is not supported; use code`);
  if (!client.grantTypes.includes('authorization_code')) return back('unauthorized_client', `${client.clientId} may not use the authorization code grant`);
  const pkce = challengeProblem(params.code_challenge, params.code_challenge_method);
  if (pkce !== undefined || params.code_challenge === undefined) return back('invalid_request', pkce ?? 'code_challenge is required');
  const scopes = parseScope(params.scope) ?? [...DEFAULT_SCOPES];
  const unknown = unknownScopes(scopes);
  if (unknown.length) return back('invalid_scope', `scope ${unknown.join(' ')} is not offered by this server`);

  const code = codes.issue({ clientId: client.clientId, redirectUri, redirectUriSent: present(params.redirect_uri), challenge: params.code_challenge, scopes }, now);
  return { kind: 'code', redirectUri, code, ...(state !== undefined ? { state } : {}) };
}
