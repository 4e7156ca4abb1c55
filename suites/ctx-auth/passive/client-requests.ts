import { unjudged, type Verdict } from '../../../src/engine/checks/contract.js';
import type { PassiveRule, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import type { RecordedExchange } from '../../../src/targets/har/recording.js';
import { CLIENT_JUDGES, CLIENT_REQUIREMENT_IDS } from '../checks/client-judges.js';
import { METADATA_PATH, codeExchanges, issuedCodes, kindOf, label, ofKind, param, type ClientEvidence, type RequestKind, type ScenarioRun, type SentRequest } from '../checks/client-evidence.js';
import { JUDGED_REVISION } from '../checks/client-evidence.js';
import { acrossRuns, verdictOf } from '../checks/client-verdicts.js';
import { advertisedEndpoints, exchangesOfKind, MASKED } from './recorded.js';

/** The version header's neutral name (a target profile maps it to the target's own). */
const NEUTRAL_VERSION_HEADER = 'CTX-Protocol-Version';
const NEUTRAL_SESSION_HEADER = 'CTX-Session-Id';

/** The server URL of a recording that shows no protected resource (recorded.ts resourcePaths): its path is none a request has. */
const NO_RESOURCE_URL = 'http://recorded.invalid/.no-protected-resource-recorded';

/** Requirements a recording cannot settle: whether the client was given a client ID is not in any request. */
const NOT_RECORDED: Readonly<Record<string, string>> = {
  'CTX-CLI-DCR': 'a recording does not show whether the client was given a client ID (then it need not register), so whether it registers when it must is not shown',
  'CTX-CLI-PRECONFIGURED-CLIENT': 'a recording does not show which client ID, if any, the client was given, so whether it used that one is not shown',
};
/** Requirements judged by comparing authorization codes: not when the recording masks them. */
const BY_CODE = new Set(['CTX-CLI-CODE-ONCE', 'CTX-CLI-STATE-CHECKED']);
/** Requirements judged by comparing tokens: not when the recording masks them. */
const BY_TOKEN = new Set(['CTX-CLI-EXPIRED-RESTART', 'CTX-CLI-REFRESH']);

const MASKED_TOKENS = 'the recording masks the tokens (***), so which token a request carried, and whether a renewal gave a new one, is not shown';

/** One recorded exchange as a request the client sent (what the live judges read). */
function sentRequestOf(r: RecordedExchange, n: number): SentRequest {
  const url = new URL(r.url);
  const answerHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.responseHeaders)) answerHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return { n, method: r.method, path: url.pathname, query: new URLSearchParams(url.searchParams), headers: r.requestHeaders, body: r.requestBody ?? '', status: r.status, answerHeaders, answerBody: r.responseText ?? '' };
}

/**
 * The version header the client used: the neutral name, or the one its metadata requests carry
 * that ends in `-Protocol-Version` (a target's own name, as a profile's `headers:` maps it).
 */
function versionHeaderOf(requests: readonly SentRequest[]): string {
  const discovery = requests.filter((r) => r.path === METADATA_PATH);
  if (!discovery.length || discovery.some((r) => r.headers[NEUTRAL_VERSION_HEADER.toLowerCase()] !== undefined)) return NEUTRAL_VERSION_HEADER;
  const own = discovery.flatMap((r) => Object.keys(r.headers)).find((h) => /(^|-)protocol-version$/i.test(h));
  return own ?? NEUTRAL_VERSION_HEADER;
}

/**
 * The recording as runs of the client, with what its recorded answers show of the server. A
 * resource request without Authorization refused with 401 starts a session ("the server responds
 * with HTTP 401; the client then starts the flow", C Authentication 5): each such request begins
 * a run of its own, so that a recording of several sessions (or clients) is judged session by
 * session, as the live judges judge one launch. Requests keep their place in the recording as
 * their number (`request #n` is entry n-1).
 */
