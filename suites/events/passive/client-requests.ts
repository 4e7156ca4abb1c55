import type { MatchedExchange } from '../../../src/engine/suite-module.js';
import type { PassiveRule, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import { CLIENT_RULES } from '../checks/client-judges.js';
import type { ServedCall } from '../checks/client-run.js';
import { answerHeader, asNumber, bodyOf, field } from './recorded.js';

/** The stream a request polls: method, path and query, paging parameters left out (as the live client cases group polls). */
function streamOf(x: MatchedExchange, url: URL): string {
  const q = new URLSearchParams(url.searchParams);
  q.delete('page[cursor]');
  q.delete('page');
  q.sort();
  return `${x.recorded.method} ${url.pathname}?${q.toString()}`;
}

/** A recorded exchange as the client rules read a request: what was sent, when, and what of the answer they compare. */
export function servedCallOf(x: MatchedExchange): ServedCall {
  const r = x.recorded;
  const url = new URL(r.url);
  const sentAt = Date.parse(r.startedDateTime);
  const call: ServedCall = {
    at: sentAt + Math.max(0, r.durationMs),
    sentAt,
    operationId: x.operation.id,
    method: r.method,
    url: `${url.pathname}${url.search}`,
    stream: streamOf(x, url),
    query: new URLSearchParams(url.searchParams),
    headers: r.requestHeaders,
    status: r.status,
    ...(r.requestBody !== undefined ? { requestBody: r.requestBody } : {}),
  };
  const etag = answerHeader(x, 'etag');
  if (etag !== undefined) call.etag = etag;
  const interval = answerHeader(x, 'x-poll-interval');
  if (interval !== undefined && /^\d+$/.test(interval.trim())) call.interval = Number(interval);
  const body = bodyOf(x);
  if (x.operation.id === 'listEventsV1' && r.status === 200) {
    const events = field(body, 'events');
    if (Array.isArray(events)) {
      const last = asNumber(field(events[events.length - 1], 'date_happened'));
      call.v1 = { count: events.length, ...(last !== undefined ? { last } : {}) };
    }
  }
  if (x.operation.id === 'listEventsV2' && r.status === 200) {
    const after = field(field(field(body, 'meta'), 'page'), 'after');
    if (typeof after === 'string') call.after = after;
  }
  return call;
}

/** The client rules' verdicts on the requests of a recording, each bad request named on its recorded exchange. */
function judgeClient(view: PassiveView): PassiveVerdict[] {
  const dated = view.exchanges.filter((x) => Number.isFinite(Date.parse(x.recorded.startedDateTime)));
  const recorded = new Map<ServedCall, MatchedExchange>();
  const calls = dated.map((x) => {
    const c = servedCallOf(x);
    recorded.set(c, x);
    return c;
  });
  return Object.entries(CLIENT_RULES).map(([requirement, rule]) => {
    const found = rule({ calls, silence: 'the recording holds no request' });
    if ('lacking' in found) return { requirement, observations: 0, findings: [], lacking: found.lacking };
    const findings = found.bad.flatMap((b) => {
      const exchange = recorded.get(b.c);
      return exchange ? [{ message: b.why, exchange }] : [];
    });
    return { requirement, observations: found.judged, findings };
  });
}

/**
 * The client side of a recording (EVENTS-CLIENT-*): the rules the client cases judge from the
 * requests a launched client sends through the played services (checks/client-judges.ts),
 * applied to the recorded requests — keys, the dependency `env`, bearer token, headers,
 * `per_page`, post bodies, If-None-Match, the waits between polls (from each entry's
 * startedDateTime and time), v1 paging and v2 cursors.
 */
export const clientRequests: PassiveRule = {
  description: "the client's recorded requests: keys, env, bearer token, headers, per_page, post body, If-None-Match, waits between polls, paging and cursors",
  requirements: Object.keys(CLIENT_RULES),
  judge: judgeClient,
};
