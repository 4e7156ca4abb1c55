/**
 * The events suite's passive rules (suites/events/passive/), each on small recordings: one that
 * keeps the rule, one that breaks it, and one that holds nothing the rule judges.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ApiTable } from '../../../src/engine/api/table.js';
import { fromRoot } from '../../../src/paths.js';
import { suite } from '../../../suites/events/index.js';
import { EVENTS_PASSIVE_RULES } from '../../../suites/events/passive/index.js';
import { passiveRulesSentence } from '../../helpers/passive-rules-paragraph.js';
import { loadedSuite } from '../../helpers/suite-facts.js';
import { outcome, outcomes, ruleJudge } from '../../helpers/rule-judge.js';
import type { EntryInput } from '../../targets/har/har-builder.js';

const events = loadedSuite(suite);
const table = events.api as ApiTable;

const M = 'http://mon.test';
const P = 'http://api.test';
const PLATFORM = { authorization: 'Bearer t', 'x-platform-api-version': '2022-11-28', accept: 'application/vnd.platform+json' };
const KEYS = { 'mon-api-key': 'k', 'mon-application-key': 'a' };
const DATE = 'Sun, 01 Jun 2025 12:00:00 GMT';
const NOW = Date.parse(DATE);
const json = { 'content-type': 'application/json' };

/** An entry started `at` ms after NOW. */
type Entry = EntryInput & { at?: number };
const judge = ruleJudge<Entry>('specgate-events-rules-', table, EVENTS_PASSIVE_RULES, (e) => ({ startedDateTime: new Date(NOW + (e.at ?? 0)).toISOString(), time: 10 }));

const ev = (id: number, daysAgo = 1): Record<string, unknown> => ({ id: String(id), type: 'WatchEvent', created_at: new Date(NOW - daysAgo * 86_400_000).toISOString() });
const list = (ids: number[]): string => JSON.stringify(ids.map((i) => ev(i)));
const range = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);
/** A 200 of a platform list, with its polling headers. */
const plat = (path: string, body: string, more: Partial<Entry> & { etag?: string; headers?: Record<string, string> } = {}): Entry => ({
  url: `${P}${path}`,
  requestHeaders: { ...PLATFORM, ...(more.requestHeaders ?? {}) },
  status: more.status ?? 200,
  responseHeaders: { ...json, etag: more.etag ?? '"e1"', 'x-poll-interval': '60', date: DATE, ...(more.headers ?? {}) },
  ...(more.status === 304 ? {} : { body }),
  ...(more.at !== undefined ? { at: more.at } : {}),
});

describe('every rule judges only requirements of the catalog', () => {
  it('the requirements named are in requirements.yaml and not excluded', () => {
    const ids = new Map(events.requirements.map((r) => [r.id, r]));
    for (const [name, rule] of Object.entries(EVENTS_PASSIVE_RULES)) for (const id of rule.requirements) expect(ids.get(id)?.excluded, `${name}: ${id}`).toBeUndefined();
    for (const [name, rule] of Object.entries(EVENTS_PASSIVE_RULES)) for (const id of rule.requirements) expect(ids.has(id), `${name}: ${id}`).toBe(true);
  });
});

