import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { CTX_PROTOCOL_VERSION } from './contract.js';

/**
 * The decisions a client of the context protocol makes that spec 000 part C (and the OAuth
 * documents it rests on) rules on, as replaceable steps. {@link REFERENCE_BEHAVIOUR} takes the
 * rule at each; the reference client runs it unchanged, and a planted-fault client replaces one
 * step, so the shipping client carries no fault switches.
 */
export interface PkcePair {
  verifier: string;
  challenge: string;
  method: string;
}

/** What a 401 in the middle of a session leads to. */
export type AfterExpiry = 'refresh' | 'restart' | 'give-up';

export interface CtxClientBehaviour {
  /** The authorization base URL for the server URL: its origin, any path discarded (C, Endpoints 1). */
  authorizationBase(serverUrl: URL): string;
  /** Whether metadata is requested before anything else (C, Endpoints 2); false goes straight to the fallbacks. */
  discoverMetadata: boolean;
  /** Headers of the metadata request (C, Endpoints 3: the protocol version, date form). */
  discoveryHeaders(versionHeader: string): Record<string, string>;
  /** Whether advertised endpoints are used (C, Authorization 2: clients implement RFC 8414); false uses the fallbacks anyway. */
  useAdvertisedEndpoints: boolean;
  /** The registration request (RFC 7591 §2) for the redirect URI the client will use. */
  registrationBody(redirectUri: string, scope: string): Record<string, unknown>;
  /** A PKCE pair for one authorization request (C, Authorization 1; RFC 7636 §4.1, §4.2). */
  newPkce(): PkcePair;
  /** A fresh `state` (OAuth 2.1 §4.1.1); undefined sends none. */
  newState(): string | undefined;
  /** Whether the redirect's state is the one sent (RFC 6749 §10.12): otherwise the code is not exchanged. */
  stateMatches(sent: string | undefined, returned: string | undefined): boolean;
  /** The token request's redirect_uri, given the authorization request's (OAuth 2.1 §4.1.3). */
  tokenRedirectUri(authorizeRedirectUri: string): string | undefined;
  /** Where a resource call goes and its authorization headers (C, Endpoints 4: Bearer, never the query). */
  resourceRequest(serverUrl: string, token: string | undefined): { url: string; headers: Record<string, string> };
  /** What a 401 mid-session leads to (C, Authorization 5, 7 and 10). */
  afterExpiry(hasRefreshToken: boolean): AfterExpiry;
}

/** 32 random bytes, base64url: 43 characters of the unreserved set, 256 bits (RFC 7636 §4.1). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The S256 challenge of a verifier (RFC 7636 §4.2). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const REFERENCE_BEHAVIOUR: CtxClientBehaviour = {
  authorizationBase: (serverUrl) => serverUrl.origin,
  discoverMetadata: true,
  discoveryHeaders: (versionHeader) => ({ [versionHeader]: CTX_PROTOCOL_VERSION }),
  useAdvertisedEndpoints: true,
  // a public client (C, Authorization 10: local clients act as public OAuth 2.1 clients)
  registrationBody: (redirectUri, scope) => ({
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    client_name: 'specgate reference ctx client',
    ...(scope ? { scope } : {}),
  }),
  newPkce: () => {
    const verifier = randomToken();
    return { verifier, challenge: s256(verifier), method: 'S256' };
  },
  newState: randomToken,
  stateMatches: (sent, returned) => sent === undefined || (returned !== undefined && constantTimeEqual(sent, returned)),
  tokenRedirectUri: (used) => used,
  resourceRequest: (serverUrl, token) => {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
    return { url: serverUrl, headers };
  },
  afterExpiry: (hasRefreshToken) => (hasRefreshToken ? 'refresh' : 'restart'),
};
