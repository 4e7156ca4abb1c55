import { createHash } from 'node:crypto';

/**
 * PKCE as the platform allows it (spec 000, B, Endpoints 1 and 2; B, Limits):
 * code_challenge and code_challenge_method each require the other, only `S256` is allowed
 * (`plain` is unsupported), the challenge is 43 characters, and the exchange must carry the
 * verifier the challenge was made from.
 */

export type ChallengeCheck =
  | { ok: true; challenge?: string }
  | { ok: false; requirement: string; reason: string };

export const PKCE_RULES = {
  methodRequired: 'OAUTH-PKCE-METHOD-REQUIRED',
  challengeRequired: 'OAUTH-PKCE-CHALLENGE-REQUIRED',
  s256Only: 'OAUTH-PKCE-S256-ONLY',
  length: 'OAUTH-PKCE-CHALLENGE-LENGTH',
  verifierRequired: 'OAUTH-PKCE-VERIFIER-REQUIRED',
  verifierMatch: 'OAUTH-PKCE-VERIFIER-MATCH',
} as const;

export const CHALLENGE_LENGTH = 43;

/** base64url without padding of SHA-256(verifier): the S256 transformation. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Validates the authorization request's PKCE parameters (empty string counts as absent). */
export function checkChallenge(challenge: string | undefined, method: string | undefined): ChallengeCheck {
  const hasChallenge = challenge !== undefined && challenge !== '';
  const hasMethod = method !== undefined && method !== '';
  if (!hasChallenge && !hasMethod) return { ok: true };
  if (!hasMethod) return { ok: false, requirement: PKCE_RULES.methodRequired, reason: 'code_challenge without code_challenge_method' };
  if (!hasChallenge) return { ok: false, requirement: PKCE_RULES.challengeRequired, reason: 'code_challenge_method without code_challenge' };
  if (method !== 'S256') return { ok: false, requirement: PKCE_RULES.s256Only, reason: `code_challenge_method ${method} is not S256` };
  if (challenge.length !== CHALLENGE_LENGTH) {
    return { ok: false, requirement: PKCE_RULES.length, reason: `code_challenge has ${challenge.length} characters, not ${CHALLENGE_LENGTH}` };
  }
  return { ok: true, challenge };
}

export type VerifierCheck = { ok: true } | { ok: false; requirement: string; reason: string };

/** Checks the exchange's code_verifier against the challenge stored with the code. */
export function checkVerifier(challenge: string | undefined, verifier: string | undefined): VerifierCheck {
  if (challenge === undefined) return { ok: true };
  if (verifier === undefined || verifier === '') {
    return { ok: false, requirement: PKCE_RULES.verifierRequired, reason: 'code_challenge was sent but code_verifier is missing' };
  }
  if (s256(verifier) !== challenge) return { ok: false, requirement: PKCE_RULES.verifierMatch, reason: 'S256(code_verifier) differs from code_challenge' };
  return { ok: true };
}
