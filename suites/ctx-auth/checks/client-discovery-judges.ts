import { PASS, blockedBy, fail, unjudged } from '../../../src/engine/checks/contract.js';
import { JUDGED_REVISION, METADATA_PATH, jsonString, kindOf, label, listed, ofKind, resourcePath, type ScenarioRun, type SentRequest } from './client-evidence.js';
import { requestExchange } from './client-hide.js';
import { advertisedPaths } from './client-scenarios.js';
import { notApplicable, verdictOf, type ClientVerdict, type Problem } from './client-verdicts.js';

/**
 * Judges of where a client looks for the authorization server and how it starts the flow
 * (spec 000 part C, Endpoints 1-3, Authentication 2 and 5).
 */

type OAuthKind = 'authorize' | 'token' | 'register';
const DATE_FORM = /^\d{4}-\d{2}-\d{2}$/;

function oauthRequests(run: ScenarioRun): { r: SentRequest; kind: OAuthKind }[] {
  return run.requests.flatMap((r) => {
    const kind = kindOf(run, r);
    return kind === 'authorize' || kind === 'token' || kind === 'register' ? [{ r, kind }] : [];
  });
}

/** Requests for an authorization server's metadata in any form (not the protected-resource document). */
function metadataRequests(run: ScenarioRun): SentRequest[] {
  return run.requests.filter((r) => {
    const kind = kindOf(run, r);
    return kind === 'metadata' || (kind === 'probe' && !r.path.startsWith('/.well-known/oauth-protected-resource'));
  });
}

/** CTX-CLI-BASE-URL-ROOT: metadata and endpoints at the host root, whatever the server URL's path. */
export function judgeBaseUrlRoot(run: ScenarioRun): ClientVerdict {
  const rp = resourcePath(run);
  const advertised = advertisedPaths(run);
  const problems: Problem[] = [];
  let judged = 0;
  for (const r of run.requests) {
    const kind = kindOf(run, r);
    if (kind === 'metadata') {
      judged++;
      if (r.path !== METADATA_PATH) problems.push({ at: r, why: `${label(r)} is not the host root's ${METADATA_PATH} (the authorization base URL is the server URL with its path ${rp} discarded)` });
    } else if (kind === 'authorize' || kind === 'token' || kind === 'register') {
      judged++;
      if (r.path !== `/${kind}` && r.path !== advertised[kind]) problems.push({ at: r, why: `${label(r)} is not the host root's /${kind}${advertised[kind] !== `/${kind}` ? ` nor the advertised ${advertised[kind]}` : ''} (the authorization base URL is the server URL with its path ${rp} discarded)` });
    }
  }
  if (!judged) return unjudged(`the client sent no metadata, authorization, token or registration request in the ${run.scenario} scenario`);
  return verdictOf(run, problems);
}

/** CTX-CLI-DISCOVERY-FIRST: metadata requested before any authorization, token or registration request. */
export function judgeDiscoveryFirst(run: ScenarioRun): ClientVerdict {
  const first = oauthRequests(run)[0];
  const metadata = metadataRequests(run);
  if (!first)
    return unjudged(metadata.length ? `the client requested metadata (${listed(metadata)}) and then sent no authorization, token or registration request, so the order is not shown` : 'the client sent no metadata, authorization, token or registration request');
  if (metadata.some((m) => m.n < first.r.n)) return PASS;
  const later = metadata[0];
  return fail(`${label(first.r)} came before any metadata request (${later ? `the first, ${label(later)}, came after it` : `the client never requested ${METADATA_PATH}`}): clients try metadata discovery first`, { exchange: requestExchange(run, first.r) });
}

/** CTX-CLI-METADATA-USED: the advertised endpoints are used, not the fallback paths. */
export function judgeMetadataUsed(run: ScenarioRun): ClientVerdict {
  const oauth = oauthRequests(run);
  if (!oauth.length) return unjudged(`the client sent no authorization, token or registration request in the ${run.scenario} scenario`);
  const advertised = advertisedPaths(run);
  const doc = ofKind(run, 'metadata').find((r) => r.status === 200);
  // a client that never read the document cannot use what it advertises: the rule that would
  // have had it read the document broke first (it looked elsewhere, or never looked)
  if (!doc) {
    const elsewhere = run.requests.find((r) => r.path.endsWith(METADATA_PATH));
    return elsewhere
      ? blockedBy('CTX-CLI-BASE-URL-ROOT', `the client looked for the metadata at ${elsewhere.path}, not at the host root, and so never read the endpoints it advertises`)
      : blockedBy('CTX-CLI-DISCOVERY-FIRST', `the client never requested the metadata document (${METADATA_PATH}), and so never read the endpoints it advertises`);
  }
  const source = doc ? ` (the metadata of ${label(doc)} advertises it)` : '';
  const problems = oauth
    .filter(({ r, kind }) => r.path !== advertised[kind])
    .map(({ r, kind }): Problem => ({ at: r, why: `${label(r)} is not the advertised ${kind === 'authorize' ? 'authorization' : kind === 'register' ? 'registration' : 'token'}_endpoint ${advertised[kind]}${r.path === `/${kind}` ? ': the client used the fallback path' : ''}${source}` }));
  return verdictOf(run, problems);
}

/** True for a date-form revision later than the one judged. */
export function laterRevision(revision: string): boolean {
  return DATE_FORM.test(revision) && revision > JUDGED_REVISION;
}

/**
 * Why requirement `id` does not apply to a client of `revision`: only the fallback endpoints,
 * which later revisions dropped (they require metadata).
 */
