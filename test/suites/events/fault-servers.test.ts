import { request } from 'undici';
import { VirtualClock } from '../../../src/engine/clock.js';
import { parseJsonLossless } from '../../../src/targets/body-parse.js';
import { eventsVars } from '../../../reference/events/server/reference-target.js';
import { startEventsServer, type EventsServerOptions, type RunningEventsServer } from '../../../reference/events/server/server.js';
import { describeFaultProbes } from '../../helpers/fault-probes.js';
import { FAULTS } from '../../fixtures/events/faults/faults.js';

const NOW = Date.UTC(2026, 0, 1);
const HOUR = 3600_000;
const sec = (ms: number): number => Math.floor(ms / 1000);

interface Got {
  status: number;
  json: unknown;
  headers: Record<string, string | string[] | undefined>;
}

type Row = Record<string, unknown>;
const obj = (x: unknown): Row => (x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Row) : {});
const rows = (x: unknown): Row[] => (Array.isArray(x) ? (x as Row[]) : []);

/** A client of one running service, with the variables a profile would give. */
function client(s: RunningEventsServer) {
  const vars = eventsVars(s);
  const v = (name: string): string => String(vars[name]);
  const send = async (url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Got> => {
    const res = await request(url, {
      method: method as 'GET',
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: text ? parseJsonLossless(text) : undefined, headers: res.headers };
  };
  const keys = { 'MON-API-KEY': v('mon_api_key'), 'MON-APPLICATION-KEY': v('mon_app_key') };
  return {
    v,
    /** A monitoring request, with both keys unless `headers` says otherwise. */
    mon: (path: string, headers: Record<string, string> = keys, body?: unknown) => send(`${v('mon_url')}${path}`, body === undefined ? 'GET' : 'POST', headers, body),
    post: (body: unknown) => send(`${v('mon_url')}/api/v1/events`, 'POST', keys, body),
    plat: (path: string, headers: Record<string, string> = {}) => send(`${v('api_url')}${path}`, 'GET', { accept: 'application/vnd.platform+json', ...headers }),
    repo: `/repos/${v('owner')}/${v('repo')}`,
    ranges: () => send(`${v('ip_ranges_url')}/`, 'GET', {}),
  };
}

type Client = ReturnType<typeof client>;

const v1 = async (c: Client, query: string): Promise<Row[]> => rows(obj((await c.mon(`/api/v1/events?${query}`)).json)['events']);
const v2 = async (c: Client, query: string): Promise<Row[]> => rows(obj((await c.mon(`/api/v2/events?${query}`)).json)['data']);
const lastHours = (h: number, endAgo = 0): string => `start=${sec(NOW - h * HOUR)}&end=${sec(NOW - endAgo * HOUR)}`;
const inner = (d: Row): Row => obj(obj(d['attributes'])['attributes']);

/**
 * One observation per fault, true when the service shows the fault. Each runs against the clean
 * reference (must be false) and against the fault's service (must be true), so a probe that
 * cannot tell them apart fails here.
 */
const PROBES: Record<string, (c: Client, s: RunningEventsServer) => Promise<boolean>> = {
  'no-etag': async (c) => (await c.plat(`${c.repo}/events`)).headers['etag'] === undefined,
  'no-poll-interval': async (c) => (await c.plat(`${c.repo}/events`)).headers['x-poll-interval'] === undefined,
  'never-not-modified': async (c) => {
    const etag = String((await c.plat(`${c.repo}/events`)).headers['etag']);
    return (await c.plat(`${c.repo}/events`, { 'if-none-match': etag })).status === 200;
  },
  'not-modified-after-new-event': async (c, s) => {
    const etag = String((await c.plat(`${c.repo}/events`)).headers['etag']);
    await s.agent.perform('new-event', { stream: 'platform', owner: c.v('owner'), repo: c.v('repo') });
    return (await c.plat(`${c.repo}/events`, { 'if-none-match': etag })).status === 304;
  },
  'public-events-per-page-30': async (c) => rows((await c.plat('/events')).json).length === 30,
  'per-page-above-100': async (c) => rows((await c.plat(`${c.repo}/events?per_page=150`)).json).length === 150,
  'timeline-over-300': async (c) => rows((await c.plat(`${c.repo}/events?per_page=100&page=4`)).json).length > 0,
  'timeline-older-than-30-days': async (c) => {
    const all: Row[] = [];
    for (let page = 1; page <= 4; page++) all.push(...rows((await c.plat(`/users/${c.v('username')}/events?per_page=100&page=${page}`)).json));
    return all.some((e) => Date.parse(String(e['created_at'])) < NOW - 30 * 24 * HOUR);
  },
  'deleted-issue-404': async (c) => (await c.plat(`${c.repo}/issues/events/${c.v('deleted_issue_event_id')}`)).status === 404,
  'issue-event-without-issue': async (c) => !('issue' in obj((await c.plat(`${c.repo}/issues/events/${c.v('issue_event_id')}`)).json)),
  'push-payload-without-head': async (c) => rows((await c.plat(`${c.repo}/events?per_page=100`)).json).some((e) => e['type'] === 'PushEvent' && obj(e['payload'])['head'] === undefined),
  'user-private-events-public': async (c) => rows((await c.plat(`/users/${c.v('username')}/events?per_page=100`)).json).some((e) => e['public'] === false),

  'ip-ranges-no-webhooks': async (c) => !('webhooks' in obj((await c.ranges()).json)),
  'deps-env-optional': async (c) => (await c.mon('/api/v1/service_dependencies')).status === 200,
  'deps-one-no-callers': async (c) => rows(obj((await c.mon(`/api/v1/service_dependencies/${c.v('apm_service')}?env=${c.v('apm_env')}`)).json)['called_by']).length === 0,
  'errors-not-array': async (c) => !Array.isArray(obj((await c.mon(`/api/v1/events?end=${sec(NOW)}`)).json)['errors']),
  'keys-not-required': async (c) => (await c.mon(`/api/v1/events?${lastHours(1)}`, {})).status === 200,
  'events-read-not-checked': async (c) => (await c.mon(`/api/v1/events?${lastHours(1)}`, { 'MON-API-KEY': c.v('mon_api_key'), 'MON-APPLICATION-KEY': c.v('mon_app_key_no_events_read') })).status === 200,
  'ip-ranges-need-keys': async (c) => (await c.ranges()).status === 403,

  'v1-over-1000': async (c) => (await v1(c, lastHours(18))).length > 1000,
  'v1-ignores-priority': async (c) => (await v1(c, `${lastHours(6)}&priority=low`)).some((e) => e['priority'] !== 'low'),
  'v1-ignores-sources': async (c) => (await v1(c, `${lastHours(6)}&sources=nagios`)).some((e) => e['source_type_name'] !== 'nagios'),
  'v1-ignores-tags': async (c) => (await v1(c, `${lastHours(6)}&tags=role:db`)).some((e) => !(Array.isArray(e['tags']) && e['tags'].includes('role:db'))),
  'v1-ignores-exclude-aggregate': async (c) => (await v1(c, `${lastHours(6)}&exclude_aggregate=true`)).some((e) => e['is_aggregate'] === true),
  'v1-always-unaggregated': async (c, s) => {
    const parent = s.model.monitor.all().find((e) => e.isAggregate);
    if (!parent) return false;
    const from = sec(parent.timestampMs) + 1;
    const got = await v1(c, `start=${from}&end=${from + 4 * 3600}`);
    return got.some((e) => String(e['related_event_id']) === parent.id.toString());
  },
  'v1-page-ignored': async (c) => {
    const first = await v1(c, `${lastHours(18)}&unaggregated=true`);
    const second = await v1(c, `${lastHours(18)}&unaggregated=true&page=1`);
    return first[0]?.['id_str'] === second[0]?.['id_str'];
  },
  'v1-ignores-end': async (c) => (await v1(c, lastHours(14, 10))).some((e) => Number(e['date_happened']) > sec(NOW - 10 * HOUR)),
  'v1-start-optional': async (c) => (await c.mon(`/api/v1/events?end=${sec(NOW)}`)).status === 200,
  'id-as-double': async (c) => {
    const listed = (await v1(c, lastHours(1))).some((e) => String(e['id']) !== e['id_str']);
    const posted = obj(obj((await c.post({ title: 't', text: 'x' })).json)['event']);
    return listed && String(posted['id']) !== posted['id_str'];
  },
  'text-4001-accepted': async (c) => String(obj(obj((await c.post({ title: 't', text: 'x'.repeat(4001) })).json)['event'])['text']).length === 4001,
  'aggregation-key-101-accepted': async (c) => (await c.post({ title: 't', text: 'x', aggregation_key: 'k'.repeat(101) })).status === 200,
  'date-19h-accepted': async (c) => (await c.post({ title: 't', text: 'x', date_happened: sec(NOW - 19 * HOUR) })).status === 200,
  'title-optional': async (c) => (await c.post({ text: 'x' })).status === 200,
  'v2-offset-cursor': async (c) => {
    const q = `filter[from]=${NOW - 2 * HOUR}&sort=-timestamp&page[limit]=5`;
    const first = await c.mon(`/api/v2/events?${q}`);
    const after = String(obj(obj(obj(first.json)['meta'])['page'])['after']);
    await c.post({ title: 'new', text: 'posted between pages' });
    const second = await v2(c, `${q}&page[cursor]=${encodeURIComponent(after)}`);
    const ids = new Set(rows(obj(first.json)['data']).map((d) => d['id']));
    return second.some((d) => ids.has(d['id']));
  },
  'v2-sort-ignored': async (c) => {
    const got = (await v2(c, `filter[from]=${NOW - 2 * HOUR}&sort=timestamp&page[limit]=20`)).map((d) => Number(inner(d)['timestamp']));
    return (got[0] ?? 0) > (got[got.length - 1] ?? 0);
  },
  'v2-limit-ignored': async (c) => (await v2(c, `filter[from]=${NOW - 6 * HOUR}&page[limit]=25`)).length !== 25,
  'v2-time-filter-ignored': async (c) => (await v2(c, `filter[from]=${NOW - HOUR}&sort=timestamp&page[limit]=50`)).some((d) => Number(inner(d)['timestamp']) < NOW - HOUR),

  'v2-list-without-version': async (c) => (await c.mon('/api/v2/events')).status === 404,
  'deps-calls-as-text': async (c) => typeof obj(obj((await c.mon(`/api/v1/service_dependencies?env=${c.v('apm_env')}`)).json)[c.v('apm_service')])['calls'] === 'string',
  'v1-list-without-status': async (c) => !('status' in obj((await c.mon(`/api/v1/events?${lastHours(1)}`)).json)),
  'post-without-status': async (c) => !('status' in obj((await c.post({ title: 't', text: 'x' })).json)),
  'posted-not-in-v1-list': async (c) => {
    const id = obj(obj((await c.post({ title: 't', text: 'x' })).json)['event'])['id_str'];
    return !(await v1(c, `start=${sec(NOW) - 60}&end=${sec(NOW) + 60}`)).some((e) => e['id_str'] === id);
  },
  'aggregation-key-ignored': async (c) => {
    const aggregates = async (): Promise<number> => (await v1(c, `start=${sec(NOW) - 60}&end=${sec(NOW) + 60}`)).filter((e) => e['is_aggregate'] === true).length;
    const before = await aggregates();
    for (let i = 0; i < 2; i++) await c.post({ title: `grouped ${i}`, text: 'x', aggregation_key: 'probe-group' });
    return (await aggregates()) === before;
  },
  'related-event-refused': async (c) => {
    const parent = String(obj(obj((await c.post({ title: 'parent', text: 'x' })).json)['event'])['id_str']);
    // the parent's int64 id written as digits: JSON.stringify would round it
    const res = await request(`${c.v('mon_url')}/api/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'MON-API-KEY': c.v('mon_api_key'), 'MON-APPLICATION-KEY': c.v('mon_app_key') },
      body: `{"title":"child","text":"x","related_event_id":${parent}}`,
    });
    await res.body.text();
    return res.statusCode === 400;
  },
  'v2-item-type-wrong': async (c) => (await v2(c, 'page[limit]=3')).some((d) => d['type'] !== 'event'),
  'v2-next-link-first-page': async (c) => {
    const first = obj((await c.mon('/api/v2/events?page[limit]=2')).json);
    const next = new URL(String(obj(first['links'])['next']));
    const followed = rows(obj((await c.mon(`${next.pathname}${next.search}`)).json)['data']);
    return followed.map((d) => d['id']).join() === rows(first['data']).map((d) => d['id']).join();
  },
  'v2-monitor-id-zero': async (c) => {
    await c.post({ title: 'no monitor here', text: 'x' });
    const mine = (await v2(c, `filter[from]=${NOW - 60_000}&filter[to]=${NOW + 60_000}&page[limit]=1000`)).find((d) => inner(d)['title'] === 'no monitor here');
    return mine !== undefined && inner(mine)['monitor_id'] === 0;
  },
  'event-actor-id-text': async (c) => typeof obj(rows((await c.plat(`${c.repo}/events`)).json)[0]?.['actor'])['id'] === 'string',
  'org-events-without-org': async (c) => rows((await c.plat(`/orgs/${c.v('org')}/events`)).json).some((e) => e['org'] === undefined),
  'issue-event-without-node-id': async (c) => !('node_id' in obj((await c.plat(`${c.repo}/issues/events/${c.v('issue_event_id')}`)).json)),
  'public-user-events-private': async (c) => rows((await c.plat(`/users/${c.v('username')}/events/public?per_page=100`, { authorization: `Bearer ${c.v('api_token')}` })).json).some((e) => e['public'] === false),
  'user-org-events-to-anyone': async (c) => (await c.plat(`/users/${c.v('username')}/events/orgs/${c.v('org')}`)).status === 200,
  'repo-events-need-token': async (c) => (await c.plat(`${c.repo}/events`)).status === 403,
  'owner-case-sensitive': async (c) => (await c.plat(`/repos/${c.v('owner').toUpperCase()}/${c.v('repo')}/issues/events`)).status === 404,
  'unknown-issue-event-gone': async (c) => (await c.plat(`${c.repo}/issues/events/999999999`)).status === 410,
  'issue-events-page-two-first': async (c) => rows((await c.plat(`${c.repo}/issues/events?per_page=5`)).json)[0]?.['id'] !== rows((await c.plat(`${c.repo}/issues/events?per_page=5&page=1`)).json)[0]?.['id'],
  'issue-events-pages-of-30': async (c) => rows((await c.plat(`${c.repo}/issues/events?per_page=2&page=2`)).json)[0]?.['id'] !== rows((await c.plat(`${c.repo}/issues/events?per_page=3&page=1`)).json)[2]?.['id'],
  'version-header-refused': async (c) => (await c.plat('/events', { 'X-Platform-Api-Version': '2022-11-28' })).status === 400,
  'anonymous-accept-refused': async (c) => (await c.plat('/events')).status === 406,
  'network-owner-case-sensitive': async (c) => (await c.plat(`/networks/${c.v('owner').toUpperCase()}/${c.v('repo')}/events`)).status === 404,
  'public-events-stale-etag': async (c, s) => {
    const etag = String((await c.plat('/events')).headers['etag']);
    await s.agent.perform('new-event', { stream: 'platform', owner: c.v('owner'), repo: c.v('repo') });
    return (await c.plat('/events', { 'if-none-match': etag })).status === 304;
  },
  'issue-events-fail': async (c) => (await c.plat(`${c.repo}/issues/${c.v('issue_number')}/events`)).status === 500,
  'app-key-not-checked': async (c) => (await c.mon(`/api/v1/events?${lastHours(1)}`, { 'MON-API-KEY': c.v('mon_api_key') })).status === 200,
  'api-key-not-checked': async (c) => (await c.mon(`/api/v1/events?${lastHours(1)}`, { 'MON-APPLICATION-KEY': c.v('mon_app_key') })).status === 200,
  'too-many-requests-plain': async (c) => !Array.isArray(obj((await c.mon(`/api/v1/events?${lastHours(1)}`, { 'MON-API-KEY': c.v('mon_api_key_rate_limited'), 'MON-APPLICATION-KEY': c.v('mon_app_key') })).json)['errors']),
  'markdown-refused': async (c) => (await c.post({ title: 't', text: '%%% \n**x**\n %%%' })).status === 400,
  'host-tags-not-applied': async (c) => {
    const posted = obj(obj((await c.post({ title: 'hosted', text: 'x', host: c.v('mon_host') })).json)['event']);
    const back = (await v1(c, `start=${sec(NOW) - 60}&end=${sec(NOW) + 60}&unaggregated=true`)).find((e) => e['id_str'] === posted['id_str']);
    const tags = back?.['tags'];
    return !(Array.isArray(tags) && tags.includes(c.v('mon_host_tag')));
  },
  'deps-window-refused': async (c) => (await c.mon(`/api/v1/service_dependencies?env=${c.v('apm_env')}&${lastHours(1)}`)).status === 400,
  'public-events-ignore-if-none-match': async (c) => (await c.plat('/events', { 'if-none-match': String((await c.plat('/events')).headers['etag']) })).status === 200,
  'network-events-ignore-if-none-match': async (c) => {
    const path = `/networks/${c.v('owner')}/${c.v('repo')}/events`;
    return (await c.plat(path, { 'if-none-match': String((await c.plat(path)).headers['etag']) })).status === 200;
  },
  'network-repo-case-sensitive': async (c) => (await c.plat(`/networks/${c.v('owner')}/${c.v('repo_other_case')}/events`)).status === 404,
  'received-public-events-need-token': async (c) => (await c.plat(`/users/${c.v('username')}/received_events/public`)).status === 401,
  'user-private-events-hidden': async (c) => !rows((await c.plat(`/users/${c.v('username')}/events?per_page=100`, { authorization: `Bearer ${c.v('api_token')}` })).json).some((e) => e['public'] === false),
  'issue-milestone-without-due-on': async (c) => rows((await c.plat(`${c.repo}/issues/events?per_page=100`)).json).some((e) => obj(obj(e['issue'])['milestone'])['url'] !== undefined && !('due_on' in obj(obj(e['issue'])['milestone']))),
  'issue-event-app-without-slug': async (c) => rows((await c.plat(`${c.repo}/issues/events?per_page=100`)).json).some((e) => e['performed_via_platform_app'] && !('slug' in obj(e['performed_via_platform_app']))),
  'issue-event-actor-without-html-url': async (c) => !('html_url' in obj(obj((await c.plat(`${c.repo}/issues/events/${c.v('issue_event_id')}`)).json)['actor'])),
  'issue-events-user-without-login': async (c) => rows((await c.plat(`${c.repo}/issues/${c.v('issue_number')}/events`)).json).some((e) => !('login' in obj(e['actor']))),
  'deleted-issue-events-empty': async (c) => (await c.plat(`${c.repo}/issues/${c.v('deleted_issue_number')}/events`)).status === 200,
  'deleted-issue-event-not-found': async (c) => (await c.plat(`${c.repo}/issues/events/${c.v('deleted_issue_event_id')}`)).status === 404,
  'network-renamed-not-moved': async (c) => (await c.plat(`/networks/${c.v('owner')}/${c.v('renamed_repo')}/events`)).status === 200,
  'org-events-per-page-15': async (c) => rows((await c.plat(`/orgs/${c.v('org')}/events`)).json).length === 15,
  'org-timeline-over-300': async (c) => {
    let seen = 0;
    for (let page = 1; page <= 5; page++) seen += rows((await c.plat(`/orgs/${c.v('org')}/events?per_page=100&page=${page}`)).json).length;
    return seen > 300;
  },
  'user-public-timeline-older-than-30-days': async (c) => {
    const events = rows((await c.plat(`/users/${c.v('username')}/events/public?per_page=100&page=1`)).json).concat(rows((await c.plat(`/users/${c.v('username')}/events/public?per_page=100&page=2`)).json));
    return events.some((e) => Date.parse(String(e['created_at'])) < NOW - 30 * 24 * HOUR);
  },
  'org-events-page-two-first': async (c) => rows((await c.plat(`/orgs/${c.v('org')}/events?per_page=5`)).json)[0]?.['id'] !== rows((await c.plat(`/orgs/${c.v('org')}/events?per_page=5&page=1`)).json)[0]?.['id'],
  'network-per-page-above-100': async (c) => rows((await c.plat(`/networks/${c.v('owner')}/${c.v('repo')}/events?per_page=150`)).json).length > 100,
  'issue-event-no-etag': async (c) => (await c.plat(`${c.repo}/issues/events/${c.v('issue_event_id')}`)).headers['etag'] === undefined,
  'org-events-no-poll-interval': async (c) => (await c.plat(`/orgs/${c.v('org')}/events`)).headers['x-poll-interval'] === undefined,
};

describeFaultProbes(
  'planted-fault events services show their fault',
  FAULTS,
  Object.fromEntries(Object.entries(PROBES).map(([name, probe]) => [name, (s: RunningEventsServer) => probe(client(s), s)])),
  (options) => startEventsServer({ ...(options ?? {}), clock: new VirtualClock(NOW) }),
);
