import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { VirtualClock } from '../../../src/engine/clock.js';
import { parseJsonLossless } from '../../../src/targets/body-parse.js';
import { EVENTS_HANDLERS } from '../../../reference/events/server/handlers/index.js';
import { EVENTS_ROUTES } from '../../../reference/events/server/routes.js';
import { eventsReference, startEventsReference } from '../../../reference/events/server/reference-target.js';
import type { RunningEventsServer } from '../../../reference/events/server/server.js';
import { IP_RANGE_GROUPS } from '../../../reference/events/model/ip-ranges.js';

const NOW = Date.UTC(2026, 0, 1);
const HOUR = 3600_000;

let clock: VirtualClock;
let server: RunningEventsServer;
let vars: Record<string, unknown>;
let stop: () => Promise<void>;

beforeAll(async () => {
  clock = new VirtualClock(NOW);
  const ref = await startEventsReference({ clock });
  server = ref.server;
  vars = ref.vars;
  stop = ref.stop;
});
afterAll(() => stop());

interface Got {
  status: number;
  text: string;
  json: unknown;
  headers: Record<string, string | string[] | undefined>;
}

async function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Got> {
  const res = await request(url, {
    method: (init.method ?? 'GET') as 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text, json: text ? parseJsonLossless(text) : undefined, headers: res.headers };
}

const v = (name: string): string => String(vars[name]);
const keys = (): Record<string, string> => ({ 'MON-API-KEY': v('mon_api_key'), 'MON-APPLICATION-KEY': v('mon_app_key') });
const mon = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${v('mon_url')}${path}`, { ...init, headers: { ...keys(), ...init.headers } });
const plat = (path: string, headers: Record<string, string> = {}) => call(`${v('api_url')}${path}`, { headers: { accept: 'application/vnd.platform+json', 'X-Platform-Api-Version': '2022-11-28', ...headers } });
const auth = (): Record<string, string> => ({ authorization: `Bearer ${v('api_token')}` });
const sec = (ms: number): number => Math.floor(ms / 1000);
const obj = (x: unknown): Record<string, unknown> => x as Record<string, unknown>;
const arr = (x: unknown): Array<Record<string, unknown>> => x as Array<Record<string, unknown>>;

describe('reference events service: routing and target', () => {
  it('has a handler for every route, and none besides', () => {
    expect(Object.keys(EVENTS_HANDLERS).sort()).toEqual(EVENTS_ROUTES.map((r) => r.id).sort());
    expect(EVENTS_ROUTES).toHaveLength(18);
  });

  it('gives every variable the cases use', () => {
    for (const name of ['mon_url', 'ip_ranges_url', 'mon_api_key', 'mon_app_key', 'mon_app_key_no_events_read', 'apm_env', 'apm_service', 'api_url', 'api_token', 'owner', 'repo', 'org', 'username', 'issue_number', 'issue_event_id'])
      expect(vars[name], name).toBeDefined();
  });

  it('answers 404 and 405 in the shape of each service', async () => {
    expect(await mon('/api/v1/nothing')).toMatchObject({ status: 404, json: { errors: [expect.any(String)] } });
    const wrong = await mon('/api/v2/events', { method: 'DELETE' });
    expect(wrong).toMatchObject({ status: 405, headers: { allow: 'GET' } });
    expect(await plat('/nothing')).toMatchObject({ status: 404, json: { message: 'Not Found' } });
  });

  it('starts as the embedded reference on the given clock, with its user agent', async () => {
    const c = new VirtualClock(NOW + HOUR);
    const ref = await eventsReference.start({ clock: c });
    try {
      expect(ref.agent?.kind).toBe('reference-events');
      const added = await ref.agent?.perform('new-event', { stream: 'monitor', title: 'Hello' });
      expect(added).toMatchObject({ stream: 'monitor', date_happened: sec(NOW + HOUR) });
      await expect(ref.agent?.perform('dance', {})).rejects.toMatchObject({ code: 'SG_CONFIG' });
    } finally {
      await ref.stop();
    }
  });
});

describe('reference events service: monitoring keys', () => {
  it('answers 403 {errors:["Forbidden"]} without or with wrong keys, and needs events_read to read events', async () => {
    const window = `?start=${sec(NOW - HOUR)}&end=${sec(NOW)}`;
    expect(await call(`${v('mon_url')}/api/v1/events${window}`)).toMatchObject({ status: 403, json: { errors: ['Forbidden'] } });
    expect(await mon(`/api/v1/events${window}`, { headers: { 'MON-APPLICATION-KEY': 'nope' } })).toMatchObject({ status: 403, json: { errors: ['Forbidden'] } });
    expect(await mon(`/api/v1/events${window}`, { headers: { 'MON-API-KEY': 'nope' } })).toMatchObject({ status: 403 });
    const noRead = { 'MON-APPLICATION-KEY': v('mon_app_key_no_events_read') };
    expect(await mon(`/api/v1/events${window}`, { headers: noRead })).toMatchObject({ status: 403, json: { errors: ['Forbidden'] } });
    expect(await mon('/api/v2/events', { headers: noRead })).toMatchObject({ status: 403 });
    expect((await mon(`/api/v1/service_dependencies?env=prod`, { headers: noRead })).status).toBe(200);
    expect((await mon(`/api/v1/events${window}`)).status).toBe(200);
  });

  it('serves the IP ranges without keys', async () => {
    const r = await call(`${v('ip_ranges_url')}/`);
    expect(r.status).toBe(200);
    for (const g of IP_RANGE_GROUPS) expect(obj(r.json)[g]).toMatchObject({ prefixes_ipv4: expect.any(Array), prefixes_ipv6: expect.any(Array) });
    expect(obj(r.json)['modified']).toMatch(/^\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}$/);
  });
});

describe('reference events service: dependencies', () => {
  it('answers the map of an environment, 400 without env', async () => {
    const map = await mon(`/api/v1/service_dependencies?env=${v('apm_env')}`);
    expect(map.status).toBe(200);
    expect(obj(map.json)[v('apm_service')]).toEqual({ calls: ['payments-api', 'postgres', 'redis'] });
    expect(await mon('/api/v1/service_dependencies')).toMatchObject({ status: 400, json: { errors: ['env is required'] } });
  });

  it('answers one service with its callers, 404 for an unknown one', async () => {
    const one = await mon(`/api/v1/service_dependencies/${v('apm_service')}?env=${v('apm_env')}`);
    expect(one).toMatchObject({ status: 200, json: { name: 'checkout-api', calls: ['payments-api', 'postgres', 'redis'], called_by: ['web-store'] } });
    expect(await mon(`/api/v1/service_dependencies/${v('apm_service')}`)).toMatchObject({ status: 400 });
    expect(await mon(`/api/v1/service_dependencies/nothing?env=prod`)).toMatchObject({ status: 404, json: { errors: [expect.any(String)] } });
  });
});

describe('reference events service: GET /api/v1/events', () => {
  const window = (): string => `start=${sec(NOW - 18 * HOUR)}&end=${sec(NOW)}`;

  it('writes ids beyond 2^53 as exact JSON numbers equal to id_str', async () => {
    const r = await mon(`/api/v1/events?${window()}`);
    expect(r.status).toBe(200);
    const events = arr(obj(r.json)['events']);
    expect(events).toHaveLength(1000);
    for (const e of events.slice(0, 50)) {
      expect(typeof e['id']).toBe('bigint');
      expect(String(e['id'])).toBe(e['id_str']);
      expect(r.text).toContain(`"id":${String(e['id_str'])},`);
    }
    expect(obj(r.json)['status']).toBe('ok');
  });

  it('needs start and end, and filters by priority', async () => {
    expect(await mon(`/api/v1/events?end=${sec(NOW)}`)).toMatchObject({ status: 400, json: { errors: [expect.stringContaining('start')] } });
    const low = arr(obj((await mon(`/api/v1/events?${window()}&priority=low`)).json)['events']);
    expect(low.length).toBeGreaterThan(0);
    expect(low.every((e) => e['priority'] === 'low')).toBe(true);
  });

  it('pages past 1000 with page when unaggregated', async () => {
    const first = arr(obj((await mon(`/api/v1/events?${window()}&unaggregated=true`)).json)['events']);
    const second = arr(obj((await mon(`/api/v1/events?${window()}&unaggregated=true&page=1`)).json)['events']);
    expect(first).toHaveLength(1000);
    expect(second.length).toBeGreaterThan(0);
    const ids = new Set(first.map((e) => e['id_str']));
    expect(second.some((e) => ids.has(e['id_str']))).toBe(false);
  });
});

describe('reference events service: POST /api/v1/events', () => {
  it('stores an event and answers it with an exact id', async () => {
    const r = await mon('/api/v1/events', { method: 'POST', body: { title: 'Deploy', text: 'Done', tags: ['deploy'], priority: 'low', alert_type: 'success' } });
    expect(r).toMatchObject({ status: 200, json: { status: 'ok', event: { title: 'Deploy', priority: 'low', alert_type: 'success', date_happened: sec(NOW) } } });
    const e = obj(obj(r.json)['event']);
    expect(r.text).toContain(`"id":${String(e['id_str'])},`);
  });

  it('refuses with 400 {errors:[...]}: missing text, text of 4001, key of 101, date 19 hours old', async () => {
    const post = (body: unknown) => mon('/api/v1/events', { method: 'POST', body });
    expect(await post({ title: 'x' })).toMatchObject({ status: 400, json: { errors: [expect.stringContaining('text')] } });
    expect(await post({ title: 'x', text: 'y'.repeat(4001) })).toMatchObject({ status: 400 });
    expect((await post({ title: 'x', text: 'y'.repeat(4000) })).status).toBe(200);
    expect(await post({ title: 'x', text: 'y', aggregation_key: 'k'.repeat(101) })).toMatchObject({ status: 400 });
    expect(await post({ title: 'x', text: 'y', date_happened: sec(NOW - 19 * HOUR) })).toMatchObject({ status: 400 });
    expect(await mon('/api/v1/events', { method: 'POST', body: '{"title":' })).toMatchObject({ status: 400, json: { errors: [expect.any(String)] } });
  });

  it('takes a related_event_id beyond 2^53 exactly', async () => {
    const parent = arr(obj((await mon(`/api/v1/events?start=${sec(NOW - HOUR)}&end=${sec(NOW)}`)).json)['events'])[0];
    const id = String(parent?.['id_str']);
    const r = await mon('/api/v1/events', { method: 'POST', body: `{"title":"child","text":"of a parent","related_event_id":${id}}` });
    expect(r.status).toBe(200);
    expect(r.text).toContain(`"related_event_id":${id}`);
  });

  it('needs the API key to post', async () => {
    const r = await call(`${v('mon_url')}/api/v1/events`, { method: 'POST', body: { title: 'x', text: 'y' } });
    expect(r).toMatchObject({ status: 403, json: { errors: ['Forbidden'] } });
  });
});

describe('reference events service: GET /api/v2/events', () => {
  it('answers data, links and meta, sorted as asked', async () => {
    const q = `filter[from]=${NOW - 2 * HOUR}&filter[to]=${NOW}&sort=timestamp&page[limit]=5`;
    const r = await mon(`/api/v2/events?${q}`);
    expect(r.status).toBe(200);
    const body = obj(r.json);
    const data = arr(body['data']);
    expect(data).toHaveLength(5);
    expect(data[0]).toMatchObject({ type: 'event', attributes: { attributes: { status: expect.any(String), timestamp: expect.any(Number) } } });
    const times = data.map((d) => Number(obj(obj(d['attributes'])['attributes'])['timestamp']));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(obj(body['meta'])).toMatchObject({ status: 'done', page: { after: expect.any(String) } });
    expect(String(obj(body['links'])['next'])).toContain('page%5Bcursor%5D=');
  });

  it('walks by cursor, with events posted between pages, returning each event once', async () => {
    const from = NOW - 3 * HOUR;
    const base = `filter[from]=${from}&sort=-timestamp&page[limit]=40`;
    const expected = (await mon(`/api/v2/events?filter[from]=${from}&page[limit]=1000`)).json;
    const want = new Set(arr(obj(expected)['data']).map((d) => d['id']));
    const seen: unknown[] = [];
    let next: string | undefined = `${v('mon_url')}/api/v2/events?${base}`;
    for (let i = 0; next && i < 200; i++) {
      const page: Got = await call(next, { headers: keys() });
      expect(page.status).toBe(200);
      seen.push(...arr(obj(page.json)['data']).map((d) => d['id']));
      const link = obj(obj(page.json)['links'])['next'];
      next = typeof link === 'string' ? link : undefined;
      await mon('/api/v1/events', { method: 'POST', body: { title: `between ${i}`, text: 'new' } });
      await mon('/api/v1/events', { method: 'POST', body: { title: `older ${i}`, text: 'back-dated', date_happened: sec(NOW - HOUR) } });
    }
    expect(want.size).toBeGreaterThan(120);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of want) expect(seen).toContain(id);
    // the back-dated events posted while the walk had not reached their time are met once too
    expect(seen.length).toBeGreaterThan(want.size);
  });

  it('refuses a bad cursor, sort or limit with 400 {errors}', async () => {
    expect(await mon('/api/v2/events?page[cursor]=bogus')).toMatchObject({ status: 400, json: { errors: [expect.any(String)] } });
    expect(await mon('/api/v2/events?sort=newest')).toMatchObject({ status: 400 });
    expect(await mon('/api/v2/events?page[limit]=0')).toMatchObject({ status: 400 });
  });
});

describe('reference events service: platform', () => {
  const repoPath = (): string => `/repos/${v('owner')}/${v('repo')}`;

  it('answers every activity endpoint with events, ETag and X-Poll-Interval', async () => {
    const paths = [
      '/events',
      `/networks/${v('owner')}/${v('repo')}/events`,
      `/orgs/${v('org')}/events`,
      `${repoPath()}/events`,
      `/users/${v('username')}/events`,
      `/users/${v('username')}/events/public`,
      `/users/${v('username')}/received_events`,
      `/users/${v('username')}/received_events/public`,
    ];
    for (const path of paths) {
      const r = await plat(path);
      expect(r.status, path).toBe(200);
      expect(String(r.headers['etag']), path).toMatch(/^"[0-9a-f]{40}"$/);
      expect(r.headers['x-poll-interval'], path).toBe('60');
      const events = arr(r.json);
      expect(events.length, path).toBeGreaterThan(0);
      expect(events[0], path).toMatchObject({ id: expect.any(String), type: expect.any(String), actor: { login: expect.any(String) }, repo: { name: expect.any(String) }, public: true, created_at: expect.any(String) });
    }
    const dashboard = await plat(`/users/${v('username')}/events/orgs/${v('org')}`, auth());
    expect(dashboard.status).toBe(200);
    expect((await plat(`/users/${v('username')}/events/orgs/${v('org')}`)).status).toBe(403);
  });

  it('gives per_page 15 on /events and 30 elsewhere, at most 100, pages from 1', async () => {
    expect(arr((await plat('/events')).json)).toHaveLength(15);
    expect(arr((await plat(`${repoPath()}/events`)).json)).toHaveLength(30);
    expect(arr((await plat(`${repoPath()}/events?per_page=500`)).json)).toHaveLength(100);
    const p1 = arr((await plat(`${repoPath()}/events?per_page=10`)).json);
    const p1b = arr((await plat(`${repoPath()}/events?per_page=10&page=1`)).json);
    const p2 = arr((await plat(`${repoPath()}/events?per_page=10&page=2`)).json);
    expect(p1.map((e) => e['id'])).toEqual(p1b.map((e) => e['id']));
    expect(p2.some((e) => p1.some((x) => x['id'] === e['id']))).toBe(false);
  });

  it('shows at most 300 events, all of the past 30 days', async () => {
    const all: Array<Record<string, unknown>> = [];
    for (let page = 1; page <= 5; page++) all.push(...arr((await plat(`${repoPath()}/events?per_page=100&page=${page}`)).json));
    expect(all).toHaveLength(300);
    expect(all.every((e) => Date.parse(String(e['created_at'])) >= clock.now() - 30 * 24 * HOUR)).toBe(true);
  });

  it('answers 304 for the current ETag, and 200 with a new ETag once the stream gains an event', async () => {
    const path = `${repoPath()}/events`;
    const first = await plat(path);
    const etag = String(first.headers['etag']);
    const again = await plat(path, { 'if-none-match': etag });
    expect(again).toMatchObject({ status: 304, text: '' });
    expect(again.headers['etag']).toBe(etag);
    expect(again.headers['x-poll-interval']).toBe('60');
    await clock.advance(60_000);
    expect((await plat(path, { 'if-none-match': etag })).status).toBe(304);
    const added = await server.agent.perform('new-event', { stream: 'platform', owner: v('owner'), repo: v('repo') });
    const after = await plat(path, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers['etag']).not.toBe(etag);
    expect(arr(after.json)[0]).toMatchObject({ id: added['id'], type: 'WatchEvent', payload: { action: 'started' } });
  });

  it('answers 404 for an unknown repository, 301 for a renamed network repository', async () => {
    expect(await plat('/repos/acme-tools/nothing/events')).toMatchObject({ status: 404, json: { message: 'Not Found' } });
    expect((await plat(`/repos/${v('owner')}/${v('repo')}.git/events`)).status).toBe(404);
    expect((await plat(`/repos/${v('owner').toUpperCase()}/${v('repo')}/events`)).status).toBe(200);
    const moved = await plat(`/networks/${v('owner')}/${v('renamed_repo')}/events?per_page=5`);
    expect(moved.status).toBe(301);
    expect(moved.headers['location']).toBe(`${v('api_url')}/networks/${v('owner')}/${v('repo')}/events?per_page=5`);
  });

  it('shows private events only with the user token, and refuses an unknown token', async () => {
    const mine = arr((await plat(`/users/${v('username')}/events?per_page=100`, auth())).json);
    const anyone = arr((await plat(`/users/${v('username')}/events?per_page=100`)).json);
    expect(mine.some((e) => e['public'] === false)).toBe(true);
    expect(anyone.every((e) => e['public'] === true)).toBe(true);
    expect((await plat(`/repos/${v('owner')}/${v('private_repo')}/events`)).status).toBe(404);
    expect((await plat(`/repos/${v('owner')}/${v('private_repo')}/events`, auth())).status).toBe(200);
    expect((await plat('/events', { authorization: 'Bearer not-a-token' })).status).toBe(403);
  });

  it('answers issue events: the repository list with issues, one event, an issue timeline, 410 and 422', async () => {
    const list = await plat(`${repoPath()}/issues/events`);
    expect(list.status).toBe(200);
    expect(arr(list.json)).toHaveLength(30);
    expect(arr(list.json)[0]).toMatchObject({ id: expect.any(Number), node_id: expect.any(String), event: expect.any(String), actor: { login: expect.any(String), site_admin: false }, issue: { number: expect.any(Number) } });
    expect(list.headers['etag']).toBeDefined();
    const one = await plat(`${repoPath()}/issues/events/${v('issue_event_id')}`);
    expect(one).toMatchObject({ status: 200, json: { id: Number(v('issue_event_id')), event: 'labeled', label: { name: 'bug', color: 'd73a4a' }, issue: { number: Number(v('issue_number')) } } });
    const timelineOf = await plat(`${repoPath()}/issues/${v('issue_number')}/events`);
    expect(arr(timelineOf.json).map((e) => e['event'])).toEqual(['labeled', 'assigned', 'milestoned', 'referenced', 'closed']);
    expect(arr(timelineOf.json)[0]).not.toHaveProperty('issue');
    expect(arr(timelineOf.json)[4]).toMatchObject({ performed_via_platform_app: { slug: 'ship-it', permissions: { issues: 'write' } } });
    expect((await plat(`${repoPath()}/issues/events/${v('deleted_issue_event_id')}`)).status).toBe(410);
    expect((await plat(`${repoPath()}/issues/${v('deleted_issue_number')}/events`)).status).toBe(410);
    expect((await plat(`${repoPath()}/issues/events/1`)).status).toBe(404);
    expect(await plat(`${repoPath()}/issues/events?per_page=lots`)).toMatchObject({ status: 422, json: { message: 'Validation Failed' } });
  });
});

describe('reference events service: agent bridge', () => {
  it('is served only when asked for', async () => {
    const r = await call(`${v('mon_url')}/__specgate/agent/new-event`, { method: 'POST', body: { stream: 'monitor' } });
    expect(r.status).toBe(404);
    const bridged = await startEventsReference({ clock: new VirtualClock(NOW), agentBridge: true });
    try {
      const url = String(bridged.vars['mon_url']);
      const made = await call(`${url}/__specgate/agent/new-event`, { method: 'POST', body: { stream: 'platform', owner: 'acme-tools', repo: 'gadget' } });
      expect(made).toMatchObject({ status: 200, json: { stream: 'platform', type: 'WatchEvent', repo: 'acme-tools/gadget' } });
    } finally {
      await bridged.stop();
    }
  });
});
