import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import {
  ALERT_TYPES,
  dateHappened,
  decodeCursor,
  dependencyMap,
  EventsModel,
  IP_RANGE_GROUPS,
  ipRanges,
  keyPager,
  MONITOR_SEED,
  pageOf,
  paging,
  parseDependencyQuery,
  parseV1Query,
  parseV2Query,
  pageV1,
  PRIORITIES,
  SEEDED_PLATFORM,
  serviceDependency,
  streamVersion,
  timeline,
  TIMELINE_AGE_MS,
  validatePost,
  type MonitorEvent,
  type Outcome,
  type V1Query,
  type V2Query,
} from '../../../reference/events/model/index.js';

const NOW = Date.UTC(2026, 0, 1);
const HOUR = 3600_000;
const DAY = 24 * HOUR;

function value<T>(out: Outcome<T>): T {
  if (!out.ok) throw new TypeError(`expected a value, got a refusal: ${out.messages.join('; ')}`);
  return out.value;
}

const fresh = (clock = new VirtualClock(NOW)): { model: EventsModel; clock: VirtualClock } => ({ model: new EventsModel({ clock }), clock });
const query = (params: Record<string, string>) => (name: string): string | null => params[name] ?? null;
const nowSec = (ms: number): number => Math.floor(ms / 1000);

function v1(params: Record<string, string>): V1Query {
  return value(parseV1Query(query(params)));
}

function v2(params: Record<string, string>, now = NOW): V2Query {
  return value(parseV2Query(query(params), now));
}