export function notApplicableForRevision(id: string, revision: string): string | undefined {
  if (id !== 'CTX-CLI-FALLBACK' || !laterRevision(revision)) return undefined;
  return `the client implements revision ${revision} (ctx_client_revision), later than ${JUDGED_REVISION}; later revisions require metadata and have no fallback endpoints`;
}

/**
 * CTX-CLI-FALLBACK: with no metadata, the root's /authorize, /token and /register. A client that
 * stops once discovery finds nothing follows a later revision's rule: said as a revision
 * mismatch, and not applicable when the profile declares that revision.
 */
export function judgeFallback(run: ScenarioRun, evidence: { revision: string }): ClientVerdict {
  const moot = notApplicableForRevision('CTX-CLI-FALLBACK', evidence.revision);
  if (moot) return notApplicable(moot);
  const oauth = oauthRequests(run);
  if (!oauth.length) {
    const discovery = run.requests.filter((r) => ['metadata', 'probe'].includes(kindOf(run, r)));
    if (!discovery.length)
      return fail(`with no metadata, the client sent no request to the fallback endpoints /authorize, /token or /register (it sent only ${listed(run.requests)})`, { exchange: requestExchange(run, run.requests[0] as SentRequest) });
    return fail(
      `revision mismatch: with no metadata (${listed(discovery)}), the client stopped and sent no request to the fallback endpoints /authorize, /token or /register at the host root; revision ${JUDGED_REVISION} has clients use them when the server has no metadata (C Endpoints 2). Later revisions dropped the fallbacks and require metadata: if the client implements one of them, set ctx_client_revision to it and this requirement is not applicable; a client of this revision (or a general OAuth library) without fallback support breaks it`,
      { exchange: requestExchange(run, discovery[discovery.length - 1] as SentRequest) },
    );
  }
  const problems = oauth.filter(({ r, kind }) => r.path !== `/${kind}`).map(({ r, kind }): Problem => ({ at: r, why: `${label(r)} is not the fallback /${kind} at the host root (the server has no metadata)` }));
  return verdictOf(run, problems);
}

/** CTX-CLI-VERSION-HEADER: metadata discovery sends the protocol version header with the revision. */
export function judgeVersionHeader(run: ScenarioRun, evidence: { revision: string }): ClientVerdict {
  const docs = ofKind(run, 'metadata');
  if (!docs.length) return unjudged(`the client requested no metadata document (${METADATA_PATH}) in the ${run.scenario} scenario`);
  const name = run.told.versionHeader;
  const accepted = [JUDGED_REVISION, ...(laterRevision(evidence.revision) ? [evidence.revision] : [])];
  const problems = docs.flatMap((r): Problem[] => {
    const value = r.headers[name.toLowerCase()]?.trim();
    if (value === undefined) return [{ at: r, why: `${label(r)} carried no ${name} header` }];
    if (!DATE_FORM.test(value)) return [{ at: r, why: `${label(r)} carried ${name}: "${value}", not a date-form version` }];
    if (!accepted.includes(value))
      return [{ at: r, why: `${label(r)} carried ${name}: ${value}, not ${accepted.join(' or ')}${accepted.length === 1 && value > JUDGED_REVISION ? ' (if the client implements that later revision, set ctx_client_revision to it)' : ''}` }];
    return [];
  });
  return verdictOf(run, problems);
}

/**
 * CTX-CLI-401-STARTS-FLOW: after a 401 from the resource, the client's next requests are
 * discovery (and registration) and then the authorization request.
 */
export function judge401StartsFlow(run: ScenarioRun): ClientVerdict {
  const resources = ofKind(run, 'resource');
  const refused = resources.find((r) => r.status === 401);
  if (!refused)
    return unjudged(`no resource request of the client was answered 401 in the ${run.scenario} scenario (${resources.length ? 'its first one already carried a valid token' : 'it sent no resource request'}), so nothing shows how it reacts to one`);
  const after = run.requests.filter((r) => r.n > refused.n);
  const authz = after.find((r) => kindOf(run, r) === 'authorize');
  const challenge = refused.answerHeaders['www-authenticate'];
  const answered = `${label(refused)} was answered 401${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}`;
  const FLOW_START = ['metadata', 'probe', 'register', 'other'];
  // the client did start the flow, and the server refused a step of it before authorization:
  // why is for the requirement of that step (where it looked, what it registered) to say
  const last = after[after.length - 1];
  if (!authz && last && last.status >= 400 && after.every((r) => FLOW_START.includes(kindOf(run, r))))
    return unjudged(`${answered}; the client started the flow (${listed(after)}) and stopped when ${label(last)} was refused (${last.status}), before any authorization request, so nothing shows the flow reaching authorization`);
  if (!authz) return fail(`${answered} and the client started no authorization after it (${after.length ? `it went on with ${listed(after)}` : 'it sent nothing more'})`, { exchange: requestExchange(run, refused) });
  const astray = after.filter((r) => r.n < authz.n && !FLOW_START.includes(kindOf(run, r)));
  const first = astray[0];
  if (first) return fail(`${answered}, and before its authorization request (${label(authz)}) the client sent ${listed(astray)} instead of starting the flow`, { exchange: requestExchange(run, first) });
  return PASS;
}

/** The metadata answer's registration_endpoint, when a metadata request got one. */
export function advertisedRegistration(run: ScenarioRun): { doc: SentRequest; endpoint: string } | undefined {
  for (const doc of ofKind(run, 'metadata')) {
    const endpoint = doc.status === 200 ? jsonString(doc.answerBody, 'registration_endpoint') : undefined;
    if (endpoint) return { doc, endpoint };
  }
  return undefined;
}
