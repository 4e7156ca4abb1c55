import { describe, expect, it } from 'vitest';
import { checkChallenge, checkVerifier, s256 } from '../../../reference/oauth/model/pkce.js';

describe('PKCE (spec 000, B, Endpoints 1 and 2)', () => {
  it('computes the RFC 7636 appendix B example', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
  const ch = s256('a'.repeat(43));
  it('accepts S256 with a 43-character challenge, or no PKCE at all', () => {
    expect(checkChallenge(ch, 'S256')).toEqual({ ok: true, challenge: ch });
    expect(checkChallenge(undefined, undefined)).toEqual({ ok: true });
  });
  it('names the broken rule', () => {
    expect(checkChallenge(ch, undefined)).toMatchObject({ ok: false, requirement: 'OAUTH-PKCE-METHOD-REQUIRED' });
    expect(checkChallenge(undefined, 'S256')).toMatchObject({ ok: false, requirement: 'OAUTH-PKCE-CHALLENGE-REQUIRED' });
    expect(checkChallenge(ch, 'plain')).toMatchObject({ ok: false, requirement: 'OAUTH-PKCE-S256-ONLY' });
    expect(checkChallenge(ch, 's256')).toMatchObject({ ok: false, requirement: 'OAUTH-PKCE-S256-ONLY' });
    expect(checkChallenge(`${ch}x`, 'S256')).toMatchObject({ ok: false, requirement: 'OAUTH-PKCE-CHALLENGE-LENGTH' });
    expect(checkChallenge(ch.slice(1), 'S256')).toMatchObject({ ok: false, requirement: 'OAUTH-PKCE-CHALLENGE-LENGTH' });
  });
  it('checks the verifier against the stored challenge', () => {
    expect(checkVerifier(ch, 'a'.repeat(43))).toEqual({ ok: true });
    expect(checkVerifier(ch, 'b'.repeat(43))).toMatchObject({ ok: false, requirement: 'OAUTH-PKCE-VERIFIER-MATCH' });
    expect(checkVerifier(ch, undefined)).toMatchObject({ ok: false, requirement: 'OAUTH-PKCE-VERIFIER-REQUIRED' });
    expect(checkVerifier(undefined, 'anything')).toEqual({ ok: true });
  });
});