export function recordedRuns(view: PassiveView): { runs: ScenarioRun[]; byN: Map<number, RecordedExchange>; codesMasked: boolean } {
  const byN = new Map<number, RecordedExchange>();
  const requests = view.recording.exchanges.map((r, i) => {
    byN.set(i + 1, r);
    return sentRequestOf(r, i + 1);
  });
  const resources = exchangesOfKind(view, 'resource');
  const starts = new Set(resources.filter((x) => x.recorded.status === 401 && x.recorded.requestHeaders['authorization'] === undefined).map((x) => x.recorded));
  const first = resources[0];
  // with no resource shown, the server URL names a path no recorded request has: none is a resource request
  const serverUrl = first ? `${new URL(first.recorded.url).origin}${new URL(first.recorded.url).pathname}` : NO_RESOURCE_URL;
  const advertised = advertisedEndpoints(view);
  const base = {
    scenario: 'recorded' as const,
    told: { serverUrl, calls: 0, scope: '', versionHeader: versionHeaderOf(requests), sessionHeader: NEUTRAL_SESSION_HEADER },
    end: { stopped: false, summary: `recorded in ${view.recording.file}`, budgetMs: 0, stderrTail: '' },
    ...(advertised ? { endpoints: { authorize: advertised.authorize ?? '/authorize', token: advertised.token ?? '/token', register: advertised.register ?? '/register' } } : {}),
  };
  const whole: ScenarioRun = { ...base, requests };
  const masked = codesMasked(whole);
  if (masked) pairMaskedCodes(whole);
  const runs: ScenarioRun[] = [];
  let current: SentRequest[] = [];
  for (const r of requests) {
    if (starts.has(byN.get(r.n) as RecordedExchange) && current.length) {
      runs.push({ ...base, requests: current });
      current = [];
    }
    current.push(r);
  }
  if (current.length || !runs.length) runs.push({ ...base, requests: current });
  return { runs, byN, codesMasked: masked };
}

/**
 * A masked code (`***`) names no code: each redirect's is given a name of its own, and each code
 * exchange the name of the last redirect before it, the pairing the live judges fall back on
 * when a code matches no redirect (client-evidence.ts authorizationOf). Which code a request
 * carried is still not shown: the requirements that compare codes are not judged then.
 */
function pairMaskedCodes(run: ScenarioRun): void {
  let last: string | undefined;
  for (const r of run.requests) {
    const kind = kindOf(run, r);
    const location = r.answerHeaders['location'];
    if (kind === 'authorize' && location && URL.canParse(location)) {
      const u = new URL(location);
      if (u.searchParams.get('code') === MASKED) {
        last = `masked-code-of-request-${r.n}`;
        u.searchParams.set('code', last);
        r.answerHeaders = { ...r.answerHeaders, location: u.toString() };
      }
    }
    if (kind === 'token' && last !== undefined) {
      const form = new URLSearchParams(r.body);
      if (form.get('code') === MASKED) {
        form.set('code', last);
        r.body = form.toString();
      }
    }
  }
}

/** Whether the recording masks the authorization codes (`code=***` in the redirects or the exchanges). */
function codesMasked(run: ScenarioRun): boolean {
  return issuedCodes(run).some((c) => c.code === MASKED) || codeExchanges(run).some((r) => param(r, 'code') === MASKED);
}

/** Whether the recording masks the tokens (issued ones, or the Authorization header of requests). */
function tokensMasked(run: ScenarioRun): boolean {
  return ofKind(run, 'token').some((r) => r.answerBody.includes(`"${MASKED}"`)) || run.requests.some((r) => r.headers['authorization'] === MASKED);
}

