import type { MatchedExchange, PassiveRule, PassiveRuleFinding, PassiveView } from '../../../src/engine/suite-module.js';
import { s256 } from '../../../reference/oauth/model/pkce.js';
import { authorizationRounds, type AuthorizationRound } from './authorize-redirects.js';
import { answerFields, exchangesOf, isCodeExchange, masked, OP, sentAt, sentParams, verdict } from './recorded.js';

/** The temporary code is valid 10 minutes (B, Resources and Limits). */
const CODE_VALID_MS = 10 * 60_000;

/** A code exchange and the authorization whose redirect issued its code. */
interface Exchanged {
  x: MatchedExchange;
  round: AuthorizationRound;
  granted: boolean;
}

/**
 * Each recorded code exchange with the authorization that issued its code: the redirect whose
 * `code` it sends, or, when a recorder masked the codes, the latest redirect before it answering
 * an authorization request of the same client_id.
 */
export function codeExchanges(view: PassiveView): Exchanged[] {
  const rounds = authorizationRounds(view);
  return exchangesOf(view, OP.token)
    .filter(isCodeExchange)
    .flatMap((x) => {
      const p = sentParams(x.recorded);
      const code = p['code'] ?? '';
      const before = rounds.filter((r) => r.redirect.index < x.recorded.index);
      const round = masked(code) ? before.filter((r) => new URL(r.request.url).searchParams.get('client_id') === (p['client_id'] ?? null)).at(-1) : before.filter((r) => r.location.searchParams.get('code') === code).at(-1);
      return round ? [{ x, round, granted: answerFields(x.recorded)['access_token'] !== undefined }] : [];
    });
}

const granted = (e: Exchanged, message: string, expected: unknown, actual: unknown): PassiveRuleFinding[] => (e.granted ? [{ message: `${message}, and got a token`, expected, actual, exchange: e.x }] : []);

/**
 * The code exchange against the authorization that issued its code (B, Endpoints 2, Limits): a
 * redirect_uri other than the authorization request's gets no token
 * (OAUTH-TOKEN-REDIRECT-MATCH); after a code_challenge, an exchange without code_verifier
 * (OAUTH-PKCE-VERIFIER-REQUIRED) or with one whose S256 is not the challenge
 * (OAUTH-PKCE-VERIFIER-MATCH, unless the recording masks it) gets none; a code exchanged more than
 * 10 minutes after it was issued gets none (OAUTH-CODE-EXPIRY); a code exchanged again after it
 * got a token gets none (OAUTH-CODE-SINGLE-USE, STRICTER; unless the recording masks the codes).
 * Each is judged on the exchanges that show its condition: a client that does everything right
 * gives the platform's rules nothing to judge.
 */
export const codeExchangesRule: PassiveRule = {
  description: 'recorded code exchanges against the authorization that issued the code: redirect_uri, PKCE verifier, 10-minute code, a code used twice',
  requirements: ['OAUTH-TOKEN-REDIRECT-MATCH', 'OAUTH-PKCE-VERIFIER-REQUIRED', 'OAUTH-PKCE-VERIFIER-MATCH', 'OAUTH-CODE-EXPIRY', 'OAUTH-CODE-SINGLE-USE'],
  judge(view) {
    const all = codeExchanges(view);
    const asked = (e: Exchanged, name: string): string | null => new URL(e.round.request.url).searchParams.get(name);
    const other = all.filter((e) => asked(e, 'redirect_uri') !== null && sentParams(e.x.recorded)['redirect_uri'] !== undefined && sentParams(e.x.recorded)['redirect_uri'] !== asked(e, 'redirect_uri'));
    const challenged = all.filter((e) => asked(e, 'code_challenge'));
    const without = challenged.filter((e) => !sentParams(e.x.recorded)['code_verifier']);
    const s256Challenged = challenged.filter((e) => asked(e, 'code_challenge_method') === 'S256' && sentParams(e.x.recorded)['code_verifier'] && !masked(sentParams(e.x.recorded)['code_verifier']));
    const mismatched = s256Challenged.filter((e) => s256(sentParams(e.x.recorded)['code_verifier'] ?? '') !== asked(e, 'code_challenge'));
    const late = all.filter((e) => {
      const at = sentAt(e.x);
      const issued = sentAt({ recorded: e.round.redirect });
      return at !== undefined && issued !== undefined && at - issued > CODE_VALID_MS;
    });
    const seen = new Map<string, Exchanged>();
    // each exchange of a code already granted, with the exchange that got the token
    const again: { e: Exchanged; first: Exchanged }[] = [];
    for (const e of all) {
      const code = sentParams(e.x.recorded)['code'] ?? '';
      if (masked(code)) continue;
      const first = seen.get(code);
      if (first?.granted) again.push({ e, first });
      else if (e.granted) seen.set(code, e);
    }
    const request = (e: Exchanged): string => `entry ${e.round.request.index}`;
    const anyMasked = all.some((e) => masked(sentParams(e.x.recorded)['code']));
    return [
      verdict('OAUTH-TOKEN-REDIRECT-MATCH', other.length, other.flatMap((e) => granted(e, `the code exchange names another redirect_uri than the authorization request that issued the code (${request(e)})`, asked(e, 'redirect_uri'), sentParams(e.x.recorded)['redirect_uri'])), all.length ? 'every code exchange names the redirect_uri of its authorization request (or none)' : 'the recording holds no code exchange after its authorization'),
      verdict('OAUTH-PKCE-VERIFIER-REQUIRED', without.length, without.flatMap((e) => granted(e, `the code exchange after an authorization request with code_challenge (${request(e)}) sends no code_verifier`, 'code_verifier', null)), challenged.length ? 'every code exchange after a code_challenge sends code_verifier' : 'the recording holds no code exchange after an authorization request with code_challenge'),
      verdict('OAUTH-PKCE-VERIFIER-MATCH', mismatched.length, mismatched.flatMap((e) => granted(e, `the code exchange sends a code_verifier whose S256 is not the code_challenge of its authorization request (${request(e)})`, asked(e, 'code_challenge'), s256(sentParams(e.x.recorded)['code_verifier'] ?? ''))), s256Challenged.length ? 'every code_verifier sent is the one its S256 challenge was made from' : challenged.length ? 'the recording masks code_verifier (***) or the challenge is not S256, so no verifier can be compared' : 'the recording holds no code exchange after an authorization request with code_challenge'),
      verdict('OAUTH-CODE-EXPIRY', late.length, late.flatMap((e) => granted(e, `the code was exchanged more than 10 minutes after the redirect that issued it (entry ${e.round.redirect.index})`, '<= 10 minutes', `${Math.round(((sentAt(e.x) ?? 0) - (sentAt({ recorded: e.round.redirect }) ?? 0)) / 1000)} s`)), 'no code was exchanged more than 10 minutes after it was issued'),
      verdict('OAUTH-CODE-SINGLE-USE', again.length, again.flatMap(({ e, first }) => granted(e, `the code was exchanged again after it had got a token (entry ${first.x.recorded.index})`, 'no token for a code already exchanged', 'a token')), anyMasked ? 'the recording masks the codes (***), so a code sent twice cannot be told' : 'no code was exchanged twice'),
    ];
  },
};