describe('events model: the seeded monitoring stream', () => {
  const { model } = fresh();
  const all = model.monitor.all();

  it('has ids beyond 2^53, unique, none of which survives a double', () => {
    expect(all.length).toBeGreaterThan(MONITOR_SEED.recent + MONITOR_SEED.older);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    for (const e of all) {
      expect(e.id > 2n ** 53n).toBe(true);
      expect(BigInt(Number(e.id))).not.toBe(e.id);
    }
  });

  it('has every alert type and priority, several sources and hosts, host tags applied', () => {
    expect(new Set(all.map((e) => e.alertType))).toEqual(new Set(ALERT_TYPES));
    expect(new Set(all.map((e) => e.priority))).toEqual(new Set(PRIORITIES));
    expect(new Set(all.map((e) => e.sourceTypeName)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(all.map((e) => e.host)).size).toBeGreaterThanOrEqual(5);
    const web = all.find((e) => e.host === 'web-01');
    expect(web?.tags).toEqual(expect.arrayContaining(['role:web', 'env:prod']));
  });

  it('has aggregation groups: one aggregate parent per key, dated before its members, which name it', () => {
    const parents = all.filter((e) => e.isAggregate);
    expect(parents).toHaveLength(MONITOR_SEED.groups);
    for (const p of parents) {
      const members = all.filter((e) => !e.isAggregate && e.aggregationKey === p.aggregationKey);
      expect(members.length).toBeGreaterThanOrEqual(3);
      for (const m of members) {
        expect(m.relatedEventId).toBe(p.id);
        expect(m.timestampMs).toBeGreaterThan(p.timestampMs);
      }
    }
  });

  it('puts more than 1000 events in the last 18 hours and some older ones', () => {
    const recent = all.filter((e) => e.timestampMs >= NOW - 18 * HOUR);
    expect(recent.length).toBeGreaterThan(1000);
    expect(all.some((e) => e.timestampMs < NOW - 18 * HOUR)).toBe(true);
    expect(all.every((e) => e.timestampMs <= NOW)).toBe(true);
  });

  it('is the same for the same seed and clock', () => {
    const other = fresh().model.monitor.all();
    expect(other.map((e) => `${e.id}:${e.title}`)).toEqual(all.map((e) => `${e.id}:${e.title}`));
  });
});

describe('events model: GET /api/v1/events', () => {
  const { model } = fresh();
  const day = { start: String(nowSec(NOW) - 18 * 3600), end: String(nowSec(NOW)) };

  it('needs start and end as integers', () => {
    expect(parseV1Query(query({ end: '1' }))).toMatchObject({ ok: false, kind: 'invalid' });
    expect(parseV1Query(query({ start: '1' }))).toMatchObject({ ok: false, kind: 'invalid' });
    expect(parseV1Query(query({ start: 'yesterday', end: '1' }))).toMatchObject({ ok: false });
    expect(parseV1Query(query({ ...day, priority: 'urgent' }))).toMatchObject({ ok: false });
    expect(parseV1Query(query({ ...day, page: '-1' }))).toMatchObject({ ok: false });
  });

  it('answers at most the 1000 most recent events of the window, newest first', () => {
    const q = v1(day);
    const matches = model.monitor.matchV1(q);
    expect(matches.length).toBeGreaterThan(1000);
    const page = pageV1(matches, q);
    expect(page).toHaveLength(1000);
    expect(page[0]).toBe(matches[0]);
    for (let i = 1; i < page.length; i++) expect(dateHappened(page[i - 1] as MonitorEvent)).toBeGreaterThanOrEqual(dateHappened(page[i] as MonitorEvent));
    const oldestShown = dateHappened(page[page.length - 1] as MonitorEvent);
    expect(matches.slice(1000).every((e) => dateHappened(e) <= oldestShown)).toBe(true);
  });

  it('keeps to the window, inclusive', () => {
    const q = v1({ start: String(nowSec(NOW) - 3600), end: String(nowSec(NOW) - 1800) });
    const got = model.monitor.matchV1(q);
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((e) => dateHappened(e) >= q.start && dateHappened(e) <= q.end)).toBe(true);
  });

  it('filters by priority, sources (any, case-insensitive) and tags (all)', () => {
    expect(model.monitor.matchV1(v1({ ...day, priority: 'low' })).every((e) => e.priority === 'low')).toBe(true);
    const sourced = model.monitor.matchV1(v1({ ...day, sources: 'Nagios,jenkins' }));
    expect(new Set(sourced.map((e) => e.sourceTypeName))).toEqual(new Set(['nagios', 'jenkins']));
    const tagged = model.monitor.matchV1(v1({ ...day, tags: 'role:db,env:prod' }));
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((e) => e.tags.includes('role:db') && e.tags.includes('env:prod'))).toBe(true);
  });

  it('leaves out members whose aggregate parent is outside the window unless unaggregated', () => {
    const parent = model.monitor.all().find((e) => e.isAggregate) as MonitorEvent;
    const window = { start: String(dateHappened(parent) + 1), end: String(dateHappened(parent) + 4 * 3600) };
    const members = model.monitor.all().filter((e) => e.relatedEventId === parent.id);
    const ids = (q: Record<string, string>) => new Set(model.monitor.matchV1(v1(q)).map((e) => e.id));
    const plain = ids(window);
    const all = ids({ ...window, unaggregated: 'true' });
    for (const m of members) {
      expect(plain.has(m.id)).toBe(false);
      expect(all.has(m.id)).toBe(true);
    }
  });

  it('returns aggregate parents unless exclude_aggregate, which also means unaggregated', () => {
    const q = v1({ ...day, exclude_aggregate: 'true' });
    expect(q.unaggregated).toBe(true);
    expect(model.monitor.matchV1(q).some((e) => e.isAggregate)).toBe(false);
    expect(model.monitor.matchV1(v1(day)).some((e) => e.isAggregate)).toBe(true);
  });

  it('pages by 1000 only when unaggregated', () => {
    const q = v1({ ...day, unaggregated: 'true', page: '1' });
    const matches = model.monitor.matchV1(q);
    expect(pageV1(matches, q)).toEqual(matches.slice(1000, 2000));
    const ignored = v1({ ...day, page: '1' });
    expect(pageV1(model.monitor.matchV1(ignored), ignored)[0]).toBe(model.monitor.matchV1(ignored)[0]);
  });
});

