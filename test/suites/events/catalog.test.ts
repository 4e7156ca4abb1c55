import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { loadApiTable } from '../../../src/engine/api/load-table.js';
import { kebab } from '../../../src/engine/api/operation-rows.js';
import type { ApiOperation, ApiTable } from '../../../src/engine/api/table.js';
import { pageItems } from '../../../src/engine/api/verifiers/common.js';
import { Registry } from '../../../src/engine/registry.js';
import type { SpecgateError } from '../../../src/errors.js';
import { fromRoot } from '../../../src/paths.js';
import { registryFor } from '../../engine/api/example-table.js';
import { loadCatalogCopy } from '../../helpers/catalog-copy.js';
import { schemaExampleTests } from '../../helpers/schema-examples.js';
import { EXAMPLES } from './schema-examples.js';
import { dependencyParams, endpointRows, headings, queryTable, readSpec, specDocumentPresent } from './spec-tables.js';

/**
 * The events suite's data (spec 002, parts G and H) read with the engine's own loaders: the
 * requirement catalog, the response and body schemas, and the API table, each compared with
 * what the spec document says.
 */
const dir = fromRoot('suites', 'events');
const schemaNames = readdirSync(join(dir, 'schemas')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
const schemaFile = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(dir, 'schemas', `${name}.json`), 'utf8')) as Record<string, unknown>;

function eventsTable(registry: Registry): ApiTable {
  const errors: SpecgateError[] = [];
  const table = loadApiTable({ name: 'events', dir }, registry, (f) => f, errors);
  expect(errors.map((e) => e.message)).toEqual([]);
  if (!table) throw new Error('the events API table did not load');
  return table;
}

describe('events requirement catalog', () => {
  // the catalog, its sides (suite.yaml), schemas and table alone (no cases, which other parts of the suite add)
  const { suite: loaded, remove } = loadCatalogCopy('events', ['requirements.yaml', 'suite.yaml', 'api.yaml', 'schemas']);
  afterAll(remove);
  const reqs = loaded.requirements;
  const text = readFileSync(join(dir, 'requirements.yaml'), 'utf8');

  it('loads with the engine loader: every entry valid, IDs unique, the API table with it', () => {
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schemas/requirements.schema.json');
    expect(new Set(reqs.map((r) => r.id)).size).toBe(reqs.length);
    expect(reqs.every((r) => /^EVENTS-(MON|PLAT|CLIENT|STATE)-/.test(r.id)), reqs.map((r) => r.id).join(' ')).toBe(true);
    expect(loaded.api?.operations.length).toBe(18);
  });

  it('has one requirement per platform endpoint, naming its path', () => {
    const ops = reqs.filter((r) => r.id.startsWith('EVENTS-PLAT-OP-'));
    expect(ops).toHaveLength(12);
    // cases expand one row per operation and name EVENTS-PLAT-OP-${row.key}, the operation ID in capitals
    const platformOps = (loaded.api?.operations ?? []).filter((o) => o.base === '${api_url}');
    expect(platformOps.map((o) => `EVENTS-PLAT-OP-${kebab(o.id).toUpperCase()}`).sort()).toEqual(ops.map((r) => r.id).sort());
    if (!specDocumentPresent()) return;
    const platform = endpointRows(readSpec()).filter((r) => r.host === 'platform');
    const names = (path: string): RegExp => new RegExp(`^GET (\\{api_url\\})?${path.replace(/[{}]/g, '\\$&')} answers`);
    for (const row of platform) expect(ops.filter((r) => names(row.path).test(r.text)).map((r) => r.id), row.path).toHaveLength(1);
  });

  it('says why each excluded requirement cannot be checked, and cites the spec for every one', () => {
    for (const r of reqs) {
      expect(r.source.startsWith('002_6af093588121405e.txt#'), r.id).toBe(true);
      if (r.excluded !== undefined) expect(r.excluded.length, r.id).toBeGreaterThan(15);
    }
    // the points the spec leaves open stay visible as exclusions
    const excluded = new Set(reqs.filter((r) => r.excluded).map((r) => r.id));
    for (const id of ['EVENTS-MON-DEPS-WINDOW', 'EVENTS-MON-V2-QUERY', 'EVENTS-MON-RATE-LIMIT', 'EVENTS-MON-ERROR-STATUSES', 'EVENTS-PLAT-LATENCY', 'EVENTS-PLAT-PERMISSIONS', 'EVENTS-STATE-TRANSITIONS'])
      expect(excluded.has(id), id).toBe(true);
  });

  it.skipIf(!specDocumentPresent())('cites sections the spec document has', () => {
    const sections = headings(readSpec());
    for (const r of reqs) {
      const [top = '', sub] = (r.source.split('#')[1] ?? '').split('/');
      expect(sections.has(top), `${r.id}: no "## ${top}" in the spec`).toBe(true);
      // a second part is a "###" heading of that section, or a numbered rule where the section has no sub-headings
      if (sub !== undefined && !/^\d+$/.test(sub)) expect(sections.get(top), `${r.id}: no "### ${sub}" under "## ${top}"`).toContain(sub);
    }
  });
});

