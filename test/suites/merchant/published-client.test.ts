/**
 * suites/merchant/api.yaml against the published client of the same API, @googleapis/content
 * (v2.1 module): operations matched by ID (the client's `<resource path>.<method>`), then method,
 * path template (below /content/v2.1), path parameters and required query parameters compared.
 * Every difference is listed below with the reason it exists; any other difference fails, and so
 * does a listed one that is gone. The findings are written up in suites/merchant/FINDINGS.md.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';
import { readApiTable, type TableOperation } from './api-table.js';
import { callMethod, CLIENT_PREFIX, clientMethods, clientRoutes, clientSourceText, templatesInSource, type ClientRoute } from './client-routes.js';

/** The release the differences below were determined with. */
const CLIENT_VERSION = '42.2.2';

const client = requirePeer('@googleapis/content', moduleAvailable('@googleapis/content'), `npm install (devDependency @googleapis/content@${CLIENT_VERSION})`);
declarePeer(client);

type Aspect = 'operation' | 'name' | 'method' | 'path' | 'pathParams' | 'requiredQuery';

/** One way the table and the client disagree about one operation; `id` is the table's ID when the table has it. */
interface Difference {
  id: string;
  aspect: Aspect;
  /** The table's value ('(absent)' for an operation it lacks, '(none)' for an empty list). */
  table: string;
  client: string;
}

interface ExpectedDifference extends Difference {
  why: string;
}

const NEUTRAL = 'The spec writes a neutral word where the original identifier holds a brand abbreviation (spec 001, Endpoints, D, note under the liasettings table); the client keeps the original.';
const NO_QUERY = 'The spec shows no query parameters for the merchant API ("Request and response payloads, query parameters and list paging ...: not shown"), so the table requires none; the client refuses to send the request without these, and sends them in the query string.';
const NOT_IN_CLIENT = (resource: string): string =>
  `The spec lists it; @googleapis/content ${CLIENT_VERSION} has no ${resource} resource at all (no method in build/v2.1.js, no type in build/v2.1.d.ts), so no request through the published client can reach it.`;

/** Every difference between api.yaml and @googleapis/content 42.2.2, found by running the comparison. */
const EXPECTED_DIFFERENCES: readonly ExpectedDifference[] = [
  { id: 'liasettings.getaccessibleprofileaccounts', aspect: 'name', table: 'liasettings.getaccessibleprofileaccounts', client: 'liasettings.getaccessiblegmbaccounts', why: NEUTRAL },
  { id: 'liasettings.getaccessibleprofileaccounts', aspect: 'path', table: '/{merchantId}/liasettings/{accountId}/accessibleprofileaccounts', client: '/{merchantId}/liasettings/{accountId}/accessiblegmbaccounts', why: NEUTRAL },
  { id: 'liasettings.requestprofileaccess', aspect: 'name', table: 'liasettings.requestprofileaccess', client: 'liasettings.requestgmbaccess', why: NEUTRAL },
  { id: 'liasettings.requestprofileaccess', aspect: 'path', table: '/{merchantId}/liasettings/{accountId}/requestprofileaccess', client: '/{merchantId}/liasettings/{accountId}/requestgmbaccess', why: NEUTRAL },
  { id: 'liasettings.requestprofileaccess', aspect: 'requiredQuery', table: '(none)', client: 'gmbEmail', why: `${NO_QUERY} Here: the e-mail address of the business profile to request access to.` },
  { id: 'liasettings.setinventoryverificationcontact', aspect: 'requiredQuery', table: '(none)', client: 'contactEmail, contactName, country, language', why: `${NO_QUERY} Here: the contact and the country and language it is set for.` },
  { id: 'liasettings.setposdataprovider', aspect: 'requiredQuery', table: '(none)', client: 'country', why: `${NO_QUERY} Here: the country the POS data provider is set for.` },
  { id: 'returnaddress.custombatch', aspect: 'operation', table: 'POST /returnaddress/batch', client: '(absent)', why: NOT_IN_CLIENT('returnaddress') },
  { id: 'returnaddress.delete', aspect: 'operation', table: 'DELETE /{merchantId}/returnaddress/{returnAddressId}', client: '(absent)', why: NOT_IN_CLIENT('returnaddress') },
  { id: 'returnaddress.get', aspect: 'operation', table: 'GET /{merchantId}/returnaddress/{returnAddressId}', client: '(absent)', why: NOT_IN_CLIENT('returnaddress') },
  { id: 'returnaddress.insert', aspect: 'operation', table: 'POST /{merchantId}/returnaddress', client: '(absent)', why: NOT_IN_CLIENT('returnaddress') },
  { id: 'returnaddress.list', aspect: 'operation', table: 'GET /{merchantId}/returnaddress', client: '(absent)', why: NOT_IN_CLIENT('returnaddress') },
  { id: 'returnpolicy.custombatch', aspect: 'operation', table: 'POST /returnpolicy/batch', client: '(absent)', why: NOT_IN_CLIENT('returnpolicy') },
  { id: 'returnpolicy.delete', aspect: 'operation', table: 'DELETE /{merchantId}/returnpolicy/{returnPolicyId}', client: '(absent)', why: NOT_IN_CLIENT('returnpolicy') },
  { id: 'returnpolicy.get', aspect: 'operation', table: 'GET /{merchantId}/returnpolicy/{returnPolicyId}', client: '(absent)', why: NOT_IN_CLIENT('returnpolicy') },
  { id: 'returnpolicy.insert', aspect: 'operation', table: 'POST /{merchantId}/returnpolicy', client: '(absent)', why: NOT_IN_CLIENT('returnpolicy') },
  { id: 'returnpolicy.list', aspect: 'operation', table: 'GET /{merchantId}/returnpolicy', client: '(absent)', why: NOT_IN_CLIENT('returnpolicy') },
];

