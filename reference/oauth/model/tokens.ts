import type { IdSource } from './ids.js';
import { newAccessToken } from './ids.js';
import { HOUR_MS, type Limits } from './limits.js';
import { RateWindow } from './rate-window.js';
import { formatScopes, scopeKey, unionScopes } from './scopes.js';

/**
 * Access tokens and authorizations (spec 000, B, States and transitions "token active";
 * B, Limits "tokens per user/application/scope combination" and "token creation rate").
 */
export interface Token {
  value: string;
  userId: number;
  clientId: string;
  scopes: string[];
  createdAt: number;
  /** `personal`: a personal access token (B, What the service does: the non-web flow), bound to no application. */
  flow: 'web' | 'device' | 'personal';
  revoked?: 'eleventh-token' | 'user-revoked';
}

export class TokenStore {
  protected readonly tokens: Token[] = [];
  /** Scopes each user authorized for each application: the union over earlier tokens. */
  protected readonly authorized = new Map<string, string[]>();
  protected readonly creations: RateWindow;

  constructor(
    protected readonly limits: Limits,
    protected readonly ids: IdSource,
  ) {
    this.creations = new RateWindow(limits.tokenCreationsPerHour, HOUR_MS);
  }

  /** Scopes already authorized, or undefined when the user never authorized the application. */
  authorizedScopes(userId: number, clientId: string): string[] | undefined {
    return this.authorized.get(`${userId}|${clientId}`);
  }

  /** Whether the hourly creation rate is reached for this combination (re-authorization prompt). */
  creationRateReached(userId: number, clientId: string, scopes: readonly string[], now: number): boolean {
    return this.creations.full(this.combination(userId, clientId, scopes), now);
  }

  /** Creates a token and records the grant; web-flow tokens obey the multiplicity limit. */
  create(userId: number, clientId: string, requested: readonly string[], flow: Token['flow'], now: number): Token {
    const key = `${userId}|${clientId}`;
    const scopes = flow === 'web' ? unionScopes(this.authorized.get(key) ?? [], requested) : [...requested];
    this.authorized.set(key, unionScopes(this.authorized.get(key) ?? [], scopes));
    const combo = this.combination(userId, clientId, scopes);
    const token: Token = { value: newAccessToken(this.ids), userId, clientId, scopes, createdAt: now, flow };
    if (flow === 'web') {
      const rateReached = this.creations.full(combo, now);
      this.creations.record(combo, now);
      if (!rateReached) this.enforceMultiplicity(combo);
    }
    this.tokens.push(token);
    return token;
  }

  /**
   * A personal access token of the user (B, Authentication 4: created with basic authentication
   * from the user's token settings page). It belongs to no application, so no application's
   * limits or revocation touch it.
   */
  createPersonal(userId: number, now: number): Token {
    const token: Token = { value: newAccessToken(this.ids), userId, clientId: '', scopes: [], createdAt: now, flow: 'personal' };
    this.tokens.push(token);
    return token;
  }

  /** Active token by value. */
  lookup(value: string): Token | undefined {
    return this.tokens.find((t) => t.value === value && !t.revoked);
  }

  /** Every token of the value, active or not (for reports and tests). */
  find(value: string): Token | undefined {
    return this.tokens.find((t) => t.value === value);
  }

  active(userId: number, clientId: string): Token[] {
    return this.tokens.filter((t) => t.userId === userId && t.clientId === clientId && !t.revoked);
  }

  /** The user revokes the application's authorization on the review page (B, Endpoints 6). */
  revokeApplication(userId: number, clientId: string): number {
    let n = 0;
    for (const t of this.active(userId, clientId)) {
      t.revoked = 'user-revoked';
      n++;
    }
    this.authorized.delete(`${userId}|${clientId}`);
    return n;
  }

  scopeString(token: Token): string {
    return formatScopes(token.scopes);
  }

  /**
   * The eleventh and later token of a combination revokes the oldest ones, keeping ten
   * (B, States and transitions "token active"). Called before the new token is added.
   */
  protected enforceMultiplicity(combo: string): void {
    const same = this.tokens.filter((t) => t.flow === 'web' && !t.revoked && this.combination(t.userId, t.clientId, t.scopes) === combo);
    const excess = same.length + 1 - this.limits.tokensPerCombination;
    for (let i = 0; i < excess; i++) {
      const oldest = same[i];
      if (oldest) oldest.revoked = 'eleventh-token';
    }
  }

  protected combination(userId: number, clientId: string, scopes: readonly string[]): string {
    return `${userId}|${clientId}|${scopeKey(scopes)}`;
  }
}
