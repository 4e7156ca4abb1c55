import { PASS, unjudged } from '../../../src/engine/checks/contract.js';
import { authorizationOf, basicClientId, codeExchanges, issuedCodes, jsonField, label, ofKind, param, type ScenarioRun, type SentRequest } from './client-evidence.js';
import { notApplicable, verdictOf, type ClientVerdict, type Problem } from './client-verdicts.js';

/**
 * Judges of the authorization code's way from the redirect to the token endpoint: state,
 * redirect URIs, the token request and single use (spec 000 part C, Authentication 8;
 * OAuth 2.1 §4.1.2-4.1.3; RFC 6749 §10.12).
 */

const FORM = 'application/x-www-form-urlencoded';

function mediaType(r: SentRequest): string {
  return (r.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function noExchange(run: ScenarioRun): ClientVerdict {
  return unjudged(`the client exchanged no authorization code in the ${run.scenario} scenario`);
}

/** CTX-CLI-STATE-CHECKED: a code returned with another state than the one sent is never exchanged. */
export function judgeStateChecked(run: ScenarioRun): ClientVerdict {
  const authz = ofKind(run, 'authorize');
  const first = authz[0];
  if (!first) return unjudged(`the client sent no authorization request in the ${run.scenario} scenario`);
  if (!authz.some((r) => r.query.get('state')))
    return notApplicable(`the client sent no state (${label(first)}), so there is no returned state for it to check; CTX-CLI-STATE-CHECKED applies to clients that send state`);
  const mismatched = issuedCodes(run).filter((c) => {
    const sent = c.by.query.get('state');
    return sent && c.state !== sent;
  });
  if (!mismatched.length) return unjudged(`no authorization redirect of the ${run.scenario} scenario returned another state than the one sent, so nothing shows the rule`);
  const problems = codeExchanges(run).flatMap((r): Problem[] => {
    const from = mismatched.find((c) => c.code === param(r, 'code'));
    return from ? [{ at: r, why: `${label(r)} exchanged the code of ${label(from.by)}'s redirect, which returned ${from.state === undefined ? 'no state' : 'another state'} than the one that request sent` }] : [];
  });
  return verdictOf(run, problems);
}

function isLocalhost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}

/** Why a redirect URI is not allowed (C Authentication 8: localhost or HTTPS), or undefined. */
export function redirectUriProblem(uri: string): string | undefined {
  if (!URL.canParse(uri)) return `"${uri}" is not an absolute URL`;
  const u = new URL(uri);
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:' && isLocalhost(u.hostname)) return undefined;
  return `${uri} is neither a localhost URL nor an HTTPS URL`;
}

/** Every redirect URI a client registered or used, with the request that carried it. */
function redirectUris(run: ScenarioRun): { r: SentRequest; uri: string; how: string }[] {
  const out: { r: SentRequest; uri: string; how: string }[] = [];
  for (const r of ofKind(run, 'register')) {
    const uris = jsonField(r.body, 'redirect_uris');
    if (Array.isArray(uris)) for (const u of uris) if (typeof u === 'string') out.push({ r, uri: u, how: 'registers' });
  }
  for (const r of ofKind(run, 'authorize', 'token')) {
    const uri = param(r, 'redirect_uri');
    if (uri) out.push({ r, uri, how: 'uses' });
  }
  return out.sort((a, b) => a.r.n - b.r.n);
}

/** CTX-CLI-REDIRECT-URI: redirect URIs registered and used are localhost or HTTPS URLs. */
export function judgeRedirectUri(run: ScenarioRun): ClientVerdict {
  const uris = redirectUris(run);
  if (!uris.length) return unjudged(`the client registered and used no redirect URI in the ${run.scenario} scenario`);
  return verdictOf(
    run,
    uris.flatMap(({ r, uri, how }): Problem[] => {
      const why = redirectUriProblem(uri);
      return why ? [{ at: r, why: `${label(r)} ${how} redirect URI ${why}` }] : [];
    }),
  );
}

/**
 * CTX-CLI-REDIRECT-URI-SAME: a code exchange that names a redirect_uri names the authorization
 * request's (RFC 6749 §4.1.3). OAuth 2.1 clients may leave it out: not applicable to a client
 * whose exchanges all do.
 */
export function judgeRedirectUriSame(run: ScenarioRun): ClientVerdict {
  const exchanges = codeExchanges(run);
  if (!exchanges.length) return noExchange(run);
  const naming = exchanges.filter((r) => param(r, 'redirect_uri') !== undefined);
  const first = exchanges[0] as SentRequest;
  if (!naming.length) return notApplicable(`the client's code exchanges (${label(first)}) carry no redirect_uri, which OAuth 2.1 clients may leave out`);
  const problems = naming.flatMap((r): Problem[] => {
    const got = param(r, 'redirect_uri');
    const authz = authorizationOf(run, r);
    if (!authz) return [];
    const sent = authz.query.get('redirect_uri');
    if (sent === null) return [{ at: r, why: `${label(r)} carried redirect_uri ${got ?? ''}, though ${label(authz)} sent none` }];
    return got === sent ? [] : [{ at: r, why: `${label(r)} carried redirect_uri ${got ?? ''}, not ${sent} of ${label(authz)}` }];
  });
  return verdictOf(run, problems);
}

/** CTX-CLI-TOKEN-REQUEST: a form POST with grant_type=authorization_code, the code received and client_id. */
export function judgeTokenRequest(run: ScenarioRun): ClientVerdict {
  const exchanges = codeExchanges(run);
  if (!exchanges.length) return noExchange(run);
  const issued = issuedCodes(run);
  const problems = exchanges.flatMap((r): Problem[] => {
    const wrong: string[] = [];
    if (r.method !== 'POST') wrong.push(`is a ${r.method}, not a POST`);
    if (mediaType(r) !== FORM) wrong.push(`is not form-encoded (content-type ${mediaType(r) || 'missing'})`);
    const grant = param(r, 'grant_type');
    if (grant !== 'authorization_code') wrong.push(grant === undefined ? 'carried no grant_type' : `carried grant_type=${grant}, not authorization_code`);
    const code = param(r, 'code');
    if (code === undefined) wrong.push('carried no code');
    else if (!issued.some((c) => c.code === code && c.by.n < r.n)) wrong.push('carried a code no authorization redirect had given it');
    const clientId = param(r, 'client_id') ?? basicClientId(r);
    const authz = authorizationOf(run, r);
    const expected = authz?.query.get('client_id');
    if (clientId === undefined) wrong.push('carried no client_id (a public client names itself with client_id)');
    else if (expected && clientId !== expected) wrong.push(`carried client_id ${clientId}, not ${expected} of ${label(authz as SentRequest)}`);
    return wrong.length ? [{ at: r, why: `${label(r)} ${wrong.join(', ')}` }] : [];
  });
  return verdictOf(run, problems);
}

/** CTX-CLI-CODE-ONCE: the client never sends the same code twice. */
export function judgeCodeOnce(run: ScenarioRun): ClientVerdict {
  const exchanges = codeExchanges(run);
  if (!exchanges.length) return noExchange(run);
  const first = new Map<string, SentRequest>();
  const problems: Problem[] = [];
  for (const r of exchanges) {
    const code = param(r, 'code');
    if (code === undefined) continue;
    const before = first.get(code);
    if (before) problems.push({ at: r, why: `${label(r)} sent again the code ${label(before)} had already sent` });
    else first.set(code, r);
  }
  return problems.length ? verdictOf(run, problems) : PASS;
}