function list(values: readonly string[]): string {
  return values.length ? [...values].sort().join(', ') : '(none)';
}

/**
 * Every difference between the table and the client's routes. `renamed` pairs a table ID with
 * the client's name for the same operation; the pairing itself is reported as a 'name' difference.
 */
function differences(table: readonly TableOperation[], routes: readonly ClientRoute[], renamed: ReadonlyMap<string, string>): Difference[] {
  const byId = new Map(routes.map((r) => [r.id, r]));
  const matched = new Set<string>();
  const out: Difference[] = [];
  for (const op of table) {
    const clientId = renamed.get(op.id) ?? op.id;
    const route = byId.get(clientId);
    if (!route) {
      out.push({ id: op.id, aspect: 'operation', table: `${op.method} ${op.path}`, client: '(absent)' });
      continue;
    }
    matched.add(clientId);
    const d = (aspect: Aspect, tableValue: string, clientValue: string): void => {
      if (tableValue !== clientValue) out.push({ id: op.id, aspect, table: tableValue, client: clientValue });
    };
    d('name', op.id, route.id);
    d('method', op.method, route.method);
    d('path', op.path, route.path);
    d('pathParams', list(op.pathParams), list(route.pathParams));
    d('requiredQuery', list(op.requiredQuery), list(route.requiredQuery));
  }
  for (const route of routes) {
    if (!matched.has(route.id)) out.push({ id: route.id, aspect: 'operation', table: '(absent)', client: `${route.method} ${route.path}` });
  }
  return out;
}

/** What differs from the expectation: differences nobody explained, and explained ones that are gone. */
function judge(found: readonly Difference[], expected: readonly ExpectedDifference[]): { unexpected: string[]; stale: string[] } {
  const key = (d: Difference): string => `${d.id} ${d.aspect}: table ${d.table} | client ${d.client}`;
  const want = new Set(expected.map(key));
  const got = new Set(found.map(key));
  return { unexpected: [...got].filter((k) => !want.has(k)), stale: [...want].filter((k) => !got.has(k)) };
}

const RENAMED = new Map(EXPECTED_DIFFERENCES.filter((d) => d.aspect === 'name').map((d) => [d.table, d.client]));