describe('conditional-polls', () => {
  const first = plat('/repos/o/r/events', list([1, 2]));
  it('304 to the ETag of the last 200 keeps both rules', () => {
    expect(outcomes(judge('conditional-polls', [first, plat('/repos/o/r/events', '', { status: 304, requestHeaders: { 'if-none-match': '"e1"' } })]))).toEqual({ 'EVENTS-PLAT-NOT-MODIFIED': 'pass', 'EVENTS-PLAT-MODIFIED': 'pass' });
  });
  it('the same body and ETag answered 200 to that ETag breaks NOT-MODIFIED; a 304 to an ETag never given breaks MODIFIED', () => {
    const again = plat('/repos/o/r/events', list([1, 2]), { requestHeaders: { 'if-none-match': '"e1"' } });
    const stale = plat('/repos/o/r/events', '', { status: 304, requestHeaders: { 'if-none-match': '"zz"' } });
    expect(outcomes(judge('conditional-polls', [first, again, stale]))).toEqual({ 'EVENTS-PLAT-NOT-MODIFIED': 'fail 1', 'EVENTS-PLAT-MODIFIED': 'fail 2' });
  });
  it('a new body, or an unquoted tag answered 200, is no finding; without conditional requests nothing is judged', () => {
    const changed = plat('/repos/o/r/events', list([3, 1, 2]), { etag: '"e2"', requestHeaders: { 'if-none-match': '"e1"' } });
    const unquoted = plat('/repos/o/r/events', list([3, 1, 2]), { etag: '"e2"', requestHeaders: { 'if-none-match': 'e2' } });
    expect(outcomes(judge('conditional-polls', [first, changed, unquoted]))).toEqual({ 'EVENTS-PLAT-NOT-MODIFIED': 'pass', 'EVENTS-PLAT-MODIFIED': 'untested' });
    const none = judge('conditional-polls', [first]);
    expect(outcomes(none)).toEqual({ 'EVENTS-PLAT-NOT-MODIFIED': 'untested', 'EVENTS-PLAT-MODIFIED': 'untested' });
    expect(none['EVENTS-PLAT-MODIFIED']?.lacking).toMatch(/If-None-Match/);
  });
});

describe('polling-headers', () => {
  it('ETag and X-Poll-Interval on every 200 of the platform', () => {
    expect(outcomes(judge('polling-headers', [plat('/events', list([1]))]))).toEqual({ 'EVENTS-PLAT-ETAG': 'pass', 'EVENTS-PLAT-POLL-INTERVAL': 'pass' });
  });
  it('a 200 without them fails each', () => {
    const bare: Entry = { url: `${P}/events`, requestHeaders: PLATFORM, responseHeaders: { ...json, 'x-poll-interval': 'soon' }, body: list([1]) };
    expect(outcomes(judge('polling-headers', [plat('/events', list([1])), bare]))).toEqual({ 'EVENTS-PLAT-ETAG': 'fail 1', 'EVENTS-PLAT-POLL-INTERVAL': 'fail 1' });
  });
  it('no platform 200: untested', () => {
    expect(outcomes(judge('polling-headers', [{ url: `${M}/api/v1/events?start=1&end=2`, requestHeaders: KEYS, responseHeaders: json, body: '{"events":[],"status":"ok"}' }]))).toEqual({ 'EVENTS-PLAT-ETAG': 'untested', 'EVENTS-PLAT-POLL-INTERVAL': 'untested' });
  });
});

describe('paging', () => {
  const next = { link: `<${P}/events?page=2>; rel="next"` };
  it('the default size, at most 100, page 1 by default', () => {
    const entries = [plat('/events', list(range(1, 15)), { headers: next }), plat('/orgs/x/events?per_page=200', list(range(1, 100))), plat('/orgs/x/events?per_page=5&page=1', list(range(1, 5))), plat('/orgs/x/events?per_page=5', list(range(1, 5)))];
    expect(outcomes(judge('paging', entries))).toEqual({ 'EVENTS-PLAT-PER-PAGE-DEFAULT': 'pass', 'EVENTS-PLAT-PER-PAGE-MAX': 'pass', 'EVENTS-PLAT-PAGE-DEFAULT': 'pass' });
  });
  it('a short page while more exist, more than 100 events, page 2 without page: each fails', () => {
    const entries = [
      plat('/events', list(range(1, 10)), { headers: next }),
      plat('/orgs/x/events?per_page=200', list(range(1, 101))),
      plat('/orgs/x/events?per_page=5&page=1', list(range(1, 5))),
      plat('/orgs/x/events?per_page=5&page=2', list(range(6, 5))),
      plat('/orgs/x/events?per_page=5', list(range(6, 5))),
      plat('/repos/o/r/events', list(range(1, 31))),
    ];
    expect(outcomes(judge('paging', entries))).toEqual({ 'EVENTS-PLAT-PER-PAGE-DEFAULT': 'fail 0,5', 'EVENTS-PLAT-PER-PAGE-MAX': 'fail 1', 'EVENTS-PLAT-PAGE-DEFAULT': 'fail 4' });
  });
  it('short pages with nothing beyond them, and no page 1 recorded: untested', () => {
    const vs = judge('paging', [plat('/events', list(range(1, 3))), plat('/orgs/x/events?per_page=50', list(range(1, 3)))]);
    expect(outcomes(vs)).toEqual({ 'EVENTS-PLAT-PER-PAGE-DEFAULT': 'untested', 'EVENTS-PLAT-PER-PAGE-MAX': 'untested', 'EVENTS-PLAT-PAGE-DEFAULT': 'untested' });
    expect(vs['EVENTS-PLAT-PAGE-DEFAULT']?.lacking).toMatch(/page=1/);
  });
});