describe('events model: POST /api/v1/events', () => {
  const ok = { title: 'Deploy', text: 'Deployed checkout-api' };
  const check = (body: unknown) => validatePost(body, NOW, () => false);

  it('needs title and text', () => {
    expect(check({ text: 'x' })).toMatchObject({ ok: false, kind: 'invalid' });
    expect(check({ title: 'x' })).toMatchObject({ ok: false });
    expect(check('title')).toMatchObject({ ok: false });
    expect(check(ok)).toMatchObject({ ok: true, value: { title: 'Deploy', timestampMs: NOW, priority: 'normal', alertType: 'info' } });
  });

  it('takes text of 4000 characters and refuses 4001 (counted as characters)', () => {
    expect(check({ ...ok, text: 'x'.repeat(4000) }).ok).toBe(true);
    expect(check({ ...ok, text: 'é'.repeat(4000) }).ok).toBe(true);
    expect(check({ ...ok, text: '😀'.repeat(4000) }).ok).toBe(true);
    expect(check({ ...ok, text: 'x'.repeat(4001) })).toMatchObject({ ok: false, messages: [expect.stringContaining('4000')] });
  });

  it('takes aggregation_key of 100 characters and refuses 101', () => {
    expect(check({ ...ok, aggregation_key: 'k'.repeat(100) }).ok).toBe(true);
    expect(check({ ...ok, aggregation_key: 'k'.repeat(101) }).ok).toBe(false);
  });

  it('takes date_happened within 18 hours before and 2 hours after now, as an integer', () => {
    const s = nowSec(NOW);
    expect(check({ ...ok, date_happened: s - 18 * 3600 }).ok).toBe(true);
    expect(check({ ...ok, date_happened: s + 2 * 3600 }).ok).toBe(true);
    expect(check({ ...ok, date_happened: s - 19 * 3600 })).toMatchObject({ ok: false, messages: [expect.stringContaining('18 hours')] });
    expect(check({ ...ok, date_happened: s + 3 * 3600 }).ok).toBe(false);
    expect(check({ ...ok, date_happened: String(s) }).ok).toBe(false);
    expect(check({ ...ok, date_happened: s + 0.5 }).ok).toBe(false);
  });

  it('takes related_event_id only as an integer naming an event', () => {
    const id = 7_318_349_394_477_058_111n;
    expect(validatePost({ ...ok, related_event_id: id }, NOW, (x) => x === id)).toMatchObject({ ok: true, value: { relatedEventId: id } });
    expect(validatePost({ ...ok, related_event_id: id.toString() }, NOW, () => true).ok).toBe(false);
    expect(validatePost({ ...ok, related_event_id: 5 }, NOW, () => false).ok).toBe(false);
  });

  it('reports every problem at once', () => {
    const r = check({ text: 'x'.repeat(4001), priority: 'urgent' });
    expect(r.ok ? [] : r.messages).toHaveLength(3);
  });

  it('stores a posted event with a new id, and aggregates from the second member of a key', () => {
    const { model } = fresh();
    const a = value(model.monitor.post({ ...ok, aggregation_key: 'rollout-42', host: 'db-01' }));
    expect(a.tags).toEqual(expect.arrayContaining(['role:db']));
    expect(a.relatedEventId).toBeUndefined();
    const b = value(model.monitor.post({ ...ok, aggregation_key: 'rollout-42' }));
    expect(b.id > a.id).toBe(true);
    const parent = model.monitor.all().find((e) => e.isAggregate && e.aggregationKey === 'rollout-42');
    expect(parent).toBeDefined();
    expect(b.relatedEventId).toBe(parent?.id);
    expect(model.monitor.get(a.id)?.relatedEventId).toBe(parent?.id);
    const c = value(model.monitor.post({ ...ok, aggregation_key: 'rollout-42' }));
    expect(c.relatedEventId).toBe(parent?.id);
    expect(model.monitor.all().filter((e) => e.isAggregate && e.aggregationKey === 'rollout-42')).toHaveLength(1);
  });
});

