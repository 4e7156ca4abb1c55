import { isConfidential, type Client, type ClientRegistry } from './clients.js';
import { refusal, type OAuthRefusal, type TokenErrorCode } from './oauth-errors.js';

/**
 * How a token request identified its client (RFC 6749 §2.3.1, OAuth 2.1 §2.4): HTTP Basic
 * credentials (client_secret_basic), client_id and client_secret in the form
 * (client_secret_post), or client_id alone (a public client, method `none`).
 */
export interface PresentedCredentials {
  /** Decoded Basic credentials; 'malformed' when the header could not be decoded. */
  basic?: { clientId: string; clientSecret: string } | 'malformed';
  formClientId?: string;
  formClientSecret?: string;
}

export type ClientCheck = { ok: true; client: Client; authenticated: boolean } | OAuthRefusal<TokenErrorCode>;

const invalidClient = (description: string): OAuthRefusal<TokenErrorCode> => refusal('invalid_client', description);

/**
 * The client a token request comes from. A confidential client must authenticate with its
 * secret; a public client names itself with client_id; using two methods at once is refused
 * (RFC 6749 §2.3).
 */
export function identifyClient(creds: PresentedCredentials, clients: ClientRegistry): ClientCheck {
  const { basic, formClientId, formClientSecret } = creds;
  if (basic !== undefined) {
    if (basic === 'malformed') return invalidClient('the Authorization header is not valid Basic credentials');
    if (formClientSecret !== undefined) return refusal('invalid_request', 'use one client authentication method, not Basic and client_secret together');
    if (formClientId !== undefined && formClientId !== basic.clientId) return refusal('invalid_request', 'client_id in the form differs from the Basic credentials');
    const client = clients.get(basic.clientId);
    if (!client || client.clientSecret === undefined || client.clientSecret !== basic.clientSecret) return invalidClient('client authentication failed');
    return { ok: true, client, authenticated: true };
  }
  if (formClientSecret !== undefined) {
    if (formClientId === undefined) return invalidClient('client_secret was sent without client_id');
    const client = clients.get(formClientId);
    if (!client || client.clientSecret === undefined || client.clientSecret !== formClientSecret) return invalidClient('client authentication failed');
    return { ok: true, client, authenticated: true };
  }
  if (formClientId === undefined) return invalidClient('the request names no client: send client_id (public clients) or authenticate');
  const client = clients.get(formClientId);
  if (!client) return invalidClient(`client_id ${formClientId} is not a registered client`);
  if (isConfidential(client)) return invalidClient(`${formClientId} is a confidential client and must authenticate`);
  return { ok: true, client, authenticated: false };
}
