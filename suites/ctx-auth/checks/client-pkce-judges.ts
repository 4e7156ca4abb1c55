import { createHash } from 'node:crypto';
import { authorizationOf, codeExchanges, label, ofKind, param, silence, type ClientEvidence, type ScenarioRun, type SentRequest } from './client-evidence.js';
import { PASS, fail, unjudged } from '../../../src/engine/checks/contract.js';
import { requestExchange } from './client-hide.js';
import { verdictOf, type ClientVerdict, type Problem } from './client-verdicts.js';

/**
 * Judges of a client's PKCE (spec 000 part C, Authentication 1: PKCE for every client;
 * OAuth 2.1 §4.1.1; RFC 7636 §4.1-4.2 and §4.5).
 */

/** An S256 challenge: BASE64URL(SHA-256(verifier)) without padding, always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: the verifier's characters (unreserved) and length. */
const VERIFIER_CHARS = /^[A-Za-z0-9._~-]+$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** CTX-CLI-PKCE-CHALLENGE: every authorization request carries an S256 code_challenge. */
export function judgePkceChallenge(run: ScenarioRun): ClientVerdict {
  const requests = ofKind(run, 'authorize');
  if (!requests.length) return unjudged(`the client sent no authorization request in the ${run.scenario} scenario`);
  const problems = requests.flatMap((r): Problem[] => {
    const challenge = r.query.get('code_challenge');
    const method = r.query.get('code_challenge_method');
    if (!challenge) return [{ at: r, why: `${label(r)} carried no code_challenge` }];
    if (method === null) return [{ at: r, why: `${label(r)} carried no code_challenge_method (the server then takes the challenge as plain), not S256` }];
    if (method !== 'S256') return [{ at: r, why: `${label(r)} carried code_challenge_method=${method}, not S256` }];
    if (!S256_CHALLENGE.test(challenge)) return [{ at: r, why: `${label(r)} carried a code_challenge of ${challenge.length} characters that is not the 43-character base64url of a SHA-256` }];
    return [];
  });
  return verdictOf(run, problems);
}

/** CTX-CLI-PKCE-VERIFIER: each code exchange carries the verifier of its authorization request's challenge. */
export function judgePkceVerifier(run: ScenarioRun): ClientVerdict {
  const exchanges = codeExchanges(run);
  if (!exchanges.length) return unjudged(`the client exchanged no authorization code in the ${run.scenario} scenario`);
  const findings = exchanges.map((r) => ({ r, why: verifierProblem(run, r) }));
  const judged = findings.filter((f) => f.why !== undefined);
  if (!judged.length) return unjudged(`no code exchange of the ${run.scenario} scenario follows an authorization request with a code_challenge to compare its verifier with`);
  return verdictOf(run, judged.flatMap(({ r, why }) => (why ? [{ at: r, why }] : [])));
}

/**
 * What is wrong with one code exchange's verifier: a message, '' when nothing is, undefined when
 * its authorization request had no challenge to compare with (PKCE-CHALLENGE says what is wrong).
 */
function verifierProblem(run: ScenarioRun, r: SentRequest): string | undefined {
  const verifier = param(r, 'code_verifier');
  if (verifier === undefined) return `${label(r)} carried no code_verifier`;
  if (verifier.length < 43 || verifier.length > 128) return `${label(r)} carried a code_verifier of ${verifier.length} characters (RFC 7636 §4.1: 43 to 128)`;
  if (!VERIFIER_CHARS.test(verifier)) return `${label(r)} carried a code_verifier with characters outside A-Z a-z 0-9 - . _ ~`;
  const authz = authorizationOf(run, r);
  const challenge = authz?.query.get('code_challenge');
  if (!authz || !challenge) return undefined;
  return s256(verifier) === challenge ? '' : `${label(r)} carried a code_verifier whose S256 is not the code_challenge of ${label(authz)}`;
}

/** CTX-CLI-PKCE-FRESH: no two authorization requests, in any of the case's runs, share a challenge. */
export function judgePkceFresh(evidence: ClientEvidence): ClientVerdict {
  const seen = new Map<string, { run: ScenarioRun; r: SentRequest }>();
  const problems: { run: ScenarioRun; r: SentRequest; why: string }[] = [];
  let count = 0;
  for (const run of evidence.runs) {
    for (const r of ofKind(run, 'authorize')) {
      const challenge = r.query.get('code_challenge');
      if (!challenge) continue;
      count++;
      const before = seen.get(challenge);
      if (before) problems.push({ run, r, why: `${run.scenario} scenario ${label(r)} repeats the code_challenge of ${before.run.scenario} scenario ${label(before.r)}: the verifier was not made afresh` });
      else seen.set(challenge, { run, r });
    }
  }
  const scenarios = evidence.runs.map((r) => r.scenario).join(', ');
  if (count < 2) {
    const quiet = evidence.runs.map(silence).filter((s): s is string => s !== undefined);
    return unjudged(`${quiet.length ? `${quiet.join('; ')}; ` : ''}the client sent ${count === 0 ? 'no authorization request' : 'one authorization request'} with a code_challenge in the ${scenarios} scenarios, so nothing shows whether it makes a new verifier each time`);
  }
  const first = problems[0];
  if (!first) return PASS;
  return fail(problems.map((p) => p.why).join('; '), { exchange: requestExchange(first.run, first.r) });
}