/** The path a template asks for when each parameter `p` is given the value `v<p>`. */
function filled(template: string): string {
  return template.replace(/\{([^{}]+)\}/g, (_, p: string) => `v${p}`);
}

describe.skipIf(client.skip)(`@googleapis/content ${CLIENT_VERSION} against the merchant route table`, () => {
  let routes: ClientRoute[] = [];
  let content: typeof import('@googleapis/content')['content_v2_1'] | undefined;
  beforeAll(async () => {
    content = (await import('@googleapis/content')).content_v2_1;
    routes = clientRoutes(new content.Content({ rootUrl: 'http://127.0.0.1:1/' }));
  });

  it(`is release ${CLIENT_VERSION}, the one the expected differences were determined with`, () => {
    const pkg: unknown = JSON.parse(readFileSync(fromRoot('node_modules', '@googleapis', 'content', 'package.json'), 'utf8'));
    expect(typeof pkg === 'object' && pkg !== null ? Reflect.get(pkg, 'version') : undefined).toBe(CLIENT_VERSION);
  });

  it('offers 125 methods, one for each request template in its v2.1 module', () => {
    expect(routes.length).toBe(125);
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    // The live object and the module's text must agree: a method the walk missed, or a template
    // read from the wrong function, shows up here.
    expect(routes.map((r) => r.template).sort()).toEqual(templatesInSource(clientSourceText()).sort());
    for (const r of routes) {
      expect(r.template.startsWith(`${CLIENT_PREFIX}/`), `${r.id}: ${r.template}`).toBe(true);
      expect(list(r.pathParams), `${r.id}: pathParams against the {names} of ${r.template}`).toBe(list([...r.path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? '')));
    }
  });

  describe('sending requests', () => {
    const seen: { method: string; url: URL }[] = [];
    let server: Server | undefined;
    let port = 0;
    beforeAll(async () => {
      server = createServer((req, res) => {
        seen.push({ method: req.method ?? '', url: new URL(req.url ?? '/', 'http://127.0.0.1') });
        req.resume();
        res.setHeader('content-type', 'application/json');
        res.end('{}');
      });
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    });

    it('sends, for every method, the method and path its source declares, with the required query parameters', async () => {
      const loaded = content;
      expect(loaded, 'the client module loaded').toBeDefined();
      if (!loaded) return;
      const live = clientMethods(new loaded.Content({ rootUrl: `http://127.0.0.1:${port}/`, auth: 'key' }));
      const wrong: string[] = [];
      for (const r of routes) {
        const m = live.get(r.id);
        if (!m) {
          wrong.push(`${r.id}: not on a second client object`);
          continue;
        }
        const params = Object.fromEntries([...new Set([...r.pathParams, ...r.requiredParams])].map((p) => [p, `v${p}`]));
        const before = seen.length;
        await callMethod(m, params);
        const got = seen[before];
        if (seen.length !== before + 1 || !got) {
          wrong.push(`${r.id}: ${seen.length - before} requests instead of 1`);
          continue;
        }
        if (got.method !== r.method) wrong.push(`${r.id}: sent ${got.method}, its source says ${r.method}`);
        if (got.url.pathname !== filled(r.template)) wrong.push(`${r.id}: sent ${got.url.pathname}, its source says ${filled(r.template)}`);
        for (const q of r.requiredQuery) if (got.url.searchParams.get(q) !== `v${q}`) wrong.push(`${r.id}: query parameter ${q} missing from ${got.url.search}`);
      }
      expect(wrong, wrong.join('\n')).toEqual([]);
      expect(seen.length).toBe(routes.length);
    });
  });

  it('differs from api.yaml exactly as EXPECTED_DIFFERENCES explains', () => {
    const found = differences(readApiTable().operations, routes, RENAMED);
    const { unexpected, stale } = judge(found, EXPECTED_DIFFERENCES);
    const message = [
      `differences not in EXPECTED_DIFFERENCES (explain each there, or fix api.yaml):`, ...unexpected,
      `listed differences that no longer occur (remove them from EXPECTED_DIFFERENCES):`, ...stale,
    ].join('\n');
    expect({ unexpected, stale }, message).toEqual({ unexpected: [], stale: [] });
  });

  it('matches 123 of its 125 methods exactly in name, method, path and path parameters', () => {
    const table = readApiTable().operations;
    const byId = new Map(table.map((op) => [op.id, op]));
    const exact = routes.filter((r) => {
      const op = byId.get(r.id);
      return op && op.method === r.method && op.path === r.path && list(op.pathParams) === list(r.pathParams);
    });
    expect(exact.length).toBe(123);
    // what neither matches nor is renamed is the return address and return policy operations of the table
    const named = new Set([...exact.map((r) => r.id), ...RENAMED.keys()]);
    const lacking = table.filter((op) => /^return(address|policy)\./.test(op.id)).map((op) => op.id);
    expect(lacking.length).toBeGreaterThan(0);
    expect(table.filter((op) => !named.has(op.id)).map((op) => op.id)).toEqual(lacking);
  });
});

