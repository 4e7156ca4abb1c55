import type { Oracle } from '../../src/engine/suite-module.js';
import { checkChallenge, checkVerifier } from '../../reference/oauth/model/pkce.js';
import { matchRedirect } from '../../reference/oauth/model/redirect.js';

/**
 * Oracles: the model's answer for a generated value, seen by steps as `${oracle}`.
 */

/** Whether a redirect candidate is accepted, and which rule decides (B, Redirect URLs). */
export const redirectVerdict: Oracle = (value) => {
  const c = value as { callback: string; redirect_uri: string };
  const v = matchRedirect(c.callback, c.redirect_uri);
  return { accepted: v.accepted, rule: v.rule, reason: v.reason };
};

/** Whether a PKCE combination gets a code, then a token, and which rule decides (B, Endpoints 1-2). */
export const pkceVerdict: Oracle = (value) => {
  const c = value as { code_challenge: string | null; code_challenge_method: string | null; code_verifier: string | null };
  const ch = checkChallenge(c.code_challenge ?? undefined, c.code_challenge_method ?? undefined);
  if (!ch.ok) return { authorize: false, token: false, requirement: ch.requirement, reason: ch.reason };
  if (ch.challenge === undefined) return { authorize: true, token: true, requirement: 'OAUTH-AUTHZ-REDIRECT-CODE', reason: 'no PKCE: an ordinary web flow' };
  const v = checkVerifier(ch.challenge, c.code_verifier ?? undefined);
  return v.ok
    ? { authorize: true, token: true, requirement: 'OAUTH-PKCE-VERIFIER-MATCH', reason: 'S256 of the verifier equals the challenge' }
    : { authorize: true, token: false, requirement: v.requirement, reason: v.reason };
};
