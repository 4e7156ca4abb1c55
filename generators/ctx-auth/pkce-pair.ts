import { createHash } from 'node:crypto';
import fc from 'fast-check';

/**
 * PKCE pairs for the server-side cases (spec 000, C, Authentication 1: PKCE for every client;
 * RFC 7636 section 4.1: a verifier is 43 to 128 unreserved characters; section 4.2: the S256
 * challenge is BASE64URL(SHA256(ASCII(verifier)))).
 */
export interface PkcePair {
  verifier: string;
  /** S256 of `verifier`: always 43 characters. */
  challenge: string;
  /** A verifier of the same length and alphabet that differs from `verifier` in one character. */
  wrongVerifier: string;
}

/** The unreserved characters of RFC 3986 section 2.3, which RFC 7636 section 4.1 allows in a verifier. */
export const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

/** RFC 7636 appendix B's verifier and its S256 challenge: the fixed pair the YAML cases send. */
export const APPENDIX_B = Object.freeze({
  verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
});

/** BASE64URL(SHA256(ASCII(verifier))), without padding (RFC 7636 section 4.2). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** A verifier RFC 7636 section 4.1 allows. */
export const codeVerifier = fc.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/);

/**
 * A verifier, its challenge, and a wrong verifier that is still well formed: one character
 * replaced by another unreserved one, so a server refusing it refuses the mismatch (RFC 7636
 * section 4.6), not the verifier's form.
 */
export function pkcePair(): fc.Arbitrary<PkcePair> {
  return codeVerifier.chain((verifier) =>
    fc.tuple(fc.nat({ max: verifier.length - 1 }), fc.integer({ min: 1, max: UNRESERVED.length - 1 })).map(([at, shift]) => {
      const old = UNRESERVED.indexOf(verifier.charAt(at));
      const replacement = UNRESERVED.charAt((old + shift) % UNRESERVED.length);
      return { verifier, challenge: s256Challenge(verifier), wrongVerifier: `${verifier.slice(0, at)}${replacement}${verifier.slice(at + 1)}` };
    }),
  );
}