describe('timeline', () => {
  it('recent events, a walk that ends under 300', () => {
    expect(outcomes(judge('timeline', [plat('/events?per_page=100&page=1', list(range(1, 100))), plat('/events?per_page=100&page=2', list(range(101, 20)))]))).toEqual({ 'EVENTS-PLAT-TIMELINE-30-DAYS': 'pass', 'EVENTS-PLAT-TIMELINE-300': 'pass' });
  });
  it('an event 31 days old; 301 events over a walk', () => {
    const old = JSON.stringify([ev(1), ev(2, 31)]);
    const walk = [1, 2, 3, 4].map((p) => plat(`/repos/o/r/events?per_page=100&page=${p}`, list(range(p * 100, p === 4 ? 1 : 100))));
    expect(outcomes(judge('timeline', [plat('/events', old), ...walk]))).toEqual({ 'EVENTS-PLAT-TIMELINE-30-DAYS': 'fail 0', 'EVENTS-PLAT-TIMELINE-300': 'fail 4' });
  });
  it('no Date header and a walk with no end: untested', () => {
    expect(outcomes(judge('timeline', [plat('/events?per_page=2&page=1', list([1, 2]), { headers: { date: 'never' } })]))).toEqual({ 'EVENTS-PLAT-TIMELINE-30-DAYS': 'untested', 'EVENTS-PLAT-TIMELINE-300': 'untested' });
  });
});

const v2 = (query: string, ids: number[], after: string | undefined, order: number[] = ids): Entry => ({
  url: `${M}/api/v2/events?${query}`,
  requestHeaders: KEYS,
  responseHeaders: json,
  body: JSON.stringify({ data: ids.map((id, i) => ({ id: String(id), type: 'event', attributes: { timestamp: new Date(NOW - (order[i] ?? 0) * 1000).toISOString() } })), meta: { page: after === undefined ? {} : { after } }, links: {} }),
});

describe('v2-cursor and v2-sort', () => {
  it('the cursor page continues; -timestamp newest first', () => {
    expect(outcomes(judge('v2-cursor', [v2('sort=-timestamp', [1, 2], 'c1'), v2('sort=-timestamp&page%5Bcursor%5D=c1', [3, 4], undefined)]))).toEqual({ 'EVENTS-MON-V2-CURSOR': 'pass' });
    expect(outcomes(judge('v2-sort', [v2('sort=-timestamp', [1, 2], undefined), v2('sort=timestamp', [1, 2], undefined, [2, 1])]))).toEqual({ 'EVENTS-MON-V2-SORT': 'pass' });
  });
  it('a repeated event; oldest first for -timestamp', () => {
    expect(outcomes(judge('v2-cursor', [v2('sort=-timestamp', [1, 2], 'c1'), v2('sort=-timestamp&page%5Bcursor%5D=c1', [2, 3], undefined)]))).toEqual({ 'EVENTS-MON-V2-CURSOR': 'fail 1' });
    expect(outcomes(judge('v2-sort', [v2('sort=-timestamp', [1, 2], undefined, [2, 1])]))).toEqual({ 'EVENTS-MON-V2-SORT': 'fail 0' });
  });
  it('a cursor with other parameters, no sort: untested', () => {
    expect(outcomes(judge('v2-cursor', [v2('sort=-timestamp', [1, 2], 'c1'), v2('sort=timestamp&page%5Bcursor%5D=c1', [2], undefined)]))).toEqual({ 'EVENTS-MON-V2-CURSOR': 'untested' });
    expect(outcomes(judge('v2-sort', [v2('page%5Blimit%5D=2', [1, 2], undefined, [2, 1])]))).toEqual({ 'EVENTS-MON-V2-SORT': 'untested' });
  });
});

