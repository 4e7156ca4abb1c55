import { AUTH_METHODS, GRANT_TYPES } from './clients.js';
import { S256 } from './pkce.js';
import { SUPPORTED_SCOPES } from './scopes.js';

/**
 * The authorization server metadata document (RFC 8414 §2), published at the root of the
 * server's origin (C Endpoints: `<authorization base URL>/.well-known/oauth-authorization-server`,
 * the base being the server URL without its path).
 */
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

export interface EndpointPaths {
  authorize: string;
  token: string;
  register: string;
}

/** C Endpoints: the fallback paths clients use when no metadata is published. */
export const FALLBACK_PATHS: EndpointPaths = { authorize: '/authorize', token: '/token', register: '/register' };
/** Non-default paths, served only when advertised, so a client that ignores metadata misses them. */
export const CUSTOM_PATHS: EndpointPaths = { authorize: '/oauth2/authorize', token: '/oauth2/token', register: '/oauth2/register' };

export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint?: string;
  response_types_supported: string[];
  grant_types_supported: string[];
  code_challenge_methods_supported: string[];
  token_endpoint_auth_methods_supported: string[];
  scopes_supported: string[];
}

/**
 * The document for `issuer` (an origin, no trailing slash). RFC 8414 §3.3: the issuer is the
 * base URL the document is fetched for; endpoints are absolute URLs on it.
 */
export function buildMetadata(issuer: string, paths: EndpointPaths, opts: { registration: boolean }): AuthorizationServerMetadata {
  return {
    issuer,
    authorization_endpoint: `${issuer}${paths.authorize}`,
    token_endpoint: `${issuer}${paths.token}`,
    ...(opts.registration ? { registration_endpoint: `${issuer}${paths.register}` } : {}),
    response_types_supported: ['code'],
    grant_types_supported: [...GRANT_TYPES],
    code_challenge_methods_supported: [S256],
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    scopes_supported: [...SUPPORTED_SCOPES],
  };
}
