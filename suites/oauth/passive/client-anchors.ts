import type { PassiveVerdict } from '../../../src/engine/suite-module.js';
import type { Verdict } from '../../../src/engine/checks/contract.js';
import type { RecordedExchange } from '../../../src/targets/har/recording.js';
import type { ObservedRequest } from '../../../reference/oauth/server/observation.js';
import { issuedCodes, type DeviceRun } from '../checks/client-device-run.js';
import { isTokenRequest, toExchange } from '../checks/client-log.js';
import type { WebRun } from '../checks/client-web-run.js';
import type { AuthorizationRound } from './authorize-redirects.js';

/**
 * Which recorded exchange a finding of the client-requests rule names: the live client judges
 * report some failures on one request, others over a timeline (the polls of a device code) or
 * over several launches; a recording's report names the one exchange that shows the deviation,
 * and the earlier one it is judged against by its entry.
 */

/** A recorded request to an endpoint the client calls itself, as the live judges read one, with the recorded exchange it came from. */
export interface Sent {
  e: ObservedRequest;
  recorded: RecordedExchange;
}

/**
 * Where a live judge's failure shows in the recording: the recorded exchange, and, when the
 * deviation is between it and an earlier request (a poll too soon after the previous one), what
 * that earlier request is, by its entry.
 */
export interface Anchor {
  recorded: RecordedExchange;
  earlier?: string;
}

/** The recorded exchange a live judge's failure points at: the request whose report exchange it is, else what `locate` finds, else `fallback`. */
export function anchorOf(v: Extract<Verdict, { ok: false }>, sent: readonly Sent[], t0: number, fallback: RecordedExchange, locate?: () => Anchor | undefined): Anchor {
  const shown = v.exchange ? JSON.stringify(v.exchange) : undefined;
  const named = sent.find((s) => shown !== undefined && JSON.stringify(toExchange(s.e, t0)) === shown)?.recorded;
  return named ? { recorded: named } : (locate?.() ?? { recorded: fallback });
}

/** Web-flow requirements that judge the code exchange against an earlier exchange of its flow: the redirect that delivered the code, or the authorization request. */
const WEB_EARLIER: Readonly<Record<string, 'redirect' | 'request'>> = {
  'OAUTH-CLIENT-EXCHANGE-CODE': 'redirect',
  'OAUTH-CLIENT-REDIRECT-URI': 'request',
  'OAUTH-CLIENT-PKCE-VERIFIER-REQUIRED': 'request',
  'OAUTH-CLIENT-PKCE-VERIFIER-MATCH': 'request',
};

/** A web-flow verdict whose findings on the code exchange name, by entry, the earlier exchange of the flow it is judged against. */
export function namingWebEarlier(requirement: string, v: PassiveVerdict, round: AuthorizationRound): PassiveVerdict {
  const kind = WEB_EARLIER[requirement];
  if (kind === undefined) return v;
  const earlier = kind === 'redirect' ? round.redirect : round.request;
  const what = kind === 'redirect' ? 'the redirect that delivered the code' : 'the authorization request';
  return { ...v, findings: v.findings.map((f) => (f.exchange.recorded === earlier ? f : { ...f, message: `${f.message} (${what} is entry ${earlier.index})` })) };
}

/**
 * The authorization request an unguessable-state failure is about: the later of two that sent
 * the same state, naming the earlier; else the one with the shortest state, which bounds the
 * estimate.
 */
export function stateAnchor(runs: readonly WebRun[], requests: readonly RecordedExchange[]): Anchor | undefined {
  const states = runs.map((r) => r.authorizeUrl?.searchParams.get('state') ?? '');
  const again = states.findIndex((s, i) => states.indexOf(s) < i);
  if (again >= 0) {
    const recorded = requests[again];
    const first = requests[states.indexOf(states[again] ?? '')];
    return recorded && first ? { recorded, earlier: `the authorization request of entry ${first.index} sent the same state` } : undefined;
  }
  const shortest = states.reduce((best, s, i) => (s.length < (states[best] ?? '').length ? i : best), 0);
  const recorded = requests[shortest];
  return recorded ? { recorded } : undefined;
}

/** Device-flow requirements that judge a poll against an earlier request of its device code: the poll before it, or the answer that issued the code. */
const DEVICE_EARLIER: Readonly<Record<string, 'poll' | 'issue'>> = {
  'OAUTH-CLIENT-POLL-INTERVAL': 'poll',
  'OAUTH-CLIENT-POLL-STOP': 'poll',
  'OAUTH-CLIENT-POLL-STOP-DENIED': 'poll',
  'OAUTH-CLIENT-POLL-AFTER-TOKEN': 'poll',
  'OAUTH-CLIENT-POLL-EXPIRES-IN': 'issue',
};

/**
 * The request a device judge's failure over a timeline (the polls of a device code) is about:
 * the last of the shortest run the judge already fails on, the requests in recording order — a
 * poll too soon, a poll after the token or after expired_token, a poll after expires_in. With
 * it, the earlier request it is judged against, by its entry.
 */
export function deviceAnchor(requirement: string, run: DeviceRun, mine: readonly Sent[], judgeRun: (run: DeviceRun) => Verdict): Anchor | undefined {
  for (let k = 1; k <= run.requests.length; k++) {
    const requests = run.requests.slice(0, k);
    const v = judgeRun({ ...run, requests, issued: issuedCodes(requests) });
    if (!('ok' in v) || v.ok) continue;
    const e = requests[k - 1] as ObservedRequest;
    const recorded = mine.find((s) => s.e === e)?.recorded;
    if (!recorded) return undefined;
    const kind = DEVICE_EARLIER[requirement];
    const code = e.params['device_code'];
    if (kind === undefined || code === undefined || !isTokenRequest(e)) return { recorded };
    const before = kind === 'poll' ? requests.slice(0, k - 1).filter((x) => isTokenRequest(x) && x.params['device_code'] === code).at(-1) : undefined;
    const issue = issuedCodes(requests).find((c) => c.deviceCode === code)?.entry;
    if (before) return { recorded, earlier: `the poll before it, of the same device code, is entry ${before.seq}` };
    return issue ? { recorded, earlier: `its device code was issued by entry ${issue.seq}` } : { recorded };
  }
  return undefined;
}