/** CTX-CLI-BEARER-EVERY on a masked recording: every resource request after a token answer carries Authorization (its scheme and value are masked). */
function bearerPresent(run: ScenarioRun): Verdict {
  const issued = ofKind(run, 'token').find((r) => r.status === 200 && /"access_token"\s*:/.test(r.answerBody));
  if (!issued) return unjudged('the client obtained no access token in the recording');
  const after = ofKind(run, 'resource').filter((r) => r.n > issued.n);
  if (!after.length) return unjudged(`the client sent no resource request after ${label(issued)} issued its access token`);
  return verdictOf(run, after.filter((r) => r.headers['authorization'] === undefined).map((r) => ({ at: r, why: `${label(r)} carried no Authorization header; the access token was issued by ${label(issued)} (the recording masks the header's value, so only its presence is judged)` })));
}

/** CTX-CLI-PKCE-VERIFIER on a masked recording: every code exchange carries a code_verifier (its value is masked). */
function verifierPresent(run: ScenarioRun): Verdict {
  const exchanges = codeExchanges(run);
  if (!exchanges.length) return unjudged('the client exchanged no authorization code in the recording');
  return verdictOf(run, exchanges.filter((r) => param(r, 'code_verifier') === undefined).map((r) => ({ at: r, why: `${label(r)} carried no code_verifier (the recording masks the verifiers, so only their presence is judged)` })));
}

/** The verdict of one client requirement on the recorded runs (`run`: all of them as one, for what the recording shows as a whole). */
function judgeOne(id: string, run: ScenarioRun, evidence: ClientEvidence, masked: boolean): Verdict {
  const notRecorded = NOT_RECORDED[id];
  if (notRecorded) return unjudged(notRecorded);
  const metadataAnswers = ofKind(run, 'metadata').filter((r) => r.path === METADATA_PATH && r.status !== 0);
  if (id === 'CTX-CLI-FALLBACK' && (!metadataAnswers.length || metadataAnswers.some((r) => r.status === 200)))
    return unjudged(metadataAnswers.length ? 'the server answered its metadata document, so the fallback paths were not the client\'s to use' : `the recording holds no request for ${METADATA_PATH} at the host root answered 404, so nothing shows the client without metadata`);
  if (id === 'CTX-CLI-METADATA-USED' && !metadataAnswers.some((r) => r.status === 200)) return unjudged('the recording holds no metadata document answered 200 at the host root, so no advertised endpoint');
  if (id === 'CTX-CLI-BEARER-EVERY' && tokensMasked(run)) return acrossRuns(bearerPresent)(evidence);
  if (id === 'CTX-CLI-PKCE-VERIFIER' && codeExchanges(run).some((r) => param(r, 'code_verifier') === MASKED)) return acrossRuns(verifierPresent)(evidence);
  if (BY_TOKEN.has(id) && tokensMasked(run)) return unjudged(MASKED_TOKENS);
  const v = (CLIENT_JUDGES[id] as (e: ClientEvidence) => Verdict)(evidence);
  if (!('ok' in v)) return v;
  if (BY_CODE.has(id) && masked) return unjudged('the recording masks the authorization codes (***), so which code a request carried is not shown');
  return v;
}

/** The kinds of request each client requirement is about: where a failure that names no request is shown. */
export const REQUESTS_ABOUT: Readonly<Record<string, readonly RequestKind[]>> = {
  'CTX-CLI-BASE-URL-ROOT': ['metadata', 'authorize', 'token', 'register'],
  'CTX-CLI-DISCOVERY-FIRST': ['metadata'],
  'CTX-CLI-METADATA-USED': ['authorize', 'token', 'register'],
  'CTX-CLI-FALLBACK': ['authorize', 'token', 'register'],
  'CTX-CLI-VERSION-HEADER': ['metadata'],
  'CTX-CLI-401-STARTS-FLOW': ['resource'],
  'CTX-CLI-PKCE-CHALLENGE': ['authorize'],
  'CTX-CLI-PKCE-VERIFIER': ['token'],
  'CTX-CLI-PKCE-FRESH': ['authorize'],
  'CTX-CLI-STATE-CHECKED': ['authorize'],
  'CTX-CLI-REDIRECT-URI': ['authorize'],
  'CTX-CLI-REDIRECT-URI-SAME': ['token'],
  'CTX-CLI-TOKEN-REQUEST': ['token'],
  'CTX-CLI-CODE-ONCE': ['token'],
  'CTX-CLI-DCR': ['register'],
  'CTX-CLI-DCR-BODY': ['register'],
  'CTX-CLI-PRECONFIGURED-CLIENT': ['authorize'],
  'CTX-CLI-BEARER-EVERY': ['resource'],
  'CTX-CLI-TOKEN-NOT-IN-QUERY': ['resource'],
  'CTX-CLI-EXPIRED-RESTART': ['resource'],
  'CTX-CLI-REFRESH': ['token'],
};