const post = (dateHappened: number, status = 200): Entry => ({
  method: 'POST',
  url: `${M}/api/v1/events`,
  requestHeaders: { ...KEYS, 'content-type': 'application/json' },
  requestBody: JSON.stringify({ title: 't', text: 'x', date_happened: dateHappened }),
  status,
  responseHeaders: { ...json, date: DATE },
  body: status === 200 ? JSON.stringify({ event: { id: 1, date_happened: dateHappened }, status: 'ok' }) : '{"errors":["date"]}',
});

describe('post-date', () => {
  const now = NOW / 1000;
  it('a post 20 hours old refused', () => expect(outcomes(judge('post-date', [post(now - 20 * 3600, 400)]))).toEqual({ 'EVENTS-MON-DATE-WINDOW': 'pass' }));
  it('posts 20 hours old and 3 hours ahead stored with their dates', () => expect(outcomes(judge('post-date', [post(now - 20 * 3600), post(now + 3 * 3600)]))).toEqual({ 'EVENTS-MON-DATE-WINDOW': 'fail 0,1' }));
  it('a post within the window: untested', () => expect(outcomes(judge('post-date', [post(now - 17 * 3600), post(now + 3600)]))).toEqual({ 'EVENTS-MON-DATE-WINDOW': 'untested' }));
});

const v1 = (headers: Record<string, string>, status = 200): Entry => ({ url: `${M}/api/v1/events?start=1&end=2`, requestHeaders: headers, status, responseHeaders: json, body: status === 200 ? '{"events":[],"status":"ok"}' : '{"errors":["no key"]}' });

describe('mon-keys', () => {
  it('requests without a key refused', () => expect(outcomes(judge('mon-keys', [v1({ 'mon-application-key': 'a' }, 403), v1({ 'mon-api-key': 'k' }, 403)]))).toEqual({ 'EVENTS-MON-API-KEY-REQUIRED': 'pass', 'EVENTS-MON-APP-KEY-REQUIRED': 'pass' }));
  it('answered 200', () => expect(outcomes(judge('mon-keys', [v1({ 'mon-application-key': 'a' }), v1({ 'mon-api-key': 'k' })]))).toEqual({ 'EVENTS-MON-API-KEY-REQUIRED': 'fail 0', 'EVENTS-MON-APP-KEY-REQUIRED': 'fail 1' }));
  it('every request with both keys: untested', () => expect(outcomes(judge('mon-keys', [v1(KEYS)]))).toEqual({ 'EVENTS-MON-API-KEY-REQUIRED': 'untested', 'EVENTS-MON-APP-KEY-REQUIRED': 'untested' }));
});

describe('error-body', () => {
  const limited = (body: string): Entry => ({ url: `${M}/api/v1/events?start=1&end=2`, requestHeaders: KEYS, status: 429, responseHeaders: json, body });
  it('a 429 with the error object', () => expect(outcomes(judge('error-body', [limited('{"errors":["slow down"]}')]))).toEqual({ 'EVENTS-MON-ERROR-BODY': 'pass' }));
  it('a 429 with another body', () => expect(outcomes(judge('error-body', [limited('{"message":"slow down"}')]))).toEqual({ 'EVENTS-MON-ERROR-BODY': 'fail 0' }));
  it('no 429: untested', () => expect(outcomes(judge('error-body', [v1(KEYS)]))).toEqual({ 'EVENTS-MON-ERROR-BODY': 'untested' }));
});