describe('events model: GET /api/v2/events', () => {
  it('parses from/to in milliseconds (and now-relative), sort and limit', () => {
    expect(v2({ 'filter[from]': '1000', 'filter[to]': '2000' })).toMatchObject({ fromMs: 1000, toMs: 2000, sort: '-timestamp', limit: 10 });
    expect(v2({ 'filter[from]': 'now-15m' })).toMatchObject({ fromMs: NOW - 15 * 60_000, toMs: NOW });
    expect(v2({ 'page[limit]': '5000' }).limit).toBe(1000);
    expect(parseV2Query(query({ sort: 'date' }), NOW).ok).toBe(false);
    expect(parseV2Query(query({ 'page[limit]': '0' }), NOW).ok).toBe(false);
    expect(parseV2Query(query({ 'filter[from]': 'last tuesday' }), NOW).ok).toBe(false);
  });

  it('sorts by timestamp either way and keeps to the window', () => {
    const { model } = fresh();
    const q = v2({ 'filter[from]': String(NOW - 2 * HOUR), 'filter[to]': String(NOW - HOUR), sort: 'timestamp' });
    const asc = model.monitor.matchV2(q);
    expect(asc.length).toBeGreaterThan(10);
    expect(asc.every((e) => e.timestampMs >= q.fromMs && e.timestampMs <= q.toMs)).toBe(true);
    for (let i = 1; i < asc.length; i++) expect((asc[i] as MonitorEvent).timestampMs).toBeGreaterThanOrEqual((asc[i - 1] as MonitorEvent).timestampMs);
    const desc = model.monitor.matchV2({ ...q, sort: '-timestamp' });
    expect(desc.map((e) => e.id)).toEqual([...asc].reverse().map((e) => e.id));
  });

  it('filters by a small search syntax', () => {
    const { model } = fresh();
    const got = model.monitor.matchV2(v2({ 'filter[query]': 'source:nagios priority:normal' }));
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((e) => e.sourceTypeName === 'nagios' && e.priority === 'normal')).toBe(true);
  });

  for (const sort of ['timestamp', '-timestamp'] as const) {
    it(`walks by cursor (${sort}) returning every event once while events are posted between pages`, () => {
      const { model, clock } = fresh();
      const params = { 'filter[from]': String(NOW - 3 * HOUR), sort, 'page[limit]': '25' };
      const before = new Set(model.monitor.matchV2(v2(params)).map((e) => e.id));
      const seen: bigint[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 1000; i++) {
        const q = v2({ ...params, ...(cursor ? { 'page[cursor]': cursor } : {}) }, clock.now());
        const page = value(keyPager(model.monitor.matchV2(q), q));
        seen.push(...page.events.map((e) => e.id));
        cursor = page.after;
        if (!cursor) break;
        model.addMonitorEvent({ title: `posted ${i}`, text: 'between pages' });
        model.addMonitorEvent({ title: `late ${i}`, text: 'in the past', timestampMs: clock.now() - 2 * HOUR });
        void clock.advance(1000);
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of before) expect(seen).toContain(id);
    });
  }

  it('refuses a cursor it did not make or from another sort', () => {
    const { model } = fresh();
    const q = v2({ 'page[limit]': '2' });
    const first = value(keyPager(model.monitor.matchV2(q), q));
    expect(first.after && decodeCursor(first.after)).toMatchObject({ sort: '-timestamp' });
    expect(keyPager([], { ...q, cursor: 'nonsense' })).toMatchObject({ ok: false, kind: 'invalid' });
    expect(keyPager([], { ...q, sort: 'timestamp', cursor: first.after ?? '' })).toMatchObject({ ok: false });
  });
});

