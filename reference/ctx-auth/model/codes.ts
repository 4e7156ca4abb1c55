import { ALNUM, type IdSource } from './ids.js';
import type { Upstream } from './upstream.js';

/**
 * Authorization codes (OAuth 2.1 §4.1.2, §4.1.3): short-lived on the model's clock, bound to the
 * client they were issued to and to the redirect URI of the request, single use, and carrying
 * the PKCE challenge the exchange is checked against.
 */
export interface AuthorizationCode {
  value: string;
  clientId: string;
  redirectUri: string;
  /** Whether the authorization request named redirect_uri (then the exchange must repeat it). */
  redirectUriSent: boolean;
  challenge: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number;
  /** Set by the first successful exchange. */
  used: boolean;
  /** Tokens issued from this code: revoked if the code is presented again (OAuth 2.1 §4.1.3). */
  issuedTokens: string[];
  /** The third-party session the code stands for, when the server delegates (C Auth 9). */
  upstream?: Upstream;
}

export type CodeIssue = Pick<AuthorizationCode, 'clientId' | 'redirectUri' | 'redirectUriSent' | 'challenge' | 'scopes'>;

export type CodeLookup =
  | { ok: true; code: AuthorizationCode }
  | { ok: false; reason: 'unknown' | 'expired' | 'used' | 'other-client'; code?: AuthorizationCode };

export class CodeStore {
  private readonly codes = new Map<string, AuthorizationCode>();

  constructor(
    private readonly ids: IdSource,
    private readonly ttlMs: number,
  ) {}

  issue(what: CodeIssue, now: number): AuthorizationCode {
    const code: AuthorizationCode = { ...what, scopes: [...what.scopes], value: this.ids.next(ALNUM, 32), issuedAt: now, expiresAt: now + this.ttlMs, used: false, issuedTokens: [] };
    this.codes.set(code.value, code);
    return code;
  }

  get(value: string): AuthorizationCode | undefined {
    return this.codes.get(value);
  }

  /**
   * The code `clientId` presents, if it may still be exchanged. A failed exchange leaves the code
   * as it was (only a successful one uses it up), so a refusal for a wrong client or verifier
   * says nothing about whether the right one would succeed.
   */
  lookup(value: string, clientId: string, now: number): CodeLookup {
    const code = this.codes.get(value);
    if (!code) return { ok: false, reason: 'unknown' };
    if (code.used) return { ok: false, reason: 'used', code };
    if (code.clientId !== clientId) return { ok: false, reason: 'other-client', code };
    if (now >= code.expiresAt) return { ok: false, reason: 'expired', code };
    return { ok: true, code };
  }
}
