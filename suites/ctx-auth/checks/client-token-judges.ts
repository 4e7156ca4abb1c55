import { blockedBy, unjudged } from '../../../src/engine/checks/contract.js';
import { bearerOf, issuedTokens, kindOf, label, listed, ofKind, param, type IssuedToken, type ScenarioRun, type SentRequest } from './client-evidence.js';
import { HIDDEN } from './client-hide.js';
import { verdictOf, type ClientVerdict, type Problem } from './client-verdicts.js';

/**
 * Judges of how a client carries and renews its access token (spec 000 part C, Endpoints 4,
 * Authentication 5, 7 and 10; RFC 6750 §2.1). Token values are never shown: a message says
 * which request issued a token.
 */

function noToken(run: ScenarioRun): ClientVerdict {
  return unjudged(`the client obtained no access token in the ${run.scenario} scenario`);
}

/** CTX-CLI-BEARER-EVERY: every resource request after the token carries `Authorization: Bearer <issued token>`. */
export function judgeBearerEvery(run: ScenarioRun): ClientVerdict {
  const tokens = issuedTokens(run);
  const first = tokens[0];
  if (!first) return noToken(run);
  const after = ofKind(run, 'resource').filter((r) => r.n > first.by.n);
  if (!after.length) return unjudged(`the client sent no resource request after ${label(first.by)} issued its access token`);
  const problems = after.flatMap((r): Problem[] => {
    const auth = r.headers['authorization'];
    const inQuery = tokens.some((t) => [...r.query.values()].includes(t.access)) ? ' (it put the token in the query string instead)' : '';
    if (auth === undefined) return [{ at: r, why: `${label(r)} carried no Authorization header${inQuery}; the access token was issued by ${label(first.by)}` }];
    const token = bearerOf(r);
    if (token === undefined) return [{ at: r, why: `${label(r)} carried Authorization with scheme ${auth.trim().split(/\s+/)[0] ?? ''}, not Bearer${inQuery}` }];
    if (!tokens.some((t) => t.access === token && t.by.n < r.n)) return [{ at: r, why: `${label(r)} carried a bearer token the server had not issued to it` }];
    return [];
  });
  return verdictOf(run, problems);
}

/** CTX-CLI-TOKEN-NOT-IN-QUERY: no request carries the token in its query string. */
export function judgeTokenNotInQuery(run: ScenarioRun): ClientVerdict {
  const tokens = issuedTokens(run);
  if (!tokens.length) return noToken(run);
  const problems = run.requests.flatMap((r): Problem[] => {
    for (const [name, value] of r.query) {
      const access = tokens.find((t) => t.access === value);
      const refresh = tokens.find((t) => t.refresh === value);
      if (access) return [{ at: r, why: `${label(r)} carried the access token of ${label(access.by)} in its query string (${name}=${HIDDEN})` }];
      if (refresh) return [{ at: r, why: `${label(r)} carried the refresh token of ${label(refresh.by)} in its query string (${name}=${HIDDEN})` }];
      if (name === 'access_token') return [{ at: r, why: `${label(r)} carried an access_token parameter in its query string` }];
    }
    return [];
  });
  return verdictOf(run, problems);
}

/** A resource request refused with 401 while carrying a token the server had issued: the token expired. */
interface Expiry {
  at: SentRequest;
  token: IssuedToken;
}

/** The first 401 of each issued token on a resource request. */
function expiries(run: ScenarioRun): Expiry[] {
  const tokens = issuedTokens(run);
  const out: Expiry[] = [];
  for (const r of ofKind(run, 'resource')) {
    if (r.status !== 401) continue;
    const sent = bearerOf(r);
    const token = tokens.find((t) => t.access === sent && t.by.n < r.n);
    if (token && !out.some((e) => e.token === token)) out.push({ at: r, token });
  }
  return out;
}

