import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecgateError, SpecgateErrorList } from '../../errors.js';
import { compile } from '../expressions.js';
import { parseJsonPath } from '../json-path.js';
import { readCachedYaml, type CachedSource } from '../loader/cached-yaml.js';
import type { ApiAuth, ApiBatch, ApiOperation, ApiPaging, ApiParameter, ApiResource, ApiTable, StatusRule } from './table.js';
import { templateParams } from './table.js';

/** What the loader needs to know about schema names (the registry answers it). */
export interface SchemaNames {
  hasSchema(name: string): boolean;
  /** The schema object by name, for the table's own validation and value generation. */
  schema(name: string): object | undefined;
}

type RawOperation = Omit<ApiOperation, 'parameters' | 'requiredHeaders' | 'auth' | 'paging' | 'batch' | 'location'> & {
  parameters?: (Omit<ApiParameter, 'type'> & { type?: ApiParameter['type'] })[];
  requiredHeaders?: Record<string, string>;
  auth?: boolean;
  paging?: Omit<ApiPaging, 'limit' | 'position' | 'overMax'> & Partial<Pick<ApiPaging, 'limit' | 'position' | 'overMax'>>;
  batch?: Omit<ApiBatch, 'overMaxStatus' | 'max'> & { overMaxStatus?: number; max?: number };
};

interface RawTable {
  base: string;
  auth?: Omit<ApiAuth, 'status'> & { status?: number };
  wrongMethodStatus?: number;
  goneStatus?: StatusRule;
  params?: Record<string, string>;
  resources?: Record<string, Omit<ApiResource, 'name' | 'missingId'> & { missingId?: string }>;
  operations: RawOperation[];
}

/** A schema name as the table writes it (`note`) -> as the registry knows it (`<suite>/note`). */
export function qualifySchema(suite: string, name: string): string {
  return name.includes('/') ? name : `${suite}/${name}`;
}

/**
 * Reads `suites/<suite>/api.yaml` when the suite has one, checks it completely (schema, unique
 * operation IDs, path parameters against templates, schema names, resource operations, JSON
 * paths, expressions) and reports every problem with file:line:column into `errors`.
 * Undefined when the suite has no table, or it has problems.
 */
