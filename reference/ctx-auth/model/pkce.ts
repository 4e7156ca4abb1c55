import { createHash } from 'node:crypto';

/**
 * PKCE as the reference requires it: every authorization request carries a challenge (C Auth 1:
 * "PKCE is required for all clients"), made with S256 only (OAuth 2.1 §4.1.1; `plain` is not
 * accepted, RFC 9700 §2.1.1), and the exchange carries the verifier it was made from
 * (RFC 7636 §4.6).
 */
export const S256 = 'S256';

/** An S256 challenge: base64url without padding of a SHA-256 digest, so exactly 43 characters. */
export const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;

/** base64url without padding of SHA-256(verifier) (RFC 7636 §4.2). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/**
 * Why an authorization request's PKCE parameters are refused, or undefined when they are
 * acceptable. Empty values count as absent.
 */
export function challengeProblem(challenge: string | undefined, method: string | undefined): string | undefined {
  if (challenge === undefined || challenge === '') return 'code_challenge is required: every client uses PKCE';
  if (method === undefined || method === '') return 'code_challenge_method is required and must be S256 (plain is not accepted)';
  if (method !== S256) return `code_challenge_method ${method} is not supported; use S256`;
  if (!CHALLENGE_PATTERN.test(challenge)) return 'code_challenge must be 43 characters of base64url (an S256 digest)';
  return undefined;
}

/** Whether `verifier` is the one `challenge` was made from (RFC 7636 §4.6). */
export function verifierMatches(challenge: string, verifier: string): boolean {
  return s256(verifier) === challenge;
}
