import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redirectUri } from '../../../generators/ctx-auth/redirect-uri.js';
import { invalidRegistration, nonLoopbackHttpRegistration, validRegistration } from '../../../generators/ctx-auth/registration-metadata.js';

/** Redirect URIs and registration requests, judged here by an independent reading of the rules. */

/** Spec 000, C, Authentication 8: a localhost URL (http or https on a loopback host) or an https URL; no fragment. */
function allowed(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash !== '') return false;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
}

function absoluteUri(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]/.test(v) && new URL(v).href !== '';
  } catch {
    return false;
  }
}

describe('redirect URIs', () => {
  it('say truly whether the rule allows them, and generate both kinds', () => {
    const seen = new Set<boolean>();
    fc.assert(
      fc.property(redirectUri(), (r) => {
        expect(allowed(r.uri), `${r.uri} (${r.kind})`).toBe(r.allowed);
        seen.add(r.allowed);
      }),
      { numRuns: 300, seed: 7 },
    );
    expect([...seen].sort()).toEqual([false, true]);
  });
});

describe('registration requests', () => {
  it('valid ones hold one to three allowed redirect URIs, echoed in redirect_uris', () => {
    fc.assert(
      fc.property(validRegistration(), (r) => {
        const uris = r.body['redirect_uris'];
        expect(r.valid).toBe(true);
        expect(Array.isArray(uris) && uris.length >= 1 && uris.length <= 3 && uris.every((u) => typeof u === 'string' && allowed(u))).toBe(true);
        expect(r.redirect_uris).toEqual(uris);
        expect(new Set(uris as string[]).size).toBe((uris as string[]).length);
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('invalid ones lack redirect_uris, hold something other than an array, or hold what is not an absolute URI', () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(invalidRegistration(), (r) => {
        const uris = r.body['redirect_uris'];
        expect(r.valid).toBe(false);
        const broken = uris === undefined || !Array.isArray(uris) || uris.some((u) => !absoluteUri(u));
        expect(broken, JSON.stringify(r.body)).toBe(true);
        kinds.add(r.kind.replace(/ holding .*/, ' holding'));
      }),
      { numRuns: 300, seed: 7 },
    );
    expect(kinds.size).toBe(5);
  });

  it('non-loopback http ones are well formed and hold exactly one URI the rule forbids', () => {
    fc.assert(
      fc.property(nonLoopbackHttpRegistration(), (r) => {
        const uris = r.body['redirect_uris'] as string[];
        expect(Array.isArray(uris) && uris.every(absoluteUri)).toBe(true);
        expect(uris.filter((u) => !allowed(u))).toHaveLength(1);
        expect(uris.find((u) => !allowed(u))).toMatch(/^http:\/\//);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
