import { PASS, fail, unjudged } from '../../../src/engine/checks/contract.js';
import { basicClientId, jsonField, jsonOf, jsonString, label, ofKind, param, type ScenarioRun, type SentRequest } from './client-evidence.js';
import { advertisedRegistration } from './client-discovery-judges.js';
import { requestExchange } from './client-hide.js';
import { verdictOf, type ClientVerdict, type Problem } from './client-verdicts.js';

/**
 * Judges of how a client gets its client ID: dynamic registration when the server offers it
 * (spec 000 part C, Authentication 3 and 10; RFC 7591 §2, §3.1), the ID it was given otherwise.
 */

/** CTX-CLI-DCR: with registration offered and no client given, the client registers before authorizing. */
export function judgeDcr(run: ScenarioRun): ClientVerdict {
  if (run.told.clientId !== undefined) return unjudged(`the client was given a client ID in the ${run.scenario} scenario, so it had no need to register`);
  const first = ofKind(run, 'authorize')[0];
  const registrations = ofKind(run, 'register');
  if (!first) return registrations.length ? PASS : unjudged(`the client sent no registration or authorization request in the ${run.scenario} scenario`);
  if (registrations.some((r) => r.n < first.n)) return PASS;
  const advertised = advertisedRegistration(run);
  const offer = advertised ? `the metadata of ${label(advertised.doc)} advertises registration_endpoint ${advertised.endpoint}` : 'the server offers POST /register at the host root';
  return fail(`${label(first)} came without any registration before it, though ${offer} and the client was given no client ID`, { exchange: requestExchange(run, first) });
}

/** CTX-CLI-DCR-BODY: a JSON POST with redirect_uris, among them the redirect URI used later. */
export function judgeDcrBody(run: ScenarioRun): ClientVerdict {
  const registrations = ofKind(run, 'register');
  if (!registrations.length) return unjudged(`the client sent no registration request in the ${run.scenario} scenario`);
  const problems = registrations.flatMap((r): Problem[] => {
    const type = (r.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (r.method !== 'POST') return [{ at: r, why: `${label(r)} is a ${r.method}, not a POST` }];
    if (type !== 'application/json') return [{ at: r, why: `${label(r)} is not JSON (content-type ${type || 'missing'})` }];
    const body = jsonOf(r.body);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return [{ at: r, why: `${label(r)} has a body that is not a JSON object` }];
    const uris = jsonField(r.body, 'redirect_uris');
    if (!Array.isArray(uris) || !uris.length || !uris.every((u) => typeof u === 'string'))
      return [{ at: r, why: `${label(r)} carried ${uris === undefined ? 'no redirect_uris' : 'redirect_uris that is not a non-empty array of strings'}` }];
    return laterUse(run, r, uris as string[]);
  });
  return verdictOf(run, problems);
}

/** The authorization requests made with the client this registration got, whose redirect_uri it did not register. */
function laterUse(run: ScenarioRun, registration: SentRequest, uris: readonly string[]): Problem[] {
  const registrations = ofKind(run, 'register');
  const issued = jsonString(registration.answerBody, 'client_id');
  const next = registrations.find((r) => r.n > registration.n);
  return ofKind(run, 'authorize')
    .filter((a) => a.n > registration.n && (issued ? a.query.get('client_id') === issued : !next || a.n < next.n))
    .flatMap((a): Problem[] => {
      const used = a.query.get('redirect_uri');
      return used && !uris.includes(used) ? [{ at: a, why: `the redirect_uri ${used} of ${label(a)} is not among the redirect_uris ${label(registration)} registered` }] : [];
    });
}

/** CTX-CLI-PRECONFIGURED-CLIENT: without registration, the client uses the client ID it was given. */
export function judgePreconfiguredClient(run: ScenarioRun): ClientVerdict {
  const given = run.told.clientId;
  if (given === undefined) return unjudged(`the client was given no client ID in the ${run.scenario} scenario`);
  const authz = ofKind(run, 'authorize');
  const registrations = ofKind(run, 'register');
  if (!authz.length && !registrations.length) return unjudged(`the client sent no authorization request in the ${run.scenario} scenario`);
  const problems: Problem[] = registrations.map((r) => ({ at: r, why: `${label(r)} -> ${r.status} tried to register, though the client was given a client ID (${given}) and the server offers no registration` }));
  for (const r of authz) {
    const used = r.query.get('client_id');
    if (used !== given) problems.push({ at: r, why: `${label(r)} used ${used === null ? 'no client_id' : `client_id ${used}`}, not the client ID it was given (${given})` });
  }
  for (const r of ofKind(run, 'token')) {
    const used = param(r, 'client_id') ?? basicClientId(r);
    if (used !== undefined && used !== given) problems.push({ at: r, why: `${label(r)} named client_id ${used}, not the client ID it was given (${given})` });
  }
  return verdictOf(run, problems);
}