export function loadApiTable(suite: { name: string; dir: string }, schemas: SchemaNames, display: (file: string) => string, errors: SpecgateError[]): ApiTable | undefined {
  const path = join(suite.dir, 'api.yaml');
  if (!existsSync(path)) return undefined;
  const file = display(path);
  let src: CachedSource;
  try {
    src = readCachedYaml(file, readFileSync(path, 'utf8'), 'api');
  } catch (e) {
    if (e instanceof SpecgateErrorList) errors.push(...e.errors);
    else if (e instanceof SpecgateError) errors.push(e);
    else throw e;
    return undefined;
  }
  const before = errors.length;
  const at = (p: (string | number)[]): string => {
    const l = src.locate(p);
    return `${l.file}:${l.line}:${l.column}`;
  };
  const problem = (p: (string | number)[], message: string): void => {
    errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${at(p)}: ${message}`));
  };
  const raw = src.data as RawTable;
  const used: Record<string, object> = {};
  const schema = (name: string, p: (string | number)[]): string => {
    const q = qualifySchema(suite.name, name);
    const found = schemas.schema(q);
    if (found) used[q] = found;
    else problem(p, `no schema named "${q}": add suites/${suite.name}/schemas/${name}.json or fix the name`);
    return q;
  };
  expressionOk(raw.base, ['base'], problem);
  if (raw.auth) expressionOk(raw.auth.value, ['auth', 'value'], problem);
  const ids = new Map<string, number>();
  const routes = new Map<string, number>();
  const operations = raw.operations.map((o, i) => {
    const p = (...rest: (string | number)[]): (string | number)[] => ['operations', i, ...rest];
    if (ids.has(o.id)) problem(p('id'), `duplicate operation id "${o.id}" (first at operation ${ids.get(o.id)})`);
    ids.set(o.id, i);
    // one method on one path of one host is one operation
    const route = `${o.base ?? ''} ${o.method} ${o.path.replace(/\{[^}]+\}/g, '{}')}`;
    if (routes.has(route)) problem(p('path'), `${o.method} ${o.path} is also operation ${routes.get(route)}: one method on one path is one operation`);
    routes.set(route, i);
    const parameters: ApiParameter[] = (o.parameters ?? []).map((x) => ({ ...x, type: x.type ?? 'string' }));
    const inPath = templateParams(o.path);
    // a path parameter the operation does not list is a plain string one
    for (const name of inPath) if (!parameters.some((x) => x.in === 'path' && x.name === name)) parameters.push({ name, in: 'path', type: 'string' });
    const dup = inPath.find((name, k) => inPath.indexOf(name) !== k);
    if (dup) problem(p('path'), `path parameter {${dup}} appears twice in ${o.path}`);
    parameters.forEach((x, j) => {
      if (x.in === 'path' && !inPath.includes(x.name)) problem(p('parameters', j), `path parameter "${x.name}" does not appear in ${o.path}`);
    });
    for (const [h, v] of Object.entries(o.requiredHeaders ?? {})) expressionOk(v, p('requiredHeaders', h), problem);
    const responses: Record<string, string | null> = {};
    for (const [status, name] of Object.entries(o.responses)) responses[status] = name === null ? null : schema(name, p('responses', status));
    const op: ApiOperation = {
      id: o.id,
      method: o.method,
      path: o.path,
      parameters,
      requiredHeaders: o.requiredHeaders ?? {},
      auth: o.auth ?? true,
      responses,
      location: src.locate(p()),
    };
    if (o.request !== undefined) op.request = schema(o.request, p('request'));
    if (o.base !== undefined) {
      expressionOk(o.base, p('base'), problem);
      op.base = o.base;
    }
    if (o.paging) {
      const g = o.paging;
      op.paging = { ...g, limit: g.limit ?? 'limit', position: g.position ?? g.style, overMax: g.overMax ?? 'clamp' };
      if (g.default > g.max) problem(p('paging', 'default'), `default page size ${g.default} is above max ${g.max}`);
      if (g.style === 'cursor' && !g.next) problem(p('paging'), 'cursor paging needs next: the JSON path of the next cursor in the answer');
      pathOk(g.items, p('paging', 'items'), problem);
      if (g.next) pathOk(g.next, p('paging', 'next'), problem);
    }
    if (o.batch) {
      const b = o.batch;
      const { max, ...rest } = b;
      op.batch = { ...rest, item: schema(b.item, p('batch', 'item')), overMaxStatus: b.overMaxStatus ?? 400, ...(max !== undefined ? { max } : {}) };
      if (b.result !== undefined) op.batch.result = schema(b.result, p('batch', 'result'));
      pathOk(b.items, p('batch', 'items'), problem);
      pathOk(b.results, p('batch', 'results'), problem);
    }
    return op;
  });
  const resources: Record<string, ApiResource> = {};
  for (const [name, r] of Object.entries(raw.resources ?? {})) {
    for (const role of ['create', 'get', 'list', 'update', 'delete'] as const) {
      const id = r[role];
      if (id === undefined) continue;
      const op = operations.find((o) => o.id === id);
      if (!op) problem(['resources', name, role], `no operation "${id}" in this table`);
      else if (['get', 'update', 'delete'].includes(role) && !templateParams(op.path).includes(r.param))
        problem(['resources', name, role], `${id} (${op.path}) has no path parameter {${r.param}}, which names one ${name}`);
    }
    if (r.items !== undefined) pathOk(r.items, ['resources', name, 'items'], problem);
    if (r.id.startsWith('$')) pathOk(r.id, ['resources', name, 'id'], problem);
    resources[name] = { ...r, name, missingId: r.missingId ?? 'specgate-missing-0' };
  }
  if (errors.length > before) return undefined;
  for (const [name, v] of Object.entries(raw.params ?? {})) expressionOk(v, ['params', name], problem);
  if (errors.length > before) return undefined;
  src.remember();
  const table: ApiTable = {
    suite: suite.name,
    base: raw.base,
    wrongMethodStatus: raw.wrongMethodStatus ?? 405,
    goneStatus: raw.goneStatus ?? 404,
    params: raw.params ?? {},
    operations,
    resources,
    schemas: used,
    file,
  };
  if (raw.auth) table.auth = { ...raw.auth, status: raw.auth.status ?? 401 };
  return table;
}

function expressionOk(v: string, p: (string | number)[], problem: (p: (string | number)[], m: string) => void): void {
  try {
    compile(v);
  } catch (e) {
    problem(p, (e as Error).message);
  }
}

function pathOk(v: string, p: (string | number)[], problem: (p: (string | number)[], m: string) => void): void {
  try {
    parseJsonPath(v);
  } catch (e) {
    problem(p, (e as Error).message);
  }
}
