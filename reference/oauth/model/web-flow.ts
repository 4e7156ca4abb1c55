import type { Clock } from '../../../src/engine/clock.js';
import { findApp, type App, type Directory } from './directory.js';
import { newAuthorizationCode, type IdSource } from './ids.js';
import type { Limits } from './limits.js';
import type { ChallengeCheck, VerifierCheck } from './pkce.js';
import type { RedirectVerdict } from './redirect.js';
import { isSubset, parseScopes, unionScopes } from './scopes.js';
import type { Token, TokenStore } from './tokens.js';

/**
 * The web application flow (spec 000, B, Endpoints 1 and 2; B, States "web flow code issued").
 * Error bodies of these endpoints are not shown in the spec: the error names used here are
 * the reference's own and no case checks them, only that no code or token is issued.
 */
export interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  login?: string;
  allow_signup?: string;
  prompt?: string;
}

export interface PendingAuthorization {
  app: App;
  /** redirect_uri as sent (undefined when omitted). */
  redirectUri: string | undefined;
  /** Where the browser goes: redirect_uri or the callback URL. */
  target: string;
  state: string | undefined;
  requested: string[];
  /** What the token will hold once approved: earlier grants plus the request. */
  scopes: string[];
  challenge: string | undefined;
}

export type AuthorizeDecision =
  | { kind: 'error'; error: string; description: string; requirement: string }
  | { kind: 'consent'; pending: PendingAuthorization; reauthorize: boolean }
  | { kind: 'redirect'; location: string; code: string };

export interface CodeRecord {
  code: string;
  clientId: string;
  userId: number;
  scopes: string[];
  redirectUri: string | undefined;
  target: string;
  challenge: string | undefined;
  issuedAt: number;
  used: boolean;
}

export interface ExchangeParams {
  client_id?: string;
  client_secret?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
}

export type ExchangeResult = { ok: true; token: Token } | { ok: false; error: string; description: string; requirement: string };

export interface WebFlowDeps {
  clock: Clock;
  ids: IdSource;
  limits: Limits;
  directory: Directory;
  tokens: TokenStore;
  matchRedirect(callback: string, candidate: string | undefined): RedirectVerdict;
  checkChallenge(challenge: string | undefined, method: string | undefined): ChallengeCheck;
  checkVerifier(challenge: string | undefined, verifier: string | undefined): VerifierCheck;
}

export class WebFlow {
  protected readonly codes = new Map<string, CodeRecord>();

  constructor(protected readonly deps: WebFlowDeps) {}

  /** Validates an authorization request before anything is shown to the user. */
  validate(p: AuthorizeParams): { ok: true; pending: PendingAuthorization } | Extract<AuthorizeDecision, { kind: 'error' }> {
    const app = findApp(this.deps.directory, p.client_id);
    if (!app) return { kind: 'error', error: 'unknown_client', description: 'client_id is missing or not registered', requirement: 'OAUTH-AUTHZ-CLIENT-ID' };
    const redirect = this.deps.matchRedirect(app.callbackUrl, p.redirect_uri);
    if (!redirect.accepted || !redirect.effective) {
      return { kind: 'error', error: 'redirect_uri_mismatch', description: redirect.reason, requirement: redirect.rule };
    }
    const pkce = this.deps.checkChallenge(p.code_challenge, p.code_challenge_method);
    if (!pkce.ok) return { kind: 'error', error: 'invalid_request', description: pkce.reason, requirement: pkce.requirement };
    const requested = parseScopes(p.scope);
    return {
      ok: true,
      pending: { app, redirectUri: p.redirect_uri, target: redirect.effective, state: p.state, requested, scopes: requested, challenge: pkce.challenge },
    };
  }

  /**
   * Decides what a signed-in user sees: the authorization page, or (scopes already
   * authorized) an immediate redirect with the union of earlier scopes (B, Endpoints 1
   * "scope"). At the hourly creation rate the page is shown again as a re-authorization
   * prompt (B, Limits "token creation rate").
   */
  review(p: AuthorizeParams, userId: number): AuthorizeDecision {
    const v = this.validate(p);
    if (!('ok' in v)) return v;
    const prior = this.deps.tokens.authorizedScopes(userId, v.pending.app.clientId);
    const pending = { ...v.pending, scopes: unionScopes(prior ?? [], v.pending.requested) };
    const now = this.deps.clock.now();
    if (this.deps.tokens.creationRateReached(userId, pending.app.clientId, pending.scopes, now)) {
      return { kind: 'consent', pending, reauthorize: true };
    }
    if (prior !== undefined && isSubset(pending.requested, prior)) return this.approve(pending, userId);
    return { kind: 'consent', pending, reauthorize: false };
  }

