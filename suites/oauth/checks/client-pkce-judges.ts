import { s256 } from '../../../reference/oauth/model/pkce.js';
import { PASS, fail, notApplicable, unjudged, type Judge, type Verdict } from '../../../src/engine/checks/contract.js';
import { isTokenRequest, toExchange } from './client-log.js';
import type { WebRun } from './client-web-run.js';

/**
 * PKCE on the client side (spec 000, B, Authentication 1: "it should use state and PKCE
 * (S256)"; Endpoints 1 and 2: code_challenge, code_challenge_method and code_verifier; Limits:
 * code_challenge length), one judge per statement. Whether the application uses PKCE at all is a
 * recommendation (OAUTH-CLIENT-PKCE); how it uses the parameters it sends is required, so those
 * rules do not apply to an application that sends none.
 */

interface Pkce {
  challenge: string | undefined;
  method: string | undefined;
}

function pkceOf(run: WebRun): Pkce | undefined {
  if (!run.authorizeUrl) return undefined;
  const get = (name: string): string | undefined => {
    const v = run.authorizeUrl?.searchParams.get(name);
    return v === null || v === undefined || v === '' ? undefined : v;
  };
  return { challenge: get('code_challenge'), method: get('code_challenge_method') };
}

const authorizeNote = (run: WebRun) => ({ kind: 'note' as const, summary: 'authorization URL printed by the client', request: run.authorizeUrl?.toString() });

function noAuthorizeUrl(run: WebRun): Verdict {
  return unjudged(run.problem ?? 'the client printed no authorization URL');
}

function sent(p: Pkce): Record<string, string | null> {
  return { code_challenge: p.challenge ?? null, code_challenge_method: p.method ?? null };
}

/** OAUTH-CLIENT-PKCE (SHOULD): the authorization request uses PKCE at all. */
export function judgeUsesPkce(run: WebRun): Verdict {
  const p = pkceOf(run);
  if (!p) return noAuthorizeUrl(run);
  if (p.challenge === undefined && p.method === undefined) {
    return fail('the authorization request uses no PKCE (no code_challenge, no code_challenge_method)', {
      expected: { code_challenge: '<S256 of a random verifier>', code_challenge_method: 'S256' },
      actual: sent(p),
      exchange: authorizeNote(run),
    });
  }
  return PASS;
}

/** OAUTH-CLIENT-PKCE-METHOD-REQUIRED: code_challenge comes with code_challenge_method. */
export function judgeMethodRequired(run: WebRun): Verdict {
  const p = pkceOf(run);
  if (!p) return noAuthorizeUrl(run);
  if (p.challenge === undefined) return notApplicable('the client sends no code_challenge');
  if (p.method === undefined) return fail('the authorization request carries code_challenge without code_challenge_method', { expected: { code_challenge_method: 'S256' }, actual: sent(p), exchange: authorizeNote(run) });
  return PASS;
}

/** OAUTH-CLIENT-PKCE-CHALLENGE-REQUIRED: code_challenge_method comes with code_challenge. */
export function judgeChallengeRequired(run: WebRun): Verdict {
  const p = pkceOf(run);
  if (!p) return noAuthorizeUrl(run);
  if (p.method === undefined) return notApplicable('the client sends no code_challenge_method');
  if (p.challenge === undefined) return fail('the authorization request carries code_challenge_method without code_challenge', { expected: { code_challenge: '<S256 of a random verifier>' }, actual: sent(p), exchange: authorizeNote(run) });
  return PASS;
}

/** OAUTH-CLIENT-PKCE-S256: the method sent is S256 (plain is unsupported). */
export function judgeS256(run: WebRun): Verdict {
  const p = pkceOf(run);
  if (!p) return noAuthorizeUrl(run);
  if (p.method === undefined) return notApplicable('the client sends no code_challenge_method');
  if (p.method !== 'S256') return fail(`the authorization request's code_challenge_method is ${JSON.stringify(p.method)}: only S256 is allowed`, { expected: { code_challenge_method: 'S256' }, actual: sent(p), exchange: authorizeNote(run) });
  return PASS;
}

