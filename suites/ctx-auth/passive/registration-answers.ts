import type { MatchedExchange, PassiveRule, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import { redirectUriProblem } from '../checks/client-code-judges.js';
import { answerJson, exchangesOfKind, field, isObject, requestJson, verdict } from './recorded.js';

/** RFC 7591 section 3.2.2: the errors of a refused registration this suite's requirement names. */
const REGISTRATION_ERRORS = ['invalid_client_metadata', 'invalid_redirect_uri'];

/** What a registration request's redirect_uris are: valid (RFC 7591 and C, Authentication 8), invalid (RFC 7591 section 2), or neither for sure. */
function redirectUrisOf(x: MatchedExchange): { kind: 'valid'; uris: string[] } | { kind: 'invalid'; why: string } | { kind: 'other' } {
  const body = requestJson(x);
  if (!isObject(body)) return { kind: 'other' };
  const uris = body['redirect_uris'];
  if (uris === undefined) return { kind: 'invalid', why: 'without redirect_uris' };
  if (!Array.isArray(uris)) return { kind: 'invalid', why: 'whose redirect_uris is not an array' };
  const bad = uris.find((u) => typeof u !== 'string' || !URL.canParse(u));
  if (bad !== undefined) return { kind: 'invalid', why: `whose redirect_uris hold ${JSON.stringify(bad)}, not an absolute URI` };
  // a loopback-less http URI is refused under its own requirement (CTX-SRV-REDIRECT-SCHEME): neither here
  if (!uris.length || uris.some((u) => redirectUriProblem(u as string) !== undefined)) return { kind: 'other' };
  return { kind: 'valid', uris: uris as string[] };
}

function judgeRegistrations(view: PassiveView): PassiveVerdict[] {
  const all = exchangesOfKind(view, 'register').map((x) => ({ x, r: redirectUrisOf(x) }));
  // a valid request may still be refused for metadata of its own (a grant type the server does not
  // offer): what a recording settles is the shape of what the server registered
  const accepted = all.filter(({ x, r }) => r.kind === 'valid' && x.recorded.status >= 200 && x.recorded.status < 300);
  const valid: PassiveRuleFinding[] = accepted.flatMap(({ x, r }) => {
    const sent = r.kind === 'valid' ? r.uris : [];
    const body = answerJson(x);
    const problems: string[] = [];
    if (x.recorded.status !== 201) problems.push(`its status is ${x.recorded.status}, not 201`);
    if (!isObject(body)) problems.push('its body is not a JSON object');
    else {
      if (typeof body['client_id'] !== 'string' || body['client_id'] === '') problems.push('it has no client_id');
      const back = body['redirect_uris'];
      if (!Array.isArray(back) || sent.some((u) => !back.includes(u))) problems.push('its redirect_uris are not the ones registered');
    }
    return problems.length ? [{ message: `the registration answer: ${problems.join('; ')}`, exchange: x }] : [];
  });
  const refusedOnes = all.filter(({ x, r }) => r.kind === 'invalid' && x.recorded.status !== 0);
  const invalid: PassiveRuleFinding[] = refusedOnes.flatMap(({ x, r }) => {
    const error = field(answerJson(x), 'error');
    if (x.recorded.status === 400 && typeof error === 'string' && REGISTRATION_ERRORS.includes(error)) return [];
    const why = r.kind === 'invalid' ? r.why : '';
    return [{ message: `a registration ${why} was answered ${x.recorded.status}${error !== undefined ? ` with error ${JSON.stringify(error)}` : ''}, not 400 with ${REGISTRATION_ERRORS.join(' or ')}`, expected: { status: 400, error: REGISTRATION_ERRORS }, actual: { status: x.recorded.status, error: error ?? null }, exchange: x }];
  });
  return [
    verdict('CTX-SRV-DCR-VALID', accepted.length, valid, 'the recording holds no registration with valid redirect_uris that the server accepted'),
    verdict('CTX-SRV-DCR-INVALID', refusedOnes.length, invalid, 'the recording holds no registration with missing or malformed redirect_uris'),
  ];
}

/**
 * The registration endpoint's answers (C, Authentication 3; RFC 7591 sections 3.2.1 and 3.2.2):
 * an accepted registration of valid redirect URIs is a 201 with client_id and the redirect_uris
 * registered; a registration without redirect_uris, or with one that is no absolute URI, is
 * refused 400 with invalid_client_metadata or invalid_redirect_uri.
 */
export const registrationAnswers: PassiveRule = {
  description: 'recorded registrations: valid ones accepted 201 with client_id and their redirect_uris; those with missing or malformed redirect_uris refused 400 with invalid_client_metadata or invalid_redirect_uri',
  requirements: ['CTX-SRV-DCR-VALID', 'CTX-SRV-DCR-INVALID'],
  judge: judgeRegistrations,
};
