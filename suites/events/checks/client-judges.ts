import { PASS, fail, unjudged, type Judge, type Verdict } from '../../../src/engine/checks/contract.js';
import type { Exchange } from '../../../src/engine/model.js';
import { cutTail, cutText } from '../../../src/targets/text-cut.js';
import { isCredentialHeader } from '../../../src/targets/har/recording.js';
import { MON_API_KEY, MON_APP_KEY, MON_APP_KEY_NO_EVENTS_READ } from '../../../reference/events/model/monitor-keys.js';
import { SEEDED_PLATFORM } from '../../../reference/events/model/platform-seed-accounts.js';
import { PER_PAGE_MAX } from '../../../reference/events/model/timeline.js';
import type { ClientRun, ServedCall } from './client-run.js';
import { PLATFORM_OPERATIONS } from './platform-operations.js';

/**
 * How much sooner than X-Poll-Interval a poll may come and still count as obeying it: the
 * client's timer, the proxy hop and the service's own work all take a little time.
 */
export const POLL_TOLERANCE_MS = 150;

/** The version header's value form (002, Versioning: a date, 2022-11-28 in the samples). */
const VERSION_FORM = /^\d{4}-\d{2}-\d{2}$/;
const PLATFORM_MEDIA_TYPE = 'application/vnd.platform+json';
/** GET /api/v1/events answers at most this many events (G, Limits). */
const V1_FULL_PAGE = 1000;

const DEPENDENCY_OPS = new Set(['serviceDependencies', 'serviceDependency']);
const MONITOR_OPS = new Set([...DEPENDENCY_OPS, 'listEventsV1', 'listEventsV2', 'postEvent']);
const isPlatform = (c: ServedCall): boolean => PLATFORM_OPERATIONS.has(c.operationId);

/**
 * The requests a client sent, as a judge reads them: from a launch of the client behind the
 * played services, or from a recording of its traffic. `silence` says why there are none.
 */
export interface SentRequests {
  calls: readonly ServedCall[];
  silence?: string;
}

/** One request that breaks a rule, and why. */
export interface BadCall {
  c: ServedCall;
  why: string;
}

/**
 * What a client rule found: the requests (or polls, pages) it judged and those that break it,
 * or, with nothing of its kind sent, what is lacking.
 */
export type ClientFinding = { lacking: string } | { judged: number; noun: string; bad: BadCall[] };

function exchangeOf(c: ServedCall): Exchange {
  return { kind: 'http', summary: `${c.method} ${c.url} -> ${c.status}`, request: { method: c.method, url: c.url, headers: cutHeaders(c.headers) }, response: { status: c.status } };
}

/** The keys and token the played services hand out: hidden under any header name a client puts them. */
const PLAYED_SECRETS = [MON_API_KEY, MON_APP_KEY, MON_APP_KEY_NO_EVENTS_READ, SEEDED_PLATFORM.token];

/** Credentials are shown by name only. */
function cutHeaders(h: Record<string, string>): Record<string, string> {
  const hidden = (k: string, v: string): boolean => isCredentialHeader(k) || PLAYED_SECRETS.some((s) => v.includes(s));
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, hidden(k, v) ? '<redacted>' : cutText(v, 200)]));
}

/** Why a judge has nothing to go on when the client sent nothing the played services routed. */
function silenceOf(run: ClientRun): string | undefined {
  if (run.calls.length > 0) return undefined;
  return `the client sent no request (it ${run.finished.stopped ? 'was stopped' : 'ended'}: ${run.finished.exchange.summary}; stderr: ${cutTail(run.finished.stderr, 300) || 'empty'})`;
}

function silent(sent: SentRequests): string | undefined {
  return sent.calls.length > 0 ? undefined : (sent.silence ?? 'the client sent no request');
}

const isBad = (b: { c: ServedCall; why: string | undefined }): b is BadCall => b.why !== undefined;

/** A verdict over the requests `judged` picks: each is fine or says why it is not. */
function everyCall(judged: (c: ServedCall) => boolean, none: string, problem: (c: ServedCall) => string | undefined): ClientRule {
  return (run) => {
    const quiet = silent(run);
    if (quiet) return { lacking: quiet };
    const picked = run.calls.filter(judged);
    if (!picked.length) return { lacking: `the client sent no ${none}, so nothing shows the rule (it sent ${run.calls.length} other requests)` };
    return { judged: picked.length, noun: 'requests', bad: picked.map((c) => ({ c, why: problem(c) })).filter(isBad) };
  };
}

/** A client rule over the requests a client sent. */
export type ClientRule = (sent: SentRequests) => ClientFinding;

function verdictOf(finding: ClientFinding): Verdict {
  if ('lacking' in finding) return unjudged(finding.lacking);
  const { bad, judged: total, noun } = finding;
  const first = bad[0];
  if (!first) return PASS;
  const whys = bad.slice(0, 5).map((b) => `${b.c.method} ${b.c.url}: ${b.why}`);
  return fail(`${bad.length} of ${total} ${noun} break the rule: ${whys.join('; ')}${bad.length > 5 ? '; ...' : ''}`, {
    actual: bad.slice(0, 20).map((b) => `${b.c.method} ${b.c.url}`),
    exchange: exchangeOf(first.c),
  });
}

