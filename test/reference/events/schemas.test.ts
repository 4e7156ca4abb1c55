import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { SpecgateError } from '../../../src/errors.js';
import { VirtualClock } from '../../../src/engine/clock.js';
import { loadApiTable } from '../../../src/engine/api/load-table.js';
import { schemaProblems } from '../../../src/engine/api/schema-validate.js';
import { responseSchema, type ApiTable } from '../../../src/engine/api/table.js';
import { parseJsonLossless } from '../../../src/targets/body-parse.js';
import { fromRoot } from '../../../src/paths.js';
import { startEventsReference } from '../../../reference/events/server/reference-target.js';
import { EVENTS_ROUTES } from '../../../reference/events/server/routes.js';

const NOW = Date.UTC(2026, 0, 1);
const sec = (ms: number): number => Math.floor(ms / 1000);

/** The suite's API table (suites/events/api.yaml) with its schemas, loaded by the engine's loader. */
function eventsTable(): ApiTable {
  const dir = fromRoot('suites', 'events');
  const schemas = new Map<string, object>();
  for (const file of readdirSync(join(dir, 'schemas')).filter((f) => f.endsWith('.json')))
    schemas.set(`events/${file.slice(0, -'.json'.length)}`, JSON.parse(readFileSync(join(dir, 'schemas', file), 'utf8')) as object);
  const errors: SpecgateError[] = [];
  const table = loadApiTable({ name: 'events', dir }, { hasSchema: (n) => schemas.has(n), schema: (n) => schemas.get(n) }, (f) => f, errors);
  if (!table || errors.length) throw new TypeError(`the events API table does not load: ${errors.map((e) => e.message).join('; ')}`);
  return table;
}

let table: ApiTable;
let vars: Record<string, unknown>;
let stop: () => Promise<void>;

beforeAll(async () => {
  table = eventsTable();
  const ref = await startEventsReference({ clock: new VirtualClock(NOW) });
  vars = ref.vars;
  stop = ref.stop;
});
afterAll(() => stop());

const v = (name: string): string => String(vars[name]);

/** A request per operation (and some refusals), as the suite's cases send them. */
function samples(): Array<{ id: string; url: string; method?: string; headers?: Record<string, string>; body?: unknown; status: number }> {
  const keys = { 'MON-API-KEY': v('mon_api_key'), 'MON-APPLICATION-KEY': v('mon_app_key') };
  const plat = { authorization: `Bearer ${v('api_token')}`, 'x-platform-api-version': '2022-11-28', accept: 'application/vnd.platform+json' };
  const m = v('mon_url');
  const a = v('api_url');
  const repo = `${a}/repos/${v('owner')}/${v('repo')}`;
  return [
    { id: 'serviceDependencies', url: `${m}/api/v1/service_dependencies?env=${v('apm_env')}`, headers: keys, status: 200 },
    { id: 'serviceDependencies', url: `${m}/api/v1/service_dependencies`, headers: keys, status: 400 },
    { id: 'serviceDependency', url: `${m}/api/v1/service_dependencies/${v('apm_service')}?env=${v('apm_env')}`, headers: keys, status: 200 },
    { id: 'ipRanges', url: `${v('ip_ranges_url')}/`, status: 200 },
    { id: 'listEventsV1', url: `${m}/api/v1/events?start=${sec(NOW) - 86_400}&end=${sec(NOW)}`, headers: keys, status: 200 },
    { id: 'listEventsV1', url: `${m}/api/v1/events?end=${sec(NOW)}`, headers: keys, status: 400 },
    { id: 'listEventsV1', url: `${m}/api/v1/events?start=0&end=${sec(NOW)}`, status: 403 },
    { id: 'listEventsV2', url: `${m}/api/v2/events?page[limit]=200`, headers: keys, status: 200 },
    { id: 'postEvent', url: `${m}/api/v1/events`, method: 'POST', headers: keys, body: { title: 'Deploy', text: 'done', tags: ['a:b'], aggregation_key: 'k' }, status: 200 },
    { id: 'postEvent', url: `${m}/api/v1/events`, method: 'POST', headers: keys, body: { title: 'Deploy' }, status: 400 },
    { id: 'publicEvents', url: `${a}/events?per_page=100`, headers: plat, status: 200 },
    { id: 'networkEvents', url: `${a}/networks/${v('owner')}/${v('repo')}/events?per_page=100`, headers: plat, status: 200 },
    { id: 'orgEvents', url: `${a}/orgs/${v('org')}/events?per_page=100`, headers: plat, status: 200 },
    { id: 'repoEvents', url: `${repo}/events?per_page=100`, headers: plat, status: 200 },
    { id: 'userEvents', url: `${a}/users/${v('username')}/events?per_page=100`, headers: plat, status: 200 },
    { id: 'userOrgEvents', url: `${a}/users/${v('username')}/events/orgs/${v('org')}?per_page=100`, headers: plat, status: 200 },
    { id: 'userPublicEvents', url: `${a}/users/${v('username')}/events/public`, headers: plat, status: 200 },
    { id: 'receivedEvents', url: `${a}/users/${v('username')}/received_events?per_page=100`, headers: plat, status: 200 },
    { id: 'receivedPublicEvents', url: `${a}/users/${v('username')}/received_events/public`, headers: plat, status: 200 },
    { id: 'repoIssueEvents', url: `${repo}/issues/events?per_page=100`, headers: plat, status: 200 },
    { id: 'issueEvent', url: `${repo}/issues/events/${v('issue_event_id')}`, headers: plat, status: 200 },
    { id: 'issueEvent', url: `${repo}/issues/events/${v('deleted_issue_event_id')}`, headers: plat, status: 410 },
    { id: 'issueEvents', url: `${repo}/issues/${v('issue_number')}/events`, headers: plat, status: 200 },
  ];
}

describe("reference events service: answers fit the suite's API table", () => {
  it('serves the operations of the table at its paths', () => {
    expect(table.operations.map((o) => o.id).sort()).toEqual(EVENTS_ROUTES.map((r) => r.id).sort());
    for (const op of table.operations) expect(EVENTS_ROUTES.find((r) => r.id === op.id)?.path.endsWith(op.path === '/' ? '/ip-ranges/' : op.path), op.id).toBe(true);
  });

  it('answers each sample with a listed status and a body that fits its schema', async () => {
    const seen = new Set<string>();
    for (const s of samples()) {
      const op = table.operations.find((o) => o.id === s.id);
      if (!op) throw new TypeError(`no operation ${s.id}`);
      const res = await request(s.url, {
        method: (s.method ?? 'GET') as 'GET',
        headers: { ...(s.body !== undefined ? { 'content-type': 'application/json' } : {}), ...s.headers },
        ...(s.body !== undefined ? { body: JSON.stringify(s.body) } : {}),
      });
      const text = await res.body.text();
      expect(res.statusCode, `${s.id} ${s.url}`).toBe(s.status);
      const schema = responseSchema(op, res.statusCode);
      expect(schema, `${s.id} answers ${res.statusCode}, which the table does not list`).not.toBeUndefined();
      expect(schemaProblems(table, schema, text ? parseJsonLossless(text) : undefined), `${s.id} ${res.statusCode}`).toEqual([]);
      seen.add(s.id);
    }
    expect(seen.size).toBe(table.operations.length);
  });
});
