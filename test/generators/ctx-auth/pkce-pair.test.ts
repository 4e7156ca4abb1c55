import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APPENDIX_B, UNRESERVED, pkcePair, s256Challenge } from '../../../generators/ctx-auth/pkce-pair.js';

/** PKCE pairs (RFC 7636 sections 4.1 and 4.2). */

/** The S256 challenge computed the long way: SHA-256, standard base64, then the URL-safe alphabet without padding. */
function challengeByHand(verifier: string): string {
  return createHash('sha256').update(Buffer.from(verifier, 'ascii')).digest('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

describe('pkce pairs', () => {
  it('computes RFC 7636 appendix B\'s challenge from its verifier', () => {
    expect(s256Challenge(APPENDIX_B.verifier)).toBe(APPENDIX_B.challenge);
  });

  it('generates well-formed verifiers, their S256 challenge, and a wrong verifier one character away', () => {
    fc.assert(
      fc.property(pkcePair(), ({ verifier, challenge, wrongVerifier }) => {
        expect(verifier.length).toBeGreaterThanOrEqual(43);
        expect(verifier.length).toBeLessThanOrEqual(128);
        expect([...verifier].every((ch) => UNRESERVED.includes(ch))).toBe(true);
        expect(challenge).toBe(challengeByHand(verifier));
        expect(challenge).toHaveLength(43);
        expect(wrongVerifier).toHaveLength(verifier.length);
        expect([...wrongVerifier].every((ch) => UNRESERVED.includes(ch))).toBe(true);
        expect([...verifier].filter((ch, i) => wrongVerifier[i] !== ch)).toHaveLength(1);
        expect(s256Challenge(wrongVerifier)).not.toBe(challenge);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
