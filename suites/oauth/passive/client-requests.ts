import type { PassiveRule, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import type { Judge, Verdict } from '../../../src/engine/checks/contract.js';
import { unjudged, PASS } from '../../../src/engine/checks/contract.js';
import type { RecordedExchange } from '../../../src/targets/har/recording.js';
import type { ObservedRequest } from '../../../reference/oauth/server/observation.js';
import type { ClientEnv } from '../../../reference/oauth/client/contract.js';
import { judgeBearer, judgeRevalidateUser, type ApiView } from '../checks/client-api-judges.js';
import { issuedCodes, type DeviceRun } from '../checks/client-device-run.js';
import { DEVICE_JUDGES, type DeviceJudgeArgs } from '../checks/client-device-judges.js';
import { API_PREFIX, authorization, DEVICE_CODE_PATH, responseFields, TOKEN_PATH } from '../checks/client-log.js';
import { judgeHttpMethod } from '../checks/client-method-judges.js';
import { judgeStateUnguessable } from '../checks/client-state-judges.js';
import { WEB_JUDGES } from '../checks/client-web-judges.js';
import type { WebRun } from '../checks/client-web-run.js';
import { authorizationRounds } from './authorize-redirects.js';
import { anchorOf, deviceAnchor, namingWebEarlier, stateAnchor, type Anchor, type Sent } from './client-anchors.js';
import { deviceChains, masked, MASKED, OP, sentAt, sentParams } from './recorded.js';

/**
 * What a recording cannot show of the client, by requirement: these are judged live only.
 * Everything else the live client judges decide (checks/client-*-judges.ts) is judged here on
 * the recorded requests.
 */
export const CLIENT_LIVE_ONLY: Readonly<Record<string, string>> = {
  'OAUTH-CLIENT-SHOW-USER-CODE': 'what the client shows its user is on its screen, not in its requests',
  'OAUTH-CLIENT-STATE-ABORT': 'a redirect with another state than the one sent is the harness\'s own making',
};

/** Requirements judged by more than one flow's judges: each flow's verdicts are added up. */
const SHARED = new Set(['OAUTH-CLIENT-HTTP-METHOD', 'OAUTH-CLIENT-REVALIDATE-USER', 'OAUTH-CLIENT-BEARER']);

/** The live judges' path of each operation the client calls itself ({api_url} is `/api` to them). */
const JUDGES_PATH: Readonly<Record<string, string>> = { [OP.token]: TOKEN_PATH, [OP.deviceCode]: DEVICE_CODE_PATH, [OP.user]: `${API_PREFIX}/user` };

/**
 * The client's recorded requests: those whose path is the token endpoint's, the device code
 * endpoint's or the user's, whatever their method (a request with the wrong method fits no
 * operation, and is OAUTH-CLIENT-HTTP-METHOD's to judge).
 */
function clientRequests(view: PassiveView): Sent[] {
  const ops = view.table.operations.filter((o) => JUDGES_PATH[o.id] !== undefined);
  const out: Sent[] = [];
  for (const r of view.recording.exchanges) {
    const at = sentAt({ recorded: r });
    if (at === undefined || r.status === 0 || !URL.canParse(r.url)) continue;
    const u = new URL(r.url);
    const op = ops.find((o) => u.pathname === o.path || u.pathname.endsWith(o.path));
    if (!op) continue;
    out.push({
      recorded: r,
      e: { seq: r.index, at, method: r.method, path: JUDGES_PATH[op.id] ?? u.pathname, query: Object.fromEntries(u.searchParams), headers: r.requestHeaders, params: sentParams(r), status: r.status, response: r.responseText ?? '' },
    });
  }
  return out;
}

/** A live judge's verdict as the passive rule reports it; `locate` finds the exchange of a failure shown over several requests (a timeline). */
function asPassive(requirement: string, v: Verdict, sent: readonly Sent[], t0: number, fallback: RecordedExchange, locate?: () => Anchor | undefined): PassiveVerdict {
  if ('ok' in v && v.ok) return { requirement, observations: v.observed ?? 1, findings: [] };
  if ('ok' in v) {
    const at = anchorOf(v, sent, t0, fallback, locate);
    return { requirement, observations: 1, findings: [{ message: at.earlier ? `${v.message} (${at.earlier})` : v.message, ...(v.expected !== undefined ? { expected: v.expected } : {}), ...(v.actual !== undefined ? { actual: v.actual } : {}), exchange: { recorded: at.recorded } }] };
  }
  const why = 'unjudged' in v ? v.unjudged : 'notApplicable' in v ? v.notApplicable : v.reason;
  return { requirement, observations: 0, findings: [], lacking: why };
}

const none = (requirement: string, lacking: string): PassiveVerdict => ({ requirement, observations: 0, findings: [], lacking });

const envOf = (clientId: string, scope: string): ClientEnv => ({ flow: 'web', authUrl: '', apiUrl: '', clientId, clientSecret: MASKED, callbackUrl: '', scope });

// ------------------------------------------------------------------ the web flow
/** Web-flow judges a recording cannot feed as they stand, with the reason or a judge of its own. */
function webVerdicts(view: PassiveView, sent: readonly Sent[], t0: number): PassiveVerdict[] {
  const rounds = authorizationRounds(view);
  const exchanges = sent.filter((s) => s.e.path === TOKEN_PATH && s.e.method === 'POST' && s.e.params['grant_type'] === undefined && s.e.params['code'] !== undefined);
  const out: PassiveVerdict[] = [];
  const runs: WebRun[] = rounds.map((round, i) => {
    const next = rounds[i + 1]?.redirect.index ?? Number.POSITIVE_INFINITY;
    const requests = sent.filter((s) => s.recorded.index > round.redirect.index && s.recorded.index < next && !(s.e.path === TOKEN_PATH && s.e.params['grant_type'] !== undefined)).map((s) => s.e);
    const authorizeUrl = new URL(round.request.url);
    const granted = requests.find((e) => e.path === TOKEN_PATH && e.status === 200 && responseFields(e.response)['access_token'] !== undefined);
    return { env: envOf(granted?.params['client_id'] ?? '', authorizeUrl.searchParams.get('scope') ?? ''), t0, authorizeUrl, redirect: round.location, delivered: { url: round.location.toString(), status: 200 }, requests, exit: undefined, stopped: false, stdout: '', stderr: '' };
  });
  const judgeEach = (requirement: string, judge: (run: WebRun, i: number) => Verdict): void => {
    if (!runs.length) return void out.push(none(requirement, 'the recording holds no authorization request answered by a redirect back to the application'));
    runs.forEach((run, i) => {
      const round = rounds[i] as (typeof rounds)[number];
      out.push(namingWebEarlier(requirement, asPassive(requirement, judge(run, i), sent, t0, round.request), round));
    });
  };
  for (const [requirement, judge] of Object.entries(WEB_JUDGES)) {
    if (SHARED.has(requirement)) continue;
    if (requirement === 'OAUTH-CLIENT-SECRET') continue;
    judgeEach(requirement, (run) => {
      if (requirement === 'OAUTH-CLIENT-AUTHZ-CLIENT-ID' && !run.env.clientId) return unjudged('no code exchange after the authorization got a token, so which application is registered is not known');
      if (requirement === 'OAUTH-CLIENT-EXCHANGE-CODE' && (masked(run.redirect?.searchParams.get('code') ?? undefined) || run.requests.some((e) => masked(e.params['code'])))) return unjudged('the recording masks the authorization code (***), so the code exchanged cannot be compared with the one delivered');
      if (requirement === 'OAUTH-CLIENT-PKCE-VERIFIER-MATCH' && run.requests.some((e) => masked(e.params['code_verifier']))) return unjudged('the recording masks code_verifier (***), so its S256 cannot be compared with the challenge');
      return (judge as Judge<WebRun>)(run, undefined);
    });
  }
  out.push(...clientSecret(exchanges));
  out.push(...stateVerdicts(runs, rounds.map((r) => r.request)));
  return out;
}

/** OAUTH-CLIENT-SECRET from a recording: every code exchange carries client_id and client_secret parameters (their values masked or not). */
function clientSecret(exchanges: readonly Sent[]): PassiveVerdict[] {
  if (!exchanges.length) return [none('OAUTH-CLIENT-SECRET', 'the recording holds no code exchange')];
  const findings: PassiveRuleFinding[] = exchanges.flatMap((s) => {
    if (s.e.params['client_id'] && s.e.params['client_secret']) return [];
    const basic = authorization(s.e)?.scheme.toLowerCase() === 'basic';
    return [{ message: `the code exchange does not identify the application with the client_id and client_secret parameters${basic ? ' (it sent HTTP Basic authentication instead, which the spec does not name)' : ''}`, expected: { client_id: '<client ID>', client_secret: '<client secret>' }, actual: { client_id: s.e.params['client_id'] ?? null, client_secret: s.e.params['client_secret'] === undefined ? null : '<present>' }, exchange: s }];
  });
  return [{ requirement: 'OAUTH-CLIENT-SECRET', observations: exchanges.length, findings }];
}

/** OAUTH-CLIENT-STATE: every authorization request sends state; with two or more, the live judge of unguessable values. */
function stateVerdicts(runs: readonly WebRun[], requests: readonly RecordedExchange[]): PassiveVerdict[] {
  const without = runs.findIndex((r) => !r.authorizeUrl?.searchParams.get('state'));
  if (without >= 0) {
    const recorded = requests[without] as RecordedExchange;
    return [{ requirement: 'OAUTH-CLIENT-STATE', observations: 1, findings: [{ message: 'the authorization request carries no state', expected: 'state=<unguessable random string>', actual: recorded.url, exchange: { recorded } }] }];
  }
  if (runs.length < 2) return [none('OAUTH-CLIENT-STATE', runs.length ? 'the recording holds one authorization request: whether state is random needs two' : 'the recording holds no authorization request answered by a redirect back to the application')];
  return [asPassive('OAUTH-CLIENT-STATE', judgeStateUnguessable(runs), [], 0, requests[0] as RecordedExchange, () => stateAnchor(runs, requests))];
}

// ------------------------------------------------------------------ the device flow
/**
 * One device run per application that got device codes, as the live device judges read one:
 * the device code requests and the polls of their codes. A recorder masks device codes: each
 * masked code is named after the answer that issued it, and its polls with it, as the
 * device chains link them.
 */
function deviceRuns(view: PassiveView, sent: readonly Sent[], t0: number): { run: DeviceRun; sent: Sent[] }[] {
  const bySeq = new Map(sent.map((s) => [s.e.seq, s]));
  const byClient = new Map<string, { run: DeviceRun; sent: Sent[] }>();
  const ends = sent.length ? Math.max(...sent.map((s) => s.e.at)) : t0;
  for (const chain of deviceChains(view)) {
    if (!chain.issue) continue;
    const issue = bySeq.get(chain.issue.recorded.index);
    if (!issue) continue;
    const code = responseFields(issue.e.response)['device_code'] ?? '';
    const name = masked(code) ? `masked-device-code-of-entry-${issue.e.seq}` : code;
    const rename = (s: Sent): Sent => (masked(code) ? { ...s, e: { ...s.e, params: { ...s.e.params, device_code: name }, response: s.e === issue.e ? s.e.response.replace(/\*\*\*/, name) : s.e.response } } : s);
    const key = chain.clientId ?? '';
    const group = byClient.get(key) ?? { run: { env: { ...envOf(key, sentParams(chain.issue.recorded)['scope'] ?? ''), flow: 'device' }, t0, requests: [], issued: [], actions: [], unseenCodes: [], exit: undefined, stopped: false, endedAt: ends, ended: 'the recording ends', endKind: 'budget', stdout: '', stderr: '' }, sent: [] };
    byClient.set(key, group);
    group.sent.push(rename(issue), ...chain.polls.flatMap((p) => (bySeq.get(p.recorded.index) ? [rename(bySeq.get(p.recorded.index) as Sent)] : [])));
  }
  // device code requests that got no code are requests of the flow too (secret, scope)
  for (const s of sent) if (s.e.path === DEVICE_CODE_PATH && s.e.method === 'POST' && s.e.status !== 200) byClient.get(s.e.params['client_id'] ?? '')?.sent.push(s);
  return [...byClient.values()].map((g) => {
    g.sent.sort((a, b) => a.e.seq - b.e.seq);
    g.run.requests = g.sent.map((s) => s.e);
    g.run.issued = issuedCodes(g.run.requests);
    return g;
  });
}

function deviceVerdicts(view: PassiveView, sent: readonly Sent[], t0: number): PassiveVerdict[] {
  const runs = deviceRuns(view, sent, t0);
  const out: PassiveVerdict[] = [];
  const answered = (run: DeviceRun, error: string): boolean => run.requests.some((e) => responseFields(e.response)['error'] === error);
  for (const [requirement, judge] of Object.entries(DEVICE_JUDGES)) {
    if (SHARED.has(requirement) || CLIENT_LIVE_ONLY[requirement]) continue;
    if (!runs.length) {
      out.push(none(requirement, 'the recording holds no device authorization answered with a device code'));
      continue;
    }
    const judgeRun = (run: DeviceRun): Verdict => {
      if (requirement === 'OAUTH-CLIENT-POLL-STOP' && !answered(run, 'expired_token')) return unjudged('no poll was answered expired_token, and a recording cannot tell a client that gave up from one whose recording ended');
      if (requirement === 'OAUTH-CLIENT-DEVICE-RESTART') return deviceRestart(run, answered(run, 'expired_token'));
      return (judge as Judge<DeviceRun, DeviceJudgeArgs>)(run, requirement === 'OAUTH-CLIENT-POLL-STOP' ? { expect: 'expired_token' } : {});
    };
    for (const { run, sent: mine } of runs) out.push(asPassive(requirement, judgeRun(run), mine, t0, (mine[0] as Sent).recorded, () => deviceAnchor(requirement, run, mine, judgeRun)));
  }
  return out;
}

/** OAUTH-CLIENT-DEVICE-RESTART, judged only when the recording shows a new device code request after expired_token (one that ends first cannot tell "ended the flow" from "recording stopped"). */
function deviceRestart(run: DeviceRun, expired: boolean): Verdict {
  if (!expired) return unjudged(`the platform never answered expired_token (${run.ended})`);
  const at = run.requests.findIndex((e) => responseFields(e.response)['error'] === 'expired_token');
  if (!run.requests.slice(at + 1).some((e) => e.path === DEVICE_CODE_PATH)) return unjudged('no device code request follows expired_token in the recording: a client that ended the flow and a recording that stopped look the same');
  return DEVICE_JUDGES['OAUTH-CLIENT-DEVICE-RESTART']?.(run, {}) ?? PASS;
}

// ------------------------------------------------------------------ both flows
function sharedVerdicts(sent: readonly Sent[], t0: number): PassiveVerdict[] {
  const fallback = sent[0]?.recorded;
  if (!fallback) return [...SHARED].map((id) => none(id, 'the recording holds no request to the token endpoint, the device code endpoint or GET {api_url}/user'));
  const view: ApiView = { requests: sent.map((s) => s.e), t0 };
  const maskedAuth = sent.filter((s) => s.e.path === `${API_PREFIX}/user` && masked(s.e.headers['authorization']));
  const bearer: Verdict = maskedAuth.length ? (maskedAuth.length === sent.filter((s) => s.e.path.startsWith(API_PREFIX)).length ? unjudged('the recording masks the Authorization header whole (***), scheme too, so how the token was presented cannot be read') : judgeBearer({ ...view, requests: view.requests.filter((e) => !maskedAuth.some((s) => s.e === e)) })) : judgeBearer(view);
  return [asPassive('OAUTH-CLIENT-HTTP-METHOD', judgeHttpMethod(view), sent, t0, fallback), asPassive('OAUTH-CLIENT-REVALIDATE-USER', judgeRevalidateUser(view), sent, t0, fallback), asPassive('OAUTH-CLIENT-BEARER', bearer, sent, t0, fallback)];
}

function judgeClient(view: PassiveView): PassiveVerdict[] {
  const sent = clientRequests(view);
  const t0 = sent[0]?.e.at ?? 0;
  return merged([...webVerdicts(view, sent, t0), ...deviceVerdicts(view, sent, t0), ...sharedVerdicts(sent, t0)]);
}

/** One verdict per requirement: the observations of every run added up, their findings together, what is lacking only when nothing was judged. */
function merged(verdicts: readonly PassiveVerdict[]): PassiveVerdict[] {
  const by = new Map<string, PassiveVerdict>();
  for (const v of verdicts) {
    const seen = by.get(v.requirement);
    if (!seen) by.set(v.requirement, { ...v, findings: [...v.findings] });
    else {
      seen.observations += v.observations;
      seen.findings.push(...v.findings);
      seen.lacking ??= v.lacking;
    }
  }
  return [...by.values()].map(({ lacking, ...v }) => (v.observations === 0 && !v.findings.length && lacking !== undefined ? { ...v, lacking } : v));
}

/** The live client judges' requirements a recording can settle. */
const JUDGED = [...new Set([...Object.keys(WEB_JUDGES), ...Object.keys(DEVICE_JUDGES), 'OAUTH-CLIENT-STATE'])].filter((id) => CLIENT_LIVE_ONLY[id] === undefined);

/**
 * The client side of a recording (OAUTH-CLIENT-*): the live client judges
 * (checks/client-*-judges.ts) over the recorded requests — the authorization request (when the
 * user's browser went through the recorder) and the redirect that answered it, the code
 * exchange, the device code requests and polls with their recorded times, GET {api_url}/user.
 * What a recorder masks (codes, verifiers, the Authorization header) leaves the requirements that
 * compare those values untested, saying so.
 */
export const clientRequestsRule: PassiveRule = {
  description: "the client's recorded requests: authorization request, state, PKCE, code exchange, device polls and their intervals, scopes, methods, the token on GET {api_url}/user",
  requirements: JUDGED,
  judge: judgeClient,
};
