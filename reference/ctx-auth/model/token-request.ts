import type { Client, ClientRegistry } from './clients.js';
import { GRANT_TYPES, type GrantType } from './clients.js';
import { identifyClient, type PresentedCredentials } from './client-auth.js';
import type { CodeStore } from './codes.js';
import { refusal, type OAuthRefusal, type TokenErrorCode } from './oauth-errors.js';
import { verifierMatches } from './pkce.js';
import { DEFAULT_SCOPES, formatScope, isSubset, parseScope, unknownScopes } from './scopes.js';
import type { TokenStore } from './tokens.js';
import type { Upstream } from './upstream.js';

/** The token response body (OAuth 2.1 §3.2.3). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

export type TokenOutcome = { ok: true; body: TokenResponse; client: Client } | OAuthRefusal<TokenErrorCode>;

export interface TokenParts {
  clients: ClientRegistry;
  codes: CodeStore;
  tokens: TokenStore;
}

const present = (v: string | undefined): v is string => v !== undefined && v !== '';

function issue(parts: TokenParts, client: Client, scopes: readonly string[], grant: GrantType, now: number, withRefresh: boolean, upstream?: Upstream): TokenResponse {
  const access = parts.tokens.issueAccess(client.clientId, scopes, grant, now, upstream);
  const body: TokenResponse = { access_token: access.value, token_type: 'Bearer', expires_in: parts.tokens.accessTtlSeconds, scope: formatScope(scopes) };
  if (withRefresh) body.refresh_token = parts.tokens.issueRefresh(client.clientId, scopes, now, upstream).value;
  return body;
}

/** OAuth 2.1 §4.1.3: exchange a code, checking client, redirect URI and PKCE verifier. */
function authorizationCode(parts: TokenParts, client: Client, params: Record<string, string>, now: number): TokenOutcome {
  const value = params['code'];
  if (!present(value)) return refusal('invalid_request', 'code is required');
  const found = parts.codes.lookup(value, client.clientId, now);
  if (!found.ok) {
    if (found.reason === 'used' && found.code) {
      // a code seen twice may have been stolen: what it bought is withdrawn (OAuth 2.1 §4.1.3)
      parts.tokens.revoke(found.code.issuedTokens);
      return refusal('invalid_grant', 'the authorization code was already used');
    }
    const why = { unknown: 'the authorization code is not known', used: 'the authorization code was already used', expired: 'the authorization code has expired', 'other-client': 'the authorization code was issued to another client' }[found.reason];
    return refusal('invalid_grant', why);
  }
  const code = found.code;
  const redirectUri = params['redirect_uri'];
  if (code.redirectUriSent && !present(redirectUri)) return refusal('invalid_request', 'redirect_uri is required: the authorization request carried one');
  if (present(redirectUri) && redirectUri !== code.redirectUri) return refusal('invalid_grant', 'redirect_uri differs from the authorization request');
  const verifier = params['code_verifier'];
  if (!present(verifier)) return refusal('invalid_request', 'code_verifier is required (PKCE)');
  if (!verifierMatches(code.challenge, verifier)) return refusal('invalid_grant', 'code_verifier does not match the code_challenge');
  code.used = true;
  const body = issue(parts, client, code.scopes, 'authorization_code', now, client.grantTypes.includes('refresh_token'), code.upstream);
  code.issuedTokens.push(body.access_token, ...(body.refresh_token ? [body.refresh_token] : []));
  return { ok: true, body, client };
}

/** OAuth 2.1 §4.3: a new access token and, by rotation, a new refresh token; the old one is retired. */
function refreshToken(parts: TokenParts, client: Client, params: Record<string, string>, now: number): TokenOutcome {
  const value = params['refresh_token'];
  if (!present(value)) return refusal('invalid_request', 'refresh_token is required');
  const old = parts.tokens.refreshToken(value);
  if (!old || old.clientId !== client.clientId) return refusal('invalid_grant', 'the refresh token is not known for this client');
  if (!old.active) return refusal('invalid_grant', 'the refresh token is no longer valid (it was rotated or revoked)');
  const asked = parseScope(params['scope']);
  if (asked && unknownScopes(asked).length) return refusal('invalid_scope', `scope ${unknownScopes(asked).join(' ')} is not offered by this server`);
  if (asked && !isSubset(asked, old.scopes)) return refusal('invalid_scope', 'a refresh cannot widen the scope originally granted');
  const scopes = asked ?? old.scopes;
  const access = parts.tokens.issueAccess(client.clientId, scopes, 'refresh_token', now, old.upstream);
  const next = parts.tokens.rotate(old, now);
  return { ok: true, client, body: { access_token: access.value, token_type: 'Bearer', expires_in: parts.tokens.accessTtlSeconds, refresh_token: next.value, scope: formatScope(scopes) } };
}

/** C Auth 4, OAuth 2.1 §4.2: a confidential client's own token; no refresh token (§4.2.2). */
function clientCredentials(parts: TokenParts, client: Client, authenticated: boolean, params: Record<string, string>, now: number): TokenOutcome {
  if (!authenticated) return refusal('unauthorized_client', 'client_credentials is only for a confidential client that authenticates');
  const scopes = parseScope(params['scope']) ?? [...DEFAULT_SCOPES];
  const unknown = unknownScopes(scopes);
  if (unknown.length) return refusal('invalid_scope', `scope ${unknown.join(' ')} is not offered by this server`);
  return { ok: true, client, body: issue(parts, client, scopes, 'client_credentials', now, false) };
}

/** Decides one token request: the grant type, then the client, then the grant's own rules. */
export function decideToken(parts: TokenParts, params: Record<string, string>, creds: PresentedCredentials, now: number): TokenOutcome {
  const grant = params['grant_type'];
  if (!present(grant)) return refusal('invalid_request', 'grant_type is required');
  if (!GRANT_TYPES.includes(grant as GrantType)) return refusal('unsupported_grant_type', `grant_type ${grant} is not supported`);
  const who = identifyClient(creds, parts.clients);
  if (!who.ok) return who;
  const { client, authenticated } = who;
  if (!client.grantTypes.includes(grant as GrantType)) return refusal('unauthorized_client', `${client.clientId} may not use the ${grant} grant`);
  switch (grant as GrantType) {
    case 'authorization_code':
      return authorizationCode(parts, client, params, now);
    case 'refresh_token':
      return refreshToken(parts, client, params, now);
    case 'client_credentials':
      return clientCredentials(parts, client, authenticated, params, now);
  }
}