/** OAUTH-CLIENT-PKCE-CHALLENGE-LENGTH: the challenge has 43 characters. */
export function judgeChallengeLength(run: WebRun): Verdict {
  const p = pkceOf(run);
  if (!p) return noAuthorizeUrl(run);
  if (p.challenge === undefined) return notApplicable('the client sends no code_challenge');
  const length = [...p.challenge].length;
  if (length !== 43) return fail(`the code_challenge has ${length} characters, not the 43 of a SHA-256 hash`, { expected: { code_challenge: '43 characters' }, actual: sent(p), exchange: authorizeNote(run) });
  return PASS;
}

function exchangesAfterChallenge(run: WebRun, p: Pkce): WebRun['requests'] | Verdict {
  if (p.challenge === undefined) return notApplicable('the client sends no code_challenge, so its exchange needs no code_verifier');
  const ex = run.requests.filter(isTokenRequest);
  if (!ex.length) return unjudged(run.problem ?? `the client did not exchange the code (${run.stopped ? 'it was still running' : 'it ended'} without a POST to /login/oauth/access_token)`);
  return ex;
}

/** OAUTH-CLIENT-PKCE-VERIFIER-REQUIRED: after a challenge, every exchange carries code_verifier. */
export function judgeVerifierRequired(run: WebRun): Verdict {
  const p = pkceOf(run);
  if (!p) return noAuthorizeUrl(run);
  const ex = exchangesAfterChallenge(run, p);
  if (!Array.isArray(ex)) return ex;
  const without = ex.find((e) => !e.params['code_verifier']);
  if (without) return fail('the code exchange after an authorization request with code_challenge sends no code_verifier', { expected: 'code_verifier=<the verifier the challenge was made from>', actual: null, exchange: toExchange(without, run.t0) });
  return PASS;
}

/** OAUTH-CLIENT-PKCE-VERIFIER-MATCH: the verifier is the one the S256 challenge was made from. */
export function judgeVerifierMatch(run: WebRun): Verdict {
  const p = pkceOf(run);
  if (!p) return noAuthorizeUrl(run);
  const ex = exchangesAfterChallenge(run, p);
  if (!Array.isArray(ex)) return ex;
  if (p.method !== 'S256') return unjudged(`the challenge's method is ${p.method === undefined ? 'missing' : JSON.stringify(p.method)}, not S256, so how it was made from the verifier cannot be read`);
  const sentVerifiers = ex.filter((e) => e.params['code_verifier']);
  if (!sentVerifiers.length) return unjudged('the code exchange sends no code_verifier (OAUTH-CLIENT-PKCE-VERIFIER-REQUIRED), so none can be matched');
  for (const e of sentVerifiers) {
    const verifier = e.params['code_verifier'] ?? '';
    if (s256(verifier) !== p.challenge) {
      return fail('the code exchange sends a code_verifier whose S256 is not the code_challenge', { expected: `code_verifier with BASE64URL(SHA256(verifier)) = ${p.challenge}`, actual: verifier, exchange: toExchange(e, run.t0) });
    }
  }
  return PASS;
}

/** Judges of the PKCE statements, by requirement. */
export const PKCE_JUDGES: Readonly<Record<string, Judge<WebRun>>> = {
  'OAUTH-CLIENT-PKCE': judgeUsesPkce,
  'OAUTH-CLIENT-PKCE-METHOD-REQUIRED': judgeMethodRequired,
  'OAUTH-CLIENT-PKCE-CHALLENGE-REQUIRED': judgeChallengeRequired,
  'OAUTH-CLIENT-PKCE-S256': judgeS256,
  'OAUTH-CLIENT-PKCE-CHALLENGE-LENGTH': judgeChallengeLength,
  'OAUTH-CLIENT-PKCE-VERIFIER-REQUIRED': judgeVerifierRequired,
  'OAUTH-CLIENT-PKCE-VERIFIER-MATCH': judgeVerifierMatch,
};
