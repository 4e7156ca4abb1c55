import { AUTH_METHODS, GRANT_TYPES, RESPONSE_TYPES, type AuthMethod, type GrantType } from './clients.js';
import { redirectUriProblem } from './redirect-uris.js';
import { parseScope, unknownScopes } from './scopes.js';

/**
 * Client metadata validation for dynamic registration (RFC 7591 §2, errors §3.2.2). The
 * refusals: `invalid_redirect_uri` for a redirect URI that is not a URI, has a fragment, or is
 * neither localhost nor https (C Auth 8); `invalid_client_metadata` for anything else
 * (redirect_uris missing, not an array or empty; an unsupported auth method, grant or response
 * type; an unknown scope; a contradiction such as a public client asking for client credentials).
 */
export type RegistrationErrorCode = 'invalid_redirect_uri' | 'invalid_client_metadata';

export interface RegistrationRequest {
  redirectUris: string[];
  tokenEndpointAuthMethod: AuthMethod;
  grantTypes: GrantType[];
  responseTypes: string[];
  /** Other understood fields, echoed back as sent (client_name, client_uri, scope, ...). */
  extras: Record<string, unknown>;
}

export type RegistrationCheck = { ok: true; value: RegistrationRequest } | { ok: false; error: RegistrationErrorCode; description: string };

/** Human-readable and informational fields RFC 7591 §2 defines; echoed, others ignored (§2: ignore what is not understood). */
const ECHOED_STRINGS = ['client_name', 'client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'jwks_uri', 'software_id', 'software_version', 'scope'];

const refuse = (error: RegistrationErrorCode, description: string): RegistrationCheck => ({ ok: false, error, description });

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

/** Validates a registration body (already parsed JSON) and fills the RFC 7591 §2 defaults. */
export function checkRegistration(body: unknown): RegistrationCheck {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse('invalid_client_metadata', 'the registration body must be a JSON object of client metadata');
  const meta = body as Record<string, unknown>;

  const uris = meta['redirect_uris'];
  if (uris === undefined) return refuse('invalid_client_metadata', 'redirect_uris is required for the authorization code flow');
  if (!Array.isArray(uris)) return refuse('invalid_client_metadata', 'redirect_uris must be an array of URIs');
  if (uris.length === 0) return refuse('invalid_client_metadata', 'redirect_uris must hold at least one URI');
  for (const uri of uris) {
    if (typeof uri !== 'string') return refuse('invalid_redirect_uri', `redirect_uris holds ${JSON.stringify(uri)}, which is not a URI string`);
    const problem = redirectUriProblem(uri);
    if (problem) return refuse('invalid_redirect_uri', problem);
  }

  const method = meta['token_endpoint_auth_method'] ?? 'client_secret_basic';
  if (typeof method !== 'string' || !AUTH_METHODS.includes(method as AuthMethod)) {
    return refuse('invalid_client_metadata', `token_endpoint_auth_method ${JSON.stringify(method)} is not supported; use one of ${AUTH_METHODS.join(', ')}`);
  }
  const grants = meta['grant_types'] === undefined ? ['authorization_code'] : stringArray(meta['grant_types']);
  if (!grants) return refuse('invalid_client_metadata', 'grant_types must be an array of strings');
  const unknownGrant = grants.find((g) => !GRANT_TYPES.includes(g as GrantType));
  if (unknownGrant !== undefined) return refuse('invalid_client_metadata', `grant type ${unknownGrant} is not supported`);
  const responses = meta['response_types'] === undefined ? ['code'] : stringArray(meta['response_types']);
  if (!responses) return refuse('invalid_client_metadata', 'response_types must be an array of strings');
  const unknownResponse = responses.find((r) => !RESPONSE_TYPES.includes(r));
  if (unknownResponse !== undefined) return refuse('invalid_client_metadata', `response type ${unknownResponse} is not supported; only code is`);
  if (grants.includes('authorization_code') && !responses.includes('code')) return refuse('invalid_client_metadata', 'grant type authorization_code needs response type code (RFC 7591 §2.1)');
  if (method === 'none' && grants.includes('client_credentials')) return refuse('invalid_client_metadata', 'a public client (token_endpoint_auth_method none) cannot use client_credentials');

  const extras: Record<string, unknown> = {};
  for (const name of ECHOED_STRINGS) {
    const v = meta[name];
    if (v === undefined) continue;
    if (typeof v !== 'string') return refuse('invalid_client_metadata', `${name} must be a string`);
    extras[name] = v;
  }
  const contacts = meta['contacts'];
  if (contacts !== undefined) {
    if (!stringArray(contacts)) return refuse('invalid_client_metadata', 'contacts must be an array of strings');
    extras['contacts'] = contacts;
  }
  const scope = parseScope(typeof extras['scope'] === 'string' ? extras['scope'] : undefined);
  const unknown = scope ? unknownScopes(scope) : [];
  if (unknown.length) return refuse('invalid_client_metadata', `scope ${unknown.join(' ')} is not offered by this server`);

  return {
    ok: true,
    value: { redirectUris: uris as string[], tokenEndpointAuthMethod: method as AuthMethod, grantTypes: grants as GrantType[], responseTypes: responses, extras },
  };
}