/** Consecutive requests of one platform stream: the poll before and the poll after. */
function pollPairs(run: SentRequests): { before: ServedCall; after: ServedCall }[] {
  const last = new Map<string, ServedCall>();
  const pairs: { before: ServedCall; after: ServedCall }[] = [];
  for (const c of run.calls.filter(isPlatform)) {
    const before = last.get(c.stream);
    if (before) pairs.push({ before, after: c });
    last.set(c.stream, c);
  }
  return pairs;
}

/** Polls that came sooner than the interval the answer before them asked for, among the pairs `which` picks. */
function pollGaps(which: (before: ServedCall, first: number) => boolean, none: string): ClientRule {
  return (run) => {
    const quiet = silent(run);
    if (quiet) return { lacking: quiet };
    const pairs = pollPairs(run).filter(({ before }) => {
      const first = run.calls.find((c) => c.stream === before.stream && c.interval !== undefined)?.interval;
      return before.interval !== undefined && first !== undefined && which(before, first);
    });
    if (!pairs.length) return { lacking: `the client polled no platform stream again ${none}, so nothing shows how it waits` };
    const bad = pairs
      .map(({ before, after }) => {
        // from the answer before to the request after (a live run stamps each call when answered)
        const gap = (after.sentAt ?? after.at) - before.at;
        const wanted = (before.interval ?? 0) * 1000;
        return { c: after, why: gap + POLL_TOLERANCE_MS < wanted ? `polled ${gap} ms after an answer with X-Poll-Interval: ${before.interval ?? ''}` : undefined };
      })
      .filter(isBad);
    return { judged: pairs.length, noun: 'polls', bad };
  };
}

/** The parameters of a v2 request other than its cursor, in a comparable form. */
function otherParams(q: URLSearchParams): string {
  const rest = new URLSearchParams(q);
  rest.delete('page[cursor]');
  rest.sort();
  return rest.toString();
}

function v2CursorParams(run: SentRequests): ClientFinding {
  const quiet = silent(run);
  if (quiet) return { lacking: quiet };
  const v2 = run.calls.filter((c) => c.operationId === 'listEventsV2');
  const follows = v2.filter((c) => c.query.get('page[cursor]'));
  if (!follows.length) return { lacking: 'the client sent no v2 request with page[cursor], so nothing shows how it follows a cursor' };
  const bad = follows
    .map((c) => {
      const cursor = c.query.get('page[cursor]');
      const source = v2.find((p) => p.after === cursor && p.at <= c.at);
      if (!source) return { c, why: 'its page[cursor] is no meta.page.after the service answered' };
      const want = otherParams(source.query);
      const got = otherParams(c.query);
      return { c, why: want === got ? undefined : `the other parameters are "${got}", not "${want}" of ${source.url}` };
    })
    .filter(isBad);
  return { judged: follows.length, noun: 'cursor requests', bad };
}

/** The v1 list parameters that choose what is listed, with `end` and `page` left out. */
function v1Filters(q: URLSearchParams): string {
  const rest = new URLSearchParams(q);
  rest.delete('end');
  rest.delete('page');
  rest.sort();
  return rest.toString();
}

function v1Paging(run: SentRequests): ClientFinding {
  const quiet = silent(run);
  if (quiet) return { lacking: quiet };
  const v1 = run.calls.filter((c) => c.operationId === 'listEventsV1');
  const pairs: { before: ServedCall; after: ServedCall }[] = [];
  v1.forEach((c, i) => {
    const next = v1[i + 1];
    if (next && c.v1 && c.v1.count >= V1_FULL_PAGE) pairs.push({ before: c, after: next });
  });
  if (!pairs.length) return { lacking: `the client listed no v1 page of ${V1_FULL_PAGE} events and then another, so nothing shows how it pages` };
  const bad = pairs
    .map(({ before, after }) => {
      const b = before.query;
      const a = after.query;
      const byEnd = before.v1?.last !== undefined && a.get('end') === String(before.v1.last) && (a.get('page') ?? '0') === (b.get('page') ?? '0');
      const byPage = a.get('end') === b.get('end') && Number(a.get('page') ?? '0') === Number(b.get('page') ?? '0') + 1;
      const same = v1Filters(a) === v1Filters(b);
      if (same && (byEnd || byPage)) return { c: after, why: undefined };
      return { c: after, why: `after ${before.url} answered ${V1_FULL_PAGE} events (the last at ${String(before.v1?.last)}), the next page neither ends at that timestamp nor asks the next page of the same window` };
    })
    .filter(isBad);
  return { judged: pairs.length, noun: 'next pages', bad };
}

