import type { CachedSource } from '../loader/cached-yaml.js';
import { compile } from '../expressions.js';
import { parseJsonPath } from '../json-path.js';
import type { ApiBatch, ApiOperation, ApiPaging, ApiParameter } from './table.js';
import { templateParams } from './table.js';

/** A place in api.yaml, as keys and indexes from its root. */
export type TablePlace = (string | number)[];

/** How the checks of one api.yaml report problems, resolve schema names and locate places. */
export interface TableChecks {
  /** Reports a problem at a place (SG_SUITE_SCHEMA, with file:line:column). */
  problem(p: TablePlace, message: string): void;
  /** The registry's name of a schema the table names, recorded as used; a problem if there is none. */
  schema(name: string, p: TablePlace): string;
  /** Where a place is written. */
  locate(p: TablePlace): ReturnType<CachedSource['locate']>;
}

/** An operation as api.yaml writes it: defaults not yet filled in. */
export type RawOperation = Omit<ApiOperation, 'parameters' | 'requiredHeaders' | 'auth' | 'paging' | 'batch' | 'location'> & {
  parameters?: (Omit<ApiParameter, 'type'> & { type?: ApiParameter['type'] })[];
  requiredHeaders?: Record<string, string>;
  auth?: boolean;
  paging?: Omit<ApiPaging, 'limit' | 'position' | 'overMax'> & Partial<Pick<ApiPaging, 'limit' | 'position' | 'overMax'>>;
  batch?: Omit<ApiBatch, 'overMaxStatus' | 'max'> & { overMaxStatus?: number; max?: number };
};

/** The table's operations with defaults filled in; reports duplicate IDs and routes, and each operation's problems. */
export function loadOperations(raw: RawOperation[], checks: TableChecks): ApiOperation[] {
  const ids = new Map<string, number>();
  const routes = new Map<string, number>();
  return raw.map((o, i) => {
    if (ids.has(o.id)) checks.problem(['operations', i, 'id'], `duplicate operation id "${o.id}" (first at operation ${ids.get(o.id)})`);
    ids.set(o.id, i);
    // one method on one path of one host is one operation
    const route = `${o.base ?? ''} ${o.method} ${o.path.replace(/\{[^}]+\}/g, '{}')}`;
    if (routes.has(route)) checks.problem(['operations', i, 'path'], `${o.method} ${o.path} is also operation ${routes.get(route)}: one method on one path is one operation`);
    routes.set(route, i);
    return loadOperation(o, i, checks);
  });
}

/** One operation: parameters, headers, response and request schemas, base, paging and batch, each checked. */
function loadOperation(o: RawOperation, i: number, checks: TableChecks): ApiOperation {
  const p = (...rest: TablePlace): TablePlace => ['operations', i, ...rest];
  const parameters = operationParameters(o, p, checks);
  for (const [h, v] of Object.entries(o.requiredHeaders ?? {})) expressionOk(v, p('requiredHeaders', h), checks);
  const responses: Record<string, string | null> = {};
  for (const [status, name] of Object.entries(o.responses)) responses[status] = name === null ? null : checks.schema(name, p('responses', status));
  const op: ApiOperation = {
    id: o.id,
    method: o.method,
    path: o.path,
    parameters,
    requiredHeaders: o.requiredHeaders ?? {},
    auth: o.auth ?? true,
    responses,
    location: checks.locate(p()),
  };
  if (o.request !== undefined) op.request = checks.schema(o.request, p('request'));
  if (o.base !== undefined) {
    expressionOk(o.base, p('base'), checks);
    op.base = o.base;
  }
  if (o.paging) op.paging = operationPaging(o.paging, p, checks);
  if (o.batch) op.batch = operationBatch(o.batch, p, checks);
  return op;
}

/** The operation's parameters, each path template parameter included; reports ones that do not match the path. */
function operationParameters(o: RawOperation, p: (...rest: TablePlace) => TablePlace, checks: TableChecks): ApiParameter[] {
  const parameters: ApiParameter[] = (o.parameters ?? []).map((x) => ({ ...x, type: x.type ?? 'string' }));
  const inPath = templateParams(o.path);
  // a path parameter the operation does not list is a plain string one
  for (const name of inPath) if (!parameters.some((x) => x.in === 'path' && x.name === name)) parameters.push({ name, in: 'path', type: 'string' });
  const dup = inPath.find((name, k) => inPath.indexOf(name) !== k);
  if (dup) checks.problem(p('path'), `path parameter {${dup}} appears twice in ${o.path}`);
  parameters.forEach((x, j) => {
    if (x.in === 'path' && !inPath.includes(x.name)) checks.problem(p('parameters', j), `path parameter "${x.name}" does not appear in ${o.path}`);
  });
  return parameters;
}

/** Paging with defaults filled in; reports a default above max, cursor paging without next, bad JSON paths. */
function operationPaging(g: NonNullable<RawOperation['paging']>, p: (...rest: TablePlace) => TablePlace, checks: TableChecks): ApiPaging {
  const paging: ApiPaging = { ...g, limit: g.limit ?? 'limit', position: g.position ?? g.style, overMax: g.overMax ?? 'clamp' };
  if (g.default > g.max) checks.problem(p('paging', 'default'), `default page size ${g.default} is above max ${g.max}`);
  if (g.style === 'cursor' && !g.next) checks.problem(p('paging'), 'cursor paging needs next: the JSON path of the next cursor in the answer');
  pathOk(g.items, p('paging', 'items'), checks);
  if (g.next) pathOk(g.next, p('paging', 'next'), checks);
  return paging;
}

/** A batch with defaults filled in and its schema names resolved; reports bad JSON paths. */
function operationBatch(b: NonNullable<RawOperation['batch']>, p: (...rest: TablePlace) => TablePlace, checks: TableChecks): ApiBatch {
  const { max, ...rest } = b;
  const batch: ApiBatch = { ...rest, item: checks.schema(b.item, p('batch', 'item')), overMaxStatus: b.overMaxStatus ?? 400, ...(max !== undefined ? { max } : {}) };
  if (b.result !== undefined) batch.result = checks.schema(b.result, p('batch', 'result'));
  pathOk(b.items, p('batch', 'items'), checks);
  pathOk(b.results, p('batch', 'results'), checks);
  return batch;
}

/** Reports an expression that does not compile. */
export function expressionOk(v: string, p: TablePlace, checks: Pick<TableChecks, 'problem'>): void {
  try {
    compile(v);
  } catch (e) {
    checks.problem(p, (e as Error).message);
  }
}

/** Reports a JSON path that does not parse. */
export function pathOk(v: string, p: TablePlace, checks: Pick<TableChecks, 'problem'>): void {
  try {
    parseJsonPath(v);
  } catch (e) {
    checks.problem(p, (e as Error).message);
  }
}
