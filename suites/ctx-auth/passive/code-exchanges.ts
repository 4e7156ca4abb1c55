import type { MatchedExchange, PassiveRule, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import { s256 } from '../checks/client-pkce-judges.js';
import { MASKED, answerHeader, answerJson, exchangesOfKind, field, formOf, kindsOf, queryOf, verdict } from './recorded.js';

/** An authorization code a recorded redirect gave, with the authorization request it answered. */
interface Issued {
  x: MatchedExchange;
  challenge: string | null;
  method: string | null;
}

const MASKED_CODES = 'the recording masks the authorization codes (***), so which authorization request a code exchange redeems is not shown';

/** Whether an answer of the token endpoint issued a token. */
const gaveToken = (x: MatchedExchange): boolean => x.recorded.status >= 200 && x.recorded.status < 300 && typeof field(answerJson(x), 'access_token') === 'string';

function judgeCodes(view: PassiveView): PassiveVerdict[] {
  const kinds = kindsOf(view);
  const issued = new Map<string, Issued>();
  let masked = false;
  // an authorization request without code_challenge refused where it was sent (no code given) keeps PKCE-REQUIRED
  let refusedUnchallenged = 0;
  for (const x of exchangesOfKind(view, 'authorize', kinds)) {
    const location = answerHeader(x, 'location');
    const sent = x.recorded.method === 'POST' ? formOf(x) : queryOf(x);
    const back = location && URL.canParse(location) ? new URL(location).searchParams : undefined;
    if (!sent.get('code_challenge') && ((x.recorded.status >= 400 && x.recorded.status < 500) || back?.get('error'))) refusedUnchallenged++;
    if (x.recorded.status < 300 || x.recorded.status > 399 || !back) continue;
    const code = back.get('code');
    if (code === MASKED) masked = true;
    else if (code) {
      const q = x.recorded.method === 'POST' ? formOf(x) : queryOf(x);
      issued.set(code, { x, challenge: q.get('code_challenge'), method: q.get('code_challenge_method') });
    }
  }
  const exchanges = exchangesOfKind(view, 'token', kinds).flatMap((x) => {
    const form = formOf(x);
    const code = form.get('code');
    if (code === MASKED) masked = true;
    return form.get('grant_type') === 'authorization_code' && code && code !== MASKED ? [{ x, code, verifier: form.get('code_verifier'), from: issued.get(code) }] : [];
  });
  // a code without a challenge: it must yield no token (refused at the authorization endpoint, or at the exchange)
  const unchallenged = exchanges.filter((e) => e.from && !e.from.challenge);
  const required: PassiveRuleFinding[] = unchallenged.filter((e) => gaveToken(e.x)).map((e) => ({ message: `the code of an authorization request without code_challenge (entry ${e.from?.x.recorded.index}) was exchanged for a token`, exchange: e.x }));
  // a verifier that is not the S256 challenge's: no token, invalid_grant
  const mismatched = exchanges.filter((e) => e.from?.challenge && (e.from.method ?? 'plain') === 'S256' && e.verifier !== null && e.verifier !== MASKED && s256(e.verifier) !== e.from.challenge);
  const verifier: PassiveRuleFinding[] = mismatched.flatMap((e) => {
    if (gaveToken(e.x)) return [{ message: `a code_verifier whose S256 is not the code_challenge of entry ${e.from?.x.recorded.index} was answered with a token`, exchange: e.x }];
    const error = field(answerJson(e.x), 'error');
    return error === 'invalid_grant' ? [] : [{ message: `a code_verifier whose S256 is not the code_challenge of entry ${e.from?.x.recorded.index} was refused with ${error === undefined ? 'no error' : `error ${JSON.stringify(error)}`}, not invalid_grant`, expected: 'invalid_grant', actual: error ?? null, exchange: e.x }];
  });
  // a code exchanged again after it gave a token: no token the second time
  const redeemed = new Set<string>();
  const again: typeof exchanges = [];
  for (const e of exchanges) {
    if (redeemed.has(e.code)) again.push(e);
    else if (gaveToken(e.x)) redeemed.add(e.code);
  }
  const singleUse: PassiveRuleFinding[] = again.filter((e) => gaveToken(e.x)).map((e) => ({ message: 'an authorization code that had already given a token gave one again', exchange: e.x }));
  const lacking = (what: string): string => (masked && !exchanges.length ? MASKED_CODES : what);
  return [
    verdict('CTX-SRV-PKCE-REQUIRED', unchallenged.length + refusedUnchallenged, required, lacking('the recording holds no authorization request without code_challenge that was refused or whose code was exchanged')),
    verdict('CTX-SRV-PKCE-VERIFIER', mismatched.length, verifier, lacking('the recording holds no exchange whose code_verifier does not match its code_challenge')),
    verdict('CTX-SRV-CODE-SINGLE-USE', again.length, singleUse, lacking('the recording holds no authorization code exchanged a second time')),
  ];
}

/**
 * What the token endpoint made of the codes a recording shows it issued (C, Authentication 1;
 * OAuth 2.1 sections 4.1.1 and 4.1.3; RFC 7636 section 4.6), each exchange paired with the
 * redirect that gave its code: a code issued without code_challenge, a verifier that is not the
 * challenge's, a code already redeemed, each gets no token. Only a recording in clear pairs them:
 * `specgate record` masks codes.
 */
export const codeExchanges: PassiveRule = {
  description: 'recorded code exchanges paired with the redirects that gave their codes: no token for a code issued without code_challenge, for a verifier that is not the challenge\'s (invalid_grant), or for a code used again',
  requirements: ['CTX-SRV-PKCE-REQUIRED', 'CTX-SRV-PKCE-VERIFIER', 'CTX-SRV-CODE-SINGLE-USE'],
  judge: judgeCodes,
};
