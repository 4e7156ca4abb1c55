import fc from 'fast-check';
import { s256 } from '../../reference/oauth/model/pkce.js';

/**
 * PKCE parameter combinations for an authorization request and its exchange (spec 000, B,
 * Endpoints 1 and 2; B, Limits "code_challenge length"). `verifier` is what the client
 * keeps; `code_verifier` is what it sends in the exchange (absent, the right one, or another).
 */
export interface PkceCase {
  kind: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  code_verifier: string | null;
}

/** RFC 7636 verifiers: 43 to 128 unreserved characters. */
export const codeVerifier = fc.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/);

export function pkceCase(): fc.Arbitrary<PkceCase> {
  return fc.tuple(codeVerifier, codeVerifier).chain(([v, other]) => {
    const ch = s256(v);
    const wrong = other === v ? `${other}x` : other;
    return fc.constantFrom<PkceCase>(
      { kind: 'S256 with the right verifier', code_challenge: ch, code_challenge_method: 'S256', code_verifier: v },
      { kind: 'S256 with another verifier', code_challenge: ch, code_challenge_method: 'S256', code_verifier: wrong },
      { kind: 'S256 without a verifier', code_challenge: ch, code_challenge_method: 'S256', code_verifier: null },
      { kind: 'plain method', code_challenge: v.slice(0, 43), code_challenge_method: 'plain', code_verifier: v.slice(0, 43) },
      { kind: 'challenge without method', code_challenge: ch, code_challenge_method: null, code_verifier: v },
      { kind: 'method without challenge', code_challenge: null, code_challenge_method: 'S256', code_verifier: v },
      { kind: 'challenge one character short', code_challenge: ch.slice(0, 42), code_challenge_method: 'S256', code_verifier: v },
      { kind: 'challenge one character long', code_challenge: `${ch}A`, code_challenge_method: 'S256', code_verifier: v },
      { kind: 'no PKCE', code_challenge: null, code_challenge_method: null, code_verifier: null },
    );
  });
}
