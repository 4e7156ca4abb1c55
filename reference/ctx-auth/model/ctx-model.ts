import type { Clock } from '../../../src/engine/clock.js';
import { decideAuthorization, type AuthorizeOutcome, type AuthorizeParams } from './authorize-request.js';
import type { PresentedCredentials } from './client-auth.js';
import { ClientRegistry, seededClients, type Client } from './clients.js';
import { CodeStore } from './codes.js';
import { ALNUM, HEX, seededIds, type IdSource } from './ids.js';
import { checkRegistration, type RegistrationErrorCode } from './registration.js';
import { accessResource, type ResourceAccess } from './resource-access.js';
import { decideToken, type TokenOutcome } from './token-request.js';
import { TokenStore } from './tokens.js';

export interface CtxModelOptions {
  /** Codes and tokens expire on it; never the wall clock. */
  clock: Clock;
  /** Access token lifetime (default 3600). */
  accessTokenTtlSeconds?: number;
  /** Authorization code lifetime (default 60; OAuth 2.1 §4.1.2 recommends at most 10 minutes). */
  codeTtlSeconds?: number;
  /** An access token stops working after this many successful resource calls. */
  expireAfterCalls?: number;
  /** Seed of the identifiers handed out. */
  seed?: number;
}

export type RegisterOutcome = { ok: true; client: Client; body: Record<string, unknown> } | { ok: false; error: RegistrationErrorCode; description: string };

/**
 * The authorization server and resource state of the ctx-auth reference (spec 000 part C, on
 * OAuth 2.1, RFC 7591, RFC 7636 and RFC 6750): clients, codes, tokens and session IDs, with
 * every decision the endpoints make. It knows no HTTP; the server maps its outcomes to answers.
 */
export class CtxModel {
  readonly clock: Clock;
  readonly clients: ClientRegistry;
  readonly codes: CodeStore;
  readonly tokens: TokenStore;
  readonly sessions: string[] = [];
  private readonly ids: IdSource;

  constructor(opts: CtxModelOptions) {
    this.clock = opts.clock;
    this.ids = seededIds(opts.seed);
    this.clients = new ClientRegistry(seededClients(opts.clock.now()));
    this.codes = new CodeStore(this.ids, (opts.codeTtlSeconds ?? 60) * 1000);
    this.tokens = new TokenStore(this.ids, (opts.accessTokenTtlSeconds ?? 3600) * 1000, opts.expireAfterCalls);
  }

  /** The authorization endpoint's decision (the user approves at once). */
  authorize(params: AuthorizeParams): AuthorizeOutcome {
    return decideAuthorization(params, this.clients, this.codes, this.clock.now());
  }

  /** The token endpoint's decision for form parameters and the client's credentials. */
  token(params: Record<string, string>, creds: PresentedCredentials): TokenOutcome {
    return decideToken(this, params, creds, this.clock.now());
  }

  /**
   * Dynamic registration (RFC 7591 §3.2.1): a new client with the metadata echoed and the
   * defaults filled; a secret unless the client registers as public (method `none`).
   */
  register(body: unknown): RegisterOutcome {
    const checked = checkRegistration(body);
    if (!checked.ok) return checked;
    const req = checked.value;
    const now = this.clock.now();
    const client: Client = {
      clientId: `sg-ctx-dyn-${this.ids.next(ALNUM, 16)}`,
      redirectUris: [...req.redirectUris],
      tokenEndpointAuthMethod: req.tokenEndpointAuthMethod,
      grantTypes: [...req.grantTypes],
      responseTypes: [...req.responseTypes],
      issuedAt: now,
      seeded: false,
      ...(req.tokenEndpointAuthMethod === 'none' ? {} : { clientSecret: this.ids.next(ALNUM, 40) }),
    };
    const body2: Record<string, unknown> = {
      client_id: client.clientId,
      client_id_issued_at: Math.floor(now / 1000),
      ...(client.clientSecret !== undefined ? { client_secret: client.clientSecret, client_secret_expires_at: 0 } : {}),
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: client.tokenEndpointAuthMethod,
      grant_types: client.grantTypes,
      response_types: client.responseTypes,
      ...req.extras,
    };
    client.registered = body2;
    this.clients.add(client);
    return { ok: true, client, body: body2 };
  }

  /** Whether a resource call with `token` (undefined: none sent) may proceed; counts it when it may. */
  accessResource(token: string | undefined): ResourceAccess {
    return accessResource(this.tokens, token, this.clock.now());
  }

  /** A new session ID (32 hex characters: visible ASCII, as session headers require). */
  newSessionId(): string {
    const id = this.ids.next(HEX, 32);
    this.sessions.push(id);
    return id;
  }
}
