import { RESOURCE_SCOPE } from './scopes.js';
import type { AccessToken, TokenStore } from './tokens.js';

/**
 * Whether a resource call may proceed (C Auth 5 and 7; RFC 6750 §3.1): no token is `missing`
 * (401), an unknown, revoked, expired or used-up token is `invalid` (401 invalid_token), a
 * working token without the resource scope is `insufficient_scope` (403).
 */
export type ResourceAccess =
  | { ok: true; token: AccessToken }
  | { ok: false; kind: 'missing' | 'invalid' | 'insufficient_scope'; description: string };

/** Checks `value` (undefined: no token sent) and counts the call when it is allowed. */
export function accessResource(tokens: TokenStore, value: string | undefined, now: number, requiredScope: string = RESOURCE_SCOPE): ResourceAccess {
  if (value === undefined) return { ok: false, kind: 'missing', description: 'an access token is required' };
  const check = tokens.checkAccess(value, now);
  if (!check.ok) {
    const why = { unknown: 'the access token is not known', revoked: 'the access token was revoked', expired: 'the access token has expired', 'used-up': 'the access token has expired' }[check.reason];
    return { ok: false, kind: 'invalid', description: why };
  }
  if (!check.token.scopes.includes(requiredScope)) return { ok: false, kind: 'insufficient_scope', description: `the access token lacks the ${requiredScope} scope` };
  check.token.calls++;
  return { ok: true, token: check.token };
}