function ifNoneMatch(run: SentRequests): ClientFinding {
  const quiet = silent(run);
  if (quiet) return { lacking: quiet };
  const pairs = pollPairs(run).filter(({ before }) => before.status === 200 && before.etag !== undefined);
  if (!pairs.length) return { lacking: 'the client polled no platform stream again after a 200 with an ETag' };
  const bad = pairs
    .map(({ before, after }) => {
      const sent = after.headers['if-none-match'];
      return { c: after, why: sent === before.etag ? undefined : sent === undefined ? `no If-None-Match after ${before.etag ?? ''}` : `If-None-Match: ${sent}, not ${before.etag ?? ''}` };
    })
    .filter(isBad);
  return { judged: pairs.length, noun: 'polls after an ETag', bad };
}

function postBody(run: SentRequests): ClientFinding {
  const quiet = silent(run);
  if (quiet) return { lacking: quiet };
  const posts = run.calls.filter((c) => c.operationId === 'postEvent');
  if (!posts.length) return { lacking: 'the client posted no event' };
  const bad = posts
    .map((c) => ({ c, why: postProblem(c.requestBody ?? '') }))
    .filter(isBad);
  return { judged: posts.length, noun: 'posts', bad };
}

/** What is wrong with a post request's body, if anything. */
function postProblem(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    return `the body is not JSON: ${cutText(text, 100)}`;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  const o = body as Record<string, unknown>;
  const problems: string[] = [];
  for (const k of ['title', 'text']) if (typeof o[k] !== 'string') problems.push(`${k} is not a string`);
  for (const k of ['date_happened', 'related_event_id']) if (k in o && !(typeof o[k] === 'number' && Number.isInteger(o[k]))) problems.push(`${k} is not an integer`);
  return problems.length ? problems.join(', ') : undefined;
}

/** One rule per client-side requirement, each over every request a client sent. */
export const CLIENT_RULES: Readonly<Record<string, ClientRule>> = {
  'EVENTS-CLIENT-MON-KEYS': everyCall(
    (c) => MONITOR_OPS.has(c.operationId),
    'dependency or event request to the monitoring API',
    (c) => {
      const missing = ['mon-api-key', 'mon-application-key'].filter((h) => !(c.headers[h] ?? '').trim());
      return missing.length ? `no ${missing.join(' and no ')}` : undefined;
    },
  ),
  'EVENTS-CLIENT-DEPS-ENV': everyCall(
    (c) => DEPENDENCY_OPS.has(c.operationId),
    'dependency request to the monitoring API',
    (c) => ((c.query.get('env') ?? '').trim() ? undefined : c.query.has('env') ? 'env is empty' : 'no env query parameter'),
  ),
  'EVENTS-CLIENT-POST-BODY': postBody,
  'EVENTS-CLIENT-BEARER': everyCall(isPlatform, 'platform request', (c) => {
    const auth = c.headers['authorization'];
    if (auth === undefined) return 'no Authorization header (the launch contract gives a token)';
    return /^Bearer \S+$/.test(auth) ? undefined : `Authorization is not "Bearer <token>" (scheme "${auth.split(' ')[0] ?? ''}")`;
  }),
  'EVENTS-CLIENT-ACCEPT': everyCall(isPlatform, 'platform request', (c) => {
    const accept = c.headers['accept'];
    return accept !== undefined && accept.split(',').some((t) => t.split(';')[0]?.trim() === PLATFORM_MEDIA_TYPE) ? undefined : `accept is ${accept === undefined ? 'missing' : `"${accept}"`}, not ${PLATFORM_MEDIA_TYPE}`;
  }),
  'EVENTS-CLIENT-VERSION-HEADER': everyCall(isPlatform, 'platform request', (c) => {
    const v = c.headers['x-platform-api-version'];
    return v !== undefined && VERSION_FORM.test(v.trim()) ? undefined : v === undefined ? 'no X-Platform-Api-Version' : `X-Platform-Api-Version "${v}" is not a date`;
  }),
  'EVENTS-CLIENT-PER-PAGE-MAX': everyCall(isPlatform, 'platform request', (c) => {
    const asked = c.query.getAll('per_page').find((v) => /^\d+$/.test(v.trim()) && Number(v) > PER_PAGE_MAX);
    return asked === undefined ? undefined : `per_page=${asked}, above the maximum ${PER_PAGE_MAX}`;
  }),
  'EVENTS-CLIENT-IF-NONE-MATCH': ifNoneMatch,
  'EVENTS-CLIENT-POLL-INTERVAL': pollGaps((before, first) => (before.interval ?? 0) <= first, 'after an answer with its first X-Poll-Interval'),
  'EVENTS-CLIENT-POLL-INTERVAL-GROWS': pollGaps((before, first) => (before.interval ?? 0) > first, 'after the X-Poll-Interval grew'),
  'EVENTS-CLIENT-V1-PAGING': v1Paging,
  'EVENTS-CLIENT-V2-CURSOR-PARAMS': v2CursorParams,
};

/** One judge per client-side requirement, each over every request of one launch of the client. */
export const CLIENT_JUDGES: Readonly<Record<string, Judge<ClientRun>>> = Object.fromEntries(
  Object.entries(CLIENT_RULES).map(([id, rule]) => [id, (run: ClientRun): Verdict => verdictOf(rule({ calls: run.calls, ...(silenceOf(run) ? { silence: silenceOf(run) } : {}) }))]),
);
