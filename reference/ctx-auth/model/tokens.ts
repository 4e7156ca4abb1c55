import { ALNUM, type IdSource } from './ids.js';
import type { Upstream } from './upstream.js';

/**
 * Access and refresh tokens. Access tokens expire on the model's clock (C Auth 7 and 8) and,
 * in the client-side mid-session scenario, after a number of successful calls; refresh tokens
 * rotate (C Auth 8, OAuth 2.1 §4.3.1): each refresh retires the one presented.
 */
export type GrantKind = 'authorization_code' | 'refresh_token' | 'client_credentials';

export interface AccessToken {
  value: string;
  clientId: string;
  scopes: string[];
  grant: GrantKind;
  issuedAt: number;
  expiresAt: number;
  /** Successful resource calls made with it. */
  calls: number;
  revoked: boolean;
  /** The third-party session the token is bound to, when the server delegates (C Auth 9). */
  upstream?: Upstream;
}

export interface RefreshToken {
  value: string;
  clientId: string;
  scopes: string[];
  issuedAt: number;
  /** False once rotated or revoked. */
  active: boolean;
  /** The refresh token that replaced this one. */
  replacedBy?: string;
  /** The third-party session, passed on to what the refresh token buys. */
  upstream?: Upstream;
}

export type AccessCheck = { ok: true; token: AccessToken } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'used-up'; token?: AccessToken };

export class TokenStore {
  private readonly access = new Map<string, AccessToken>();
  private readonly refresh = new Map<string, RefreshToken>();

  constructor(
    private readonly ids: IdSource,
    private readonly accessTtlMs: number,
    /** A token stops working after this many successful calls (undefined: never). */
    private readonly callsPerToken?: number,
  ) {}

  get accessTtlSeconds(): number {
    return Math.round(this.accessTtlMs / 1000);
  }

  issueAccess(clientId: string, scopes: readonly string[], grant: GrantKind, now: number, upstream?: Upstream): AccessToken {
    const token: AccessToken = { value: `ctx_at_${this.ids.next(ALNUM, 32)}`, clientId, scopes: [...scopes], grant, issuedAt: now, expiresAt: now + this.accessTtlMs, calls: 0, revoked: false, ...(upstream ? { upstream } : {}) };
    this.access.set(token.value, token);
    return token;
  }

  issueRefresh(clientId: string, scopes: readonly string[], now: number, upstream?: Upstream): RefreshToken {
    const token: RefreshToken = { value: `ctx_rt_${this.ids.next(ALNUM, 32)}`, clientId, scopes: [...scopes], issuedAt: now, active: true, ...(upstream ? { upstream } : {}) };
    this.refresh.set(token.value, token);
    return token;
  }

  /** The access token for a resource call, if it still works (expired at `expiresAt` exactly). */
  checkAccess(value: string, now: number): AccessCheck {
    const token = this.access.get(value);
    if (!token) return { ok: false, reason: 'unknown' };
    if (token.revoked) return { ok: false, reason: 'revoked', token };
    if (now >= token.expiresAt) return { ok: false, reason: 'expired', token };
    if (this.callsPerToken !== undefined && token.calls >= this.callsPerToken) return { ok: false, reason: 'used-up', token };
    return { ok: true, token };
  }

  accessToken(value: string): AccessToken | undefined {
    return this.access.get(value);
  }

  refreshToken(value: string): RefreshToken | undefined {
    return this.refresh.get(value);
  }

  /** Retires `old` and issues its successor with the same scopes. */
  rotate(old: RefreshToken, now: number): RefreshToken {
    const next = this.issueRefresh(old.clientId, old.scopes, now, old.upstream);
    old.active = false;
    old.replacedBy = next.value;
    return next;
  }

  /** Revokes access and refresh tokens by value (unknown values are ignored). */
  revoke(values: readonly string[]): void {
    for (const v of values) {
      const a = this.access.get(v);
      if (a) a.revoked = true;
      const r = this.refresh.get(v);
      if (r) r.active = false;
    }
  }
}