  /**
   * What the sign-in page shows a browser that is not signed in (B, Endpoints 1): the account
   * `login` suggests, and whether sign-up is offered (`allow_signup`, default true; only `false`
   * turns it off).
   */
  signInOffer(p: AuthorizeParams): { login: string | undefined; signUp: boolean } {
    return { login: p.login || undefined, signUp: p.allow_signup !== 'false' };
  }

  /**
   * Whether a signed-in user is shown the account picker first (B, Endpoints 1): `prompt=
   * select_account` forces it, and it also appears for an application whose redirect URI is not
   * HTTP. Several signed-in accounts, the third case, cannot happen here: a session holds one.
   */
  showsAccountPicker(p: AuthorizeParams, pending: PendingAuthorization): boolean {
    return p.prompt === 'select_account' || !/^https?:\/\//i.test(pending.app.callbackUrl);
  }

  /** The user accepts: a temporary code goes to the redirect target with the state. */
  approve(pending: PendingAuthorization, userId: number): Extract<AuthorizeDecision, { kind: 'redirect' }> {
    const code = newAuthorizationCode(this.deps.ids);
    this.codes.set(code, {
      code,
      clientId: pending.app.clientId,
      userId,
      scopes: pending.scopes,
      redirectUri: pending.redirectUri,
      target: pending.target,
      challenge: pending.challenge,
      issuedAt: this.deps.clock.now(),
      used: false,
    });
    return { kind: 'redirect', location: withQuery(pending.target, { code, state: pending.state }), code };
  }

  /** The user cancels: back to the application without a code (body not shown in the spec). */
  deny(pending: PendingAuthorization): string {
    return withQuery(pending.target, { error: 'access_denied', state: pending.state });
  }

  /** POST {auth_url}/login/oauth/access_token with a code (B, Endpoints 2). */
  exchange(p: ExchangeParams): ExchangeResult {
    const app = findApp(this.deps.directory, p.client_id);
    if (!app || p.client_secret !== app.clientSecret) {
      return { ok: false, error: 'incorrect_client_credentials', description: 'client_id or client_secret is wrong', requirement: 'OAUTH-TOKEN-CLIENT-AUTH' };
    }
    const record = p.code ? this.codes.get(p.code) : undefined;
    if (!record || record.clientId !== app.clientId) return this.badCode('the code is not valid', 'OAUTH-TOKEN-CODE-VALID');
    if (record.used) return this.badCode('the code was already used', 'OAUTH-CODE-SINGLE-USE');
    if (this.isExpired(record)) return this.badCode('the code expired', 'OAUTH-CODE-EXPIRY');
    if (p.redirect_uri !== undefined && p.redirect_uri !== '' && p.redirect_uri !== record.target) {
      return { ok: false, error: 'redirect_uri_mismatch', description: 'redirect_uri differs from the one used at issue', requirement: 'OAUTH-TOKEN-REDIRECT-MATCH' };
    }
    const pkce = this.deps.checkVerifier(record.challenge, p.code_verifier);
    if (!pkce.ok) return { ok: false, error: 'invalid_grant', description: pkce.reason, requirement: pkce.requirement };
    this.consume(record);
    return { ok: true, token: this.deps.tokens.create(record.userId, record.clientId, record.scopes, 'web', this.deps.clock.now()) };
  }

  /** Valid 10 minutes from issue (B, Limits). */
  protected isExpired(record: CodeRecord): boolean {
    return this.deps.clock.now() - record.issuedAt >= this.deps.limits.codeTtlMs;
  }

  /** A code is good for one exchange ("code unused", B, States). */
  protected consume(record: CodeRecord): void {
    record.used = true;
  }

  private badCode(description: string, requirement: string): ExchangeResult {
    return { ok: false, error: 'bad_verification_code', description, requirement };
  }
}

/** Appends query parameters, keeping any the URL already has. */
export function withQuery(url: string, params: Record<string, string | undefined>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.append(k, v);
  return u.toString();
}