describe('client-requests (the client cases\' rules on recorded requests)', () => {
  const poll = (at: number, inm?: string, status = 200): Entry => ({ ...plat('/repos/o/r/events', list([1]), { status, at, headers: { 'x-poll-interval': '1' }, ...(inm !== undefined ? { requestHeaders: { 'if-none-match': inm } } : {}) }) });
  const good = [v1(KEYS), post(NOW / 1000), poll(0), poll(1200, '"e1"', 304), poll(2400, '"e1"', 304)];
  it('keys, headers, quoted If-None-Match and waits kept', () => {
    const o = outcomes(judge('client-requests', good));
    for (const id of ['EVENTS-CLIENT-MON-KEYS', 'EVENTS-CLIENT-POST-BODY', 'EVENTS-CLIENT-BEARER', 'EVENTS-CLIENT-ACCEPT', 'EVENTS-CLIENT-VERSION-HEADER', 'EVENTS-CLIENT-IF-NONE-MATCH', 'EVENTS-CLIENT-POLL-INTERVAL']) expect(o[id], id).toBe('pass');
    expect(o['EVENTS-CLIENT-V1-PAGING']).toBe('untested');
  });
  it('a missing key, the quotes dropped, a poll too soon: each fails on its request', () => {
    const bad = [v1({ 'mon-api-key': 'k' }, 403), post(NOW / 1000), poll(0), poll(300, 'e1'), poll(2400, 'e1')];
    const o = outcomes(judge('client-requests', bad));
    expect(o).toMatchObject({ 'EVENTS-CLIENT-MON-KEYS': 'fail 0', 'EVENTS-CLIENT-IF-NONE-MATCH': 'fail 3,4', 'EVENTS-CLIENT-POLL-INTERVAL': 'fail 3', 'EVENTS-CLIENT-BEARER': 'pass' });
  });
  it('a dependency request without env, a platform page of more than 100 asked: each fails on its request', () => {
    const deps = (query: string): Entry => ({ url: `${M}/api/v1/service_dependencies${query}`, requestHeaders: KEYS, status: query ? 200 : 400, responseHeaders: json, body: query ? '{}' : '{"errors":["env is required"]}' });
    const o = outcomes(judge('client-requests', [deps('?env=prod'), deps(''), poll(0), { ...plat('/orgs/o/events?per_page=101', list([1])), at: 100 }, { ...plat('/orgs/o/events?per_page=100', list([1])), at: 200 }]));
    expect(o).toMatchObject({ 'EVENTS-CLIENT-DEPS-ENV': 'fail 1', 'EVENTS-CLIENT-PER-PAGE-MAX': 'fail 3', 'EVENTS-CLIENT-MON-KEYS': 'pass', 'EVENTS-CLIENT-BEARER': 'pass' });
    expect(outcomes(judge('client-requests', good))).toMatchObject({ 'EVENTS-CLIENT-DEPS-ENV': 'untested', 'EVENTS-CLIENT-PER-PAGE-MAX': 'pass' });
  });
  it('no request of a kind: untested with what is lacking', () => {
    const vs = judge('client-requests', [v1(KEYS)]);
    expect(outcome(vs['EVENTS-CLIENT-POLL-INTERVAL'])).toBe('untested');
    expect(vs['EVENTS-CLIENT-POLL-INTERVAL']?.lacking).toMatch(/polled no platform stream again/);
    expect(outcome(vs['EVENTS-CLIENT-POST-BODY'])).toBe('untested');
  });
});

describe('the README names what a recording can settle', () => {
  it('lists each rule with the requirements it declares', () => {
    const readme = readFileSync(fromRoot('suites', 'events', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`judge: ${passiveRulesSentence(EVENTS_PASSIVE_RULES)}.`);
  });
});