describe('judging differences', () => {
  const op = (id: string, method: string, path: string): TableOperation => ({
    index: 1, at: 'api.yaml:1:3', id, method, path, pathParams: [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? ''), requiredQuery: [], strayPathParams: [],
  });
  const route = (id: string, method: string, path: string, requiredQuery: string[] = []): ClientRoute => {
    const pathParams = [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? '');
    return { id, method, template: `${CLIENT_PREFIX}${path}`, path, pathParams, requiredParams: [...pathParams, ...requiredQuery], requiredQuery };
  };

  it('reports each aspect, renamed pairs, and operations only one side has', () => {
    const found = differences(
      [op('a.get', 'GET', '/{m}/a/{id}'), op('a.neutral', 'POST', '/{m}/a/neutral'), op('a.only', 'GET', '/a')],
      [route('a.get', 'PUT', '/{m}/a/{aid}', ['q']), route('a.brand', 'POST', '/{m}/a/brand'), route('b.only', 'GET', '/b')],
      new Map([['a.neutral', 'a.brand']]),
    );
    expect(found).toEqual([
      { id: 'a.get', aspect: 'method', table: 'GET', client: 'PUT' },
      { id: 'a.get', aspect: 'path', table: '/{m}/a/{id}', client: '/{m}/a/{aid}' },
      { id: 'a.get', aspect: 'pathParams', table: 'id, m', client: 'aid, m' },
      { id: 'a.get', aspect: 'requiredQuery', table: '(none)', client: 'q' },
      { id: 'a.neutral', aspect: 'name', table: 'a.neutral', client: 'a.brand' },
      { id: 'a.neutral', aspect: 'path', table: '/{m}/a/neutral', client: '/{m}/a/brand' },
      { id: 'a.only', aspect: 'operation', table: 'GET /a', client: '(absent)' },
      { id: 'b.only', aspect: 'operation', table: '(absent)', client: 'GET /b' },
    ]);
  });

  it('fails on an unexplained difference and on an explained one that is gone', () => {
    const why = 'test';
    const verdict = judge(
      [{ id: 'x', aspect: 'method', table: 'GET', client: 'PUT' }],
      [{ id: 'x', aspect: 'method', table: 'GET', client: 'POST', why }],
    );
    expect(verdict.unexpected).toEqual(['x method: table GET | client PUT']);
    expect(verdict.stale).toEqual(['x method: table GET | client POST']);
    expect(judge([{ id: 'x', aspect: 'path', table: '/a', client: '/b' }], [{ id: 'x', aspect: 'path', table: '/a', client: '/b', why }])).toEqual({ unexpected: [], stale: [] });
  });

  it('explains every expected difference', () => {
    expect(EXPECTED_DIFFERENCES.filter((d) => d.why.trim().length < 20).map((d) => `${d.id} ${d.aspect}`)).toEqual([]);
  });
});