describe('events model: dependencies and IP ranges', () => {
  it('needs env, and answers the map of an environment', () => {
    expect(parseDependencyQuery(query({}), NOW)).toMatchObject({ ok: false, messages: ['env is required'] });
    expect(parseDependencyQuery(query({ env: 'prod', start: '10', end: '5' }), NOW).ok).toBe(false);
    const q = value(parseDependencyQuery(query({ env: 'prod' }), NOW));
    expect(q).toMatchObject({ start: nowSec(NOW) - 3600, end: nowSec(NOW) });
    const map = dependencyMap(q);
    expect(map['checkout-api']).toEqual({ calls: ['payments-api', 'postgres', 'redis'] });
    expect(Object.keys(dependencyMap({ ...q, env: 'staging' }))).toHaveLength(3);
    expect(dependencyMap({ ...q, env: 'nowhere' })).toEqual({});
    const eu = dependencyMap({ ...q, primaryTag: 'datacenter:eu1.prod' });
    expect(eu['checkout-api']).toBeUndefined();
    expect(eu['web-store']?.calls).toEqual(['auth-service', 'catalog-api']);
  });

  it('answers one service with its callers', () => {
    const q = value(parseDependencyQuery(query({ env: 'prod' }), NOW));
    expect(value(serviceDependency(q, 'checkout-api'))).toEqual({ name: 'checkout-api', calls: ['payments-api', 'postgres', 'redis'], called_by: ['web-store'] });
    expect(value(serviceDependency(q, 'postgres')).called_by).toEqual(['auth-service', 'catalog-api', 'checkout-api', 'payments-api']);
    expect(serviceDependency(q, 'nothing')).toMatchObject({ ok: false, kind: 'not-found' });
  });

  it('lists every prefix group, synthetics by location, modified in its form', () => {
    const r = ipRanges(NOW);
    expect(r.modified).toBe('2025-12-29-00-00-00');
    for (const g of IP_RANGE_GROUPS) {
      expect(r[g].prefixes_ipv4.length).toBeGreaterThan(0);
      expect(Array.isArray(r[g].prefixes_ipv6)).toBe(true);
    }
    expect(Object.keys(r.synthetics.prefixes_ipv4_by_location ?? {})).toHaveLength(3);
  });
});

describe('events model: platform streams', () => {
  const p = SEEDED_PLATFORM;

  it('seeds more than 300 recent events and older ones on the repository', () => {
    const { model } = fresh();
    const events = value(model.platform.repoEvents(p.owner, p.repo, undefined));
    expect(events.filter((e) => e.createdAtMs >= NOW - TIMELINE_AGE_MS).length).toBeGreaterThan(300);
    expect(events.some((e) => e.createdAtMs < NOW - TIMELINE_AGE_MS)).toBe(true);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['WatchEvent', 'PushEvent', 'CreateEvent']));
  });

  it('shows a timeline of at most 300 events of the past 30 days, newest first', () => {
    const { model } = fresh();
    const shown = timeline(value(model.platform.repoEvents(p.owner, p.repo, undefined)), NOW);
    expect(shown).toHaveLength(300);
    expect(shown.every((e) => e.createdAtMs >= NOW - TIMELINE_AGE_MS)).toBe(true);
    for (let i = 1; i < shown.length; i++) expect((shown[i - 1]?.createdAtMs ?? 0) >= (shown[i]?.createdAtMs ?? 0)).toBe(true);
    const user = value(model.platform.userEvents(p.username, undefined));
    const userShown = timeline(user, NOW);
    expect(userShown.length).toBeLessThan(300);
    expect(userShown.length).toBeLessThan(user.length);
  });

  it('pages with per_page defaults and a maximum of 100', () => {
    expect(paging(query({}), 15)).toEqual({ page: 1, perPage: 15 });
    expect(paging(query({ per_page: '500', page: '2' }), 30)).toEqual({ page: 2, perPage: 100 });
    expect(paging(query({ per_page: 'many', page: '0' }), 30)).toEqual({ page: 1, perPage: 30 });
    expect(pageOf([1, 2, 3, 4, 5], { page: 2, perPage: 2 })).toEqual([3, 4]);
  });

  it('keeps private events to those who may see them', () => {
    const { model } = fresh();
    const vault = model.platform.repoEvents(p.owner, p.privateRepo, undefined);
    expect(vault).toMatchObject({ ok: false, kind: 'not-found' });
    expect(value(model.platform.repoEvents(p.owner, p.privateRepo, p.username)).length).toBeGreaterThan(0);
    const asOwner = value(model.platform.userEvents(p.username, p.username));
    const asAnyone = value(model.platform.userEvents(p.username, undefined));
    expect(asOwner.length).toBeGreaterThan(asAnyone.length);
    expect(asAnyone.every((e) => e.public)).toBe(true);
    expect(model.platform.publicEvents().every((e) => e.public)).toBe(true);
    expect(model.platform.userOrgEvents(p.username, p.org, undefined)).toMatchObject({ ok: false, kind: 'forbidden' });
    expect(value(model.platform.userOrgEvents(p.username, p.org, p.username)).some((e) => !e.public)).toBe(true);
  });

  it('finds repositories case-insensitively, never with .git, and redirects a former name', () => {
    const { model } = fresh();
    expect(model.platform.findRepo('ACME-Tools', 'Widget')).toMatchObject({ renamed: false, repo: { name: 'widget' } });
    expect(model.platform.findRepo(p.owner, 'widget.git')).toBeUndefined();
    expect(model.platform.findRepo(p.owner, p.renamedRepo)).toMatchObject({ renamed: true, repo: { name: 'widget' } });
    const network = value(model.platform.networkEvents(p.owner, p.repo));
    expect(new Set(network.events.map((e) => e.repoId))).toEqual(new Set([3001, 3002]));
  });

  it('changes a stream version exactly when the stream gains an event', () => {
    const { model, clock } = fresh();
    const version = () => streamVersion(value(model.platform.repoEvents(p.owner, p.repo, undefined)));
    const other = () => streamVersion(value(model.platform.repoEvents(p.owner, 'gadget', undefined)));
    const [v0, o0] = [version(), other()];
    void clock.advance(DAY);
    expect(version()).toBe(v0);
    const added = value(model.addPlatformEvent({ owner: p.owner, repo: p.repo }));
    expect(added).toMatchObject({ type: 'WatchEvent', payload: { action: 'started' }, createdAtMs: NOW + DAY });
    expect(version()).not.toBe(v0);
    expect(other()).toBe(o0);
    expect(timeline(value(model.platform.repoEvents(p.owner, p.repo, undefined)), clock.now())[0]?.id).toBe(added.id);
  });
});

