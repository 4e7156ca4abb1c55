/**
 * The clients the reference authorization server knows: two seeded ones (a public client for
 * servers without registration, C Auth 3, and a confidential one for client credentials, C Auth
 * 4) and those registered dynamically (RFC 7591).
 */
export type AuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';
export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';

export const AUTH_METHODS: readonly AuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];
export const GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token', 'client_credentials'];
export const RESPONSE_TYPES: readonly string[] = ['code'];

export interface Client {
  clientId: string;
  /** Absent for a public client (token_endpoint_auth_method `none`). */
  clientSecret?: string;
  redirectUris: string[];
  tokenEndpointAuthMethod: AuthMethod;
  grantTypes: GrantType[];
  responseTypes: string[];
  /** Clock time (ms) of registration. */
  issuedAt: number;
  /** Seeded by the server rather than registered. */
  seeded: boolean;
  /** What registration answered for this client (RFC 7591 §3.2.1), for registered clients. */
  registered?: Record<string, unknown>;
}

export const PUBLIC_CLIENT_ID = 'sg-ctx-public';
export const PUBLIC_REDIRECT_URIS: readonly string[] = ['http://127.0.0.1:7777/callback', 'http://localhost:7777/callback'];
export const CONFIDENTIAL_CLIENT_ID = 'sg-ctx-confidential';
export const CONFIDENTIAL_CLIENT_SECRET = 'sg-ctx-confidential-secret';
export const CONFIDENTIAL_REDIRECT_URIS: readonly string[] = ['http://127.0.0.1:7778/callback'];

export function isConfidential(client: Client): boolean {
  return client.clientSecret !== undefined;
}

/** The two clients every reference server starts with. */
export function seededClients(now: number): Client[] {
  return [
    {
      clientId: PUBLIC_CLIENT_ID,
      redirectUris: [...PUBLIC_REDIRECT_URIS],
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code', 'refresh_token'],
      responseTypes: ['code'],
      issuedAt: now,
      seeded: true,
    },
    {
      clientId: CONFIDENTIAL_CLIENT_ID,
      clientSecret: CONFIDENTIAL_CLIENT_SECRET,
      redirectUris: [...CONFIDENTIAL_REDIRECT_URIS],
      // either secret method is accepted from it; basic is what it registered with
      tokenEndpointAuthMethod: 'client_secret_basic',
      grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
      responseTypes: ['code'],
      issuedAt: now,
      seeded: true,
    },
  ];
}

export class ClientRegistry {
  private readonly clients = new Map<string, Client>();

  constructor(initial: readonly Client[] = []) {
    for (const c of initial) this.add(c);
  }

  add(client: Client): void {
    this.clients.set(client.clientId, client);
  }

  get(clientId: string | undefined): Client | undefined {
    return clientId === undefined ? undefined : this.clients.get(clientId);
  }

  all(): Client[] {
    return [...this.clients.values()];
  }
}