function noExpiry(run: ScenarioRun): ClientVerdict {
  return unjudged(`no resource request carrying an issued token was answered 401 in the ${run.scenario} scenario (the client made ${ofKind(run, 'resource').length} resource requests), so nothing shows how the client renews an expired token`);
}

/** The requests after `r` that renew a token: a token request or a new authorization. */
function renewalsAfter(run: ScenarioRun, r: SentRequest): SentRequest[] {
  return run.requests.filter((x) => x.n > r.n && (kindOf(run, x) === 'token' || kindOf(run, x) === 'authorize'));
}

/** CTX-CLI-EXPIRED-RESTART: a 401 mid-session makes the client renew its token and retry with the new one. */
export function judgeExpiredRestart(run: ScenarioRun): ClientVerdict {
  const found = expiries(run);
  if (!found.length) return noExpiry(run);
  const tokens = issuedTokens(run);
  const problems = found.flatMap(({ at, token }): Problem[] => {
    const renewed = tokens.find((t) => t.by.n > at.n && t.access !== token.access);
    const after = run.requests.filter((x) => x.n > at.n);
    if (!renewed) {
      const tried = renewalsAfter(run, at)[0];
      if (!tried) return [{ at, why: `${label(at)} was answered 401 (the token expired) and the client neither refreshed its token nor started the flow again (${after.length ? `it went on with ${listed(after)}` : 'it sent nothing more'})` }];
      return [{ at: tried, why: `${label(at)} was answered 401 (the token expired); the client's renewal (${label(tried)} -> ${tried.status}) got it no new token and it did not start the flow again` }];
    }
    const retried = ofKind(run, 'resource').find((x) => x.n > renewed.by.n && bearerOf(x) === renewed.access);
    if (retried) return [];
    const stale = ofKind(run, 'resource').find((x) => x.n > renewed.by.n);
    return [{ at: stale ?? at, why: `after ${label(at)} was answered 401 (the token expired), the client got a new token (${label(renewed.by)}) but sent no resource request with it${stale ? ` (${label(stale)} did not carry it)` : ''}` }];
  });
  return verdictOf(run, problems);
}

/** CTX-CLI-REFRESH: an expired token is renewed with the refresh_token grant when a refresh token was issued. */
export function judgeRefresh(run: ScenarioRun): ClientVerdict {
  const found = expiries(run);
  if (!found.length) return noExpiry(run);
  const tokens = issuedTokens(run);
  const judged = found.filter(({ at }) => tokens.some((t) => t.refresh && t.by.n < at.n));
  if (!judged.length) return unjudged(`no token response before the expired token (${label((found[0] as Expiry).at)}) issued a refresh token`);
  // a client that renewed nothing after a 401 breaks the restart rule; how it renews is this one's
  const silent = judged.find(({ at }) => !renewalsAfter(run, at).length);
  if (silent) return blockedBy('CTX-CLI-EXPIRED-RESTART', `${label(silent.at)} was answered 401 (the token expired) and the client renewed nothing after it, so how it renews is not shown`);
  const problems = judged.flatMap(({ at }): Problem[] => {
    const latest = tokens.filter((t) => t.refresh && t.by.n < at.n).pop() as IssuedToken;
    const next = renewalsAfter(run, at)[0];
    if (!next) return [{ at, why: `${label(at)} was answered 401 (the token expired) and the client did not use the refresh token ${label(latest.by)} issued` }];
    if (kindOf(run, next) === 'authorize' || param(next, 'grant_type') !== 'refresh_token')
      return [{ at: next, why: `after ${label(at)} was answered 401 (the token expired), the client renewed with ${label(next)}${kindOf(run, next) === 'token' ? ` (grant_type=${param(next, 'grant_type') ?? 'none'})` : ' (a new authorization)'} instead of the refresh_token grant, though ${label(latest.by)} issued a refresh token` }];
    if (param(next, 'refresh_token') !== latest.refresh) return [{ at: next, why: `${label(next)} sent a refresh token other than the one ${label(latest.by)} issued last` }];
    return [];
  });
  return verdictOf(run, problems);
}