describe('events schemas', () => {
  it('compile, and use only keywords JSON Schema knows', () => {
    // strictSchema refuses unknown keywords and formats, so a misspelt "requried" cannot pass silently
    const ajv = new Ajv({ strictSchema: true, strictTypes: false, strictTuples: false, strictRequired: false, allowUnionTypes: true });
    for (const name of schemaNames) expect(() => ajv.compile(schemaFile(name)), name).not.toThrow();
  });

  it('keep the copies of shared definitions equal to the schema files they copy', () => {
    // each file is compiled on its own, so a shared shape is copied under definitions/<file name>
    let copies = 0;
    for (const name of schemaNames) {
      const defs = (schemaFile(name)['definitions'] ?? {}) as Record<string, unknown>;
      for (const [key, copy] of Object.entries(defs)) {
        if (!schemaNames.includes(key)) continue;
        const { $schema: _s, title: _t, definitions: _d, ...own } = schemaFile(key);
        expect(copy, `${name}.json definitions/${key}`).toEqual(own);
        copies++;
      }
    }
    expect(copies).toBeGreaterThan(20);
  });

  schemaExampleTests('events', EXAMPLES, "the spec's example");
});

describe.skipIf(!specDocumentPresent())('events API table against the spec endpoints', () => {
  const spec = specDocumentPresent() ? readSpec() : '';
  const table = eventsTable(registryFor('events', dir));
  const rows = specDocumentPresent() ? endpointRows(spec) : [];
  const find = (method: string, path: string): ApiOperation | undefined => table.operations.find((o) => o.method === method && o.path === path);
  const op = (id: string): ApiOperation => {
    const found = table.operations.find((o) => o.id === id);
    if (!found) throw new Error(`no operation ${id}`);
    return found;
  };
  const query = (o: ApiOperation, name: string): { type: string; required?: boolean; min?: number; max?: number } | undefined => o.parameters.find((p) => p.in === 'query' && p.name === name);

  it('has every row of the G and H endpoint tables, with its method, path and host, and nothing else', () => {
    expect(rows.filter((r) => r.host !== 'platform')).toHaveLength(6);
    expect(rows.filter((r) => r.host === 'platform')).toHaveLength(12);
    const bases = { mon: undefined, ip: '${ip_ranges_url}', platform: '${api_url}' };
    for (const row of rows) {
      const o = find(row.method, row.path);
      expect(o, `spec line ${row.line}: ${row.method} ${row.path}`).toBeDefined();
      expect(o?.base, `spec line ${row.line}`).toBe(bases[row.host]);
    }
    expect(table.base).toBe('${mon_url}');
    expect(table.operations).toHaveLength(rows.length);
  });

  it('gives each platform row its path parameters, per_page default and response codes (plus 304, from the polling rules)', () => {
    for (const row of rows.filter((r) => r.host === 'platform')) {
      const o = find(row.method, row.path);
      if (!o) throw new Error(`no operation for ${row.path}`);
      for (const p of row.pathParams) {
        const listed = o.parameters.find((x) => x.in === 'path' && x.name === p.name);
        expect(listed, `${row.path} {${p.name}}`).toBeDefined();
        expect(listed?.type, `${row.path} {${p.name}}`).toBe(p.integer ? 'integer' : 'string');
      }
      expect(Object.keys(o.responses).map(Number).sort((a, b) => a - b), row.path).toEqual([...new Set([...row.codes, 304])].sort((a, b) => a - b));
      if (row.perPageDefault === undefined) expect(o.paging, row.path).toBeUndefined();
      else {
        expect(o.paging, row.path).toEqual({ style: 'page', limit: 'per_page', position: 'page', default: row.perPageDefault, max: 100, overMax: 'clamp', items: '$' });
        expect(query(o, 'per_page'), row.path).toEqual({ name: 'per_page', in: 'query', type: 'integer', min: 1, max: 100 });
        expect(query(o, 'page'), row.path).toEqual({ name: 'page', in: 'query', type: 'integer', min: 1 });
      }
      expect(o.auth, row.path).toBe(false);
      expect(o.requiredHeaders, row.path).toEqual({ Authorization: 'Bearer ${api_token}', 'X-Platform-Api-Version': '2022-11-28', Accept: 'application/vnd.platform+json' });
    }
  });

  it('lists the query parameters of the G tables with their types and required flags', () => {
    const typeOf = (spec: string): string => (spec === 'enum' ? 'string' : spec);
    const compare = (o: ApiOperation, params: { name: string; type: string; required: boolean }[]): void => {
      expect(params.length, o.id).toBeGreaterThan(3);
      for (const p of params) {
        const listed = query(o, p.name);
        expect(listed, `${o.id} ${p.name}`).toBeDefined();
        expect(listed?.type, `${o.id} ${p.name}`).toBe(typeOf(p.type));
        expect(Boolean(listed?.required), `${o.id} ${p.name} required`).toBe(p.required);
      }
      expect(o.parameters.filter((x) => x.in === 'query').map((x) => x.name).sort(), o.id).toEqual(params.map((p) => p.name).sort());
    };
    compare(op('listEventsV1'), queryTable(spec, 'GET /api/v1/events'));
    compare(op('listEventsV2'), queryTable(spec, 'GET /api/v2/events').map((p) => ({ ...p, required: false })));
    compare(op('serviceDependencies'), dependencyParams(spec));
    compare(op('serviceDependency'), dependencyParams(spec));
    // "page number, 0 is the first page"
    expect(query(op('listEventsV1'), 'page')?.min).toBe(0);
  });

  it('names the success and error shapes of every operation, and the keys G sends', () => {
    const g: Record<string, string> = {
      serviceDependencies: 'mon-dependency-map',
      serviceDependency: 'mon-dependency',
      ipRanges: 'mon-ip-ranges',
      listEventsV1: 'mon-events-v1-list',
      listEventsV2: 'mon-events-v2-list',
      postEvent: 'mon-event-v1-post-answer',
    };
    for (const [id, shape] of Object.entries(g)) {
      expect(op(id).responses, id).toEqual({ '2XX': `events/${shape}`, '4XX': 'events/mon-error' });
      expect(op(id).requiredHeaders, id).toEqual(id === 'ipRanges' ? {} : { 'MON-APPLICATION-KEY': '${mon_app_key}' });
      expect(op(id).auth, id).toBe(id !== 'ipRanges');
    }
    expect(op('postEvent').request).toBe('events/mon-event-v1-post');
    expect(table.auth).toEqual({ header: 'MON-API-KEY', value: '${mon_api_key}', status: 403 });
    expect(op('orgEvents').responses['200']).toBe('events/platform-org-events');
    expect(op('repoIssueEvents').responses['200']).toBe('events/platform-repo-issue-events');
    expect(op('issueEvent').responses['200']).toBe('events/platform-issue-event-with-issue');
    expect(op('issueEvents').responses['200']).toBe('events/platform-issue-events');
  });

  it("pages H lists whose answer is the array itself: the engine's item path $ reads the whole body", () => {
    expect(pageItems([{ id: '1' }, { id: '2' }], '$')).toEqual([{ id: '1' }, { id: '2' }]);
    expect(pageItems({ items: [] }, '$')).toBeUndefined();
  });
});