/**
 * The recorded exchange a failure of `requirement` is shown at: the request it names first
 * ("request #4"); else the recording's first request of the kind the requirement is about
 * (REQUESTS_ABOUT); else its first request of any kind of this protocol (what `run` calls other is
 * traffic of no concern to it, such as another service's API or a favicon). Undefined when the
 * recording holds none of these.
 */
export function failedExchange(requirement: string, v: Extract<Verdict, { ok: false }>, run: ScenarioRun, byN: ReadonlyMap<number, RecordedExchange>): RecordedExchange | undefined {
  const n = /request #(\d+)/.exec(v.exchange?.summary ?? v.message)?.[1];
  const named = n !== undefined ? byN.get(Number(n)) : undefined;
  if (named) return named;
  const about = REQUESTS_ABOUT[requirement] ?? [];
  const at = ofKind(run, ...about)[0] ?? run.requests.find((r) => kindOf(run, r) !== 'other');
  return at ? byN.get(at.n) : undefined;
}

function judgeClient(view: PassiveView): PassiveVerdict[] {
  const { runs, byN, codesMasked: masked } = recordedRuns(view);
  const whole: ScenarioRun = { ...(runs[0] as ScenarioRun), requests: runs.flatMap((r) => r.requests) };
  const evidence: ClientEvidence = { runs, revision: JUDGED_REVISION };
  return CLIENT_REQUIREMENT_IDS.map((requirement): PassiveVerdict => {
    const v = whole.requests.length ? judgeOne(requirement, whole, evidence, masked) : unjudged('the recording holds no request');
    if ('ok' in v && v.ok) return { requirement, observations: v.observed ?? 1, findings: [] };
    if ('ok' in v) {
      const recorded = failedExchange(requirement, v, whole, byN) ?? byN.get(1);
      const findings: PassiveRuleFinding[] = recorded ? [{ message: v.message, exchange: { recorded } }] : [];
      return { requirement, observations: 1, findings };
    }
    const lacking = 'unjudged' in v ? v.unjudged : 'notApplicable' in v ? `not applicable: ${v.notApplicable}` : `${v.reason} (${v.blockedBy} does not hold)`;
    return { requirement, observations: 0, findings: [], lacking };
  });
}

/**
 * The client side of a recording (CTX-CLI-*): the judges the client cases apply to a launched
 * client's requests (checks/client-judges.ts), applied to the recorded requests in recording
 * order, session by session (recordedRuns) — discovery first and at the host root, the advertised or fallback endpoints,
 * PKCE S256 and its verifier, redirect URIs, the token request, the Bearer header, no token in
 * a query, a 401 starting the flow. A recording made by `specgate record` masks codes, verifiers
 * and tokens (`***`): then the verifier and the Authorization header are judged by their presence,
 * and what needs their values compared (a code sent twice, a code of a wrong state, a renewed
 * token) is not judged.
 */
export const clientRequests: PassiveRule = {
  description: "the client's recorded requests: discovery first at the host root, advertised or fallback endpoints, PKCE S256 and verifier, redirect URIs, token request, Bearer on resource requests, no token in a query",
  requirements: [...CLIENT_REQUIREMENT_IDS],
  judge: judgeClient,
};