describe('events model: issue events', () => {
  const p = SEEDED_PLATFORM;

  it('lists the repository issue events newest first, without deleted issues', () => {
    const { model } = fresh();
    const events = value(model.platform.repoIssueEvents(p.owner, p.repo, undefined));
    expect(events.length).toBeGreaterThan(30);
    for (let i = 1; i < events.length; i++) expect((events[i - 1]?.createdAtMs ?? 0) >= (events[i]?.createdAtMs ?? 0)).toBe(true);
    const deleted = model.platform.firstIssueEventOf(p.owner, p.repo, p.deletedIssueNumber);
    expect(events.some((e) => e.id === deleted?.id)).toBe(false);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['closed', 'labeled', 'assigned', 'reopened']));
  });

  it('answers one event, 410 for a deleted issue, 404 for an unknown one', () => {
    const { model } = fresh();
    const first = model.platform.firstIssueEventOf(p.owner, p.repo, p.issueNumber);
    expect(value(model.platform.issueEvent(p.owner, p.repo, first?.id ?? 0, undefined)).issue.number).toBe(p.issueNumber);
    const deleted = model.platform.firstIssueEventOf(p.owner, p.repo, p.deletedIssueNumber);
    expect(model.platform.issueEvent(p.owner, p.repo, deleted?.id ?? 0, undefined)).toMatchObject({ ok: false, kind: 'gone' });
    expect(model.platform.issueEvent(p.owner, p.repo, 1, undefined)).toMatchObject({ ok: false, kind: 'not-found' });
    expect(model.platform.issueEvents(p.owner, p.repo, p.deletedIssueNumber, undefined)).toMatchObject({ ok: false, kind: 'gone' });
    const issue = value(model.platform.issueEvents(p.owner, p.repo, p.issueNumber, undefined));
    expect(issue.events.map((e) => e.event)).toEqual(['labeled', 'assigned', 'milestoned', 'referenced', 'closed']);
    expect(issue.issue).toMatchObject({ state: 'closed', stateReason: 'completed' });
  });
});
