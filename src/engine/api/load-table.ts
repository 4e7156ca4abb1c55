import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecgateError, SpecgateErrorList } from '../../errors.js';
import { readCachedYaml, type CachedSource } from '../loader/cached-yaml.js';
import { expressionOk, loadOperations, pathOk, type RawOperation, type TableChecks } from './load-operations.js';
import type { ApiAuth, ApiOperation, ApiResource, ApiTable, StatusRule } from './table.js';
import { templateParams } from './table.js';

/** What the loader needs to know about schema names (the registry answers it). */
export interface SchemaNames {
  hasSchema(name: string): boolean;
  /** The schema object by name, for the table's own validation and value generation. */
  schema(name: string): object | undefined;
}

type RawResource = Omit<ApiResource, 'name' | 'missingId'> & { missingId?: string };

interface RawTable {
  base: string;
  auth?: Omit<ApiAuth, 'status'> & { status?: number };
  wrongMethodStatus?: number;
  goneStatus?: StatusRule;
  params?: Record<string, string>;
  resources?: Record<string, RawResource>;
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
  const src = readTableSource(file, path, errors);
  if (!src) return undefined;
  const before = errors.length;
  const used: Record<string, object> = {};
  const checks = tableChecks(src, suite.name, schemas, used, errors);
  const raw = src.data as RawTable;
  expressionOk(raw.base, ['base'], checks);
  if (raw.auth) expressionOk(raw.auth.value, ['auth', 'value'], checks);
  const operations = loadOperations(raw.operations, checks);
  const resources = loadResources(raw.resources ?? {}, operations, checks);
  if (errors.length > before) return undefined;
  for (const [name, v] of Object.entries(raw.params ?? {})) expressionOk(v, ['params', name], checks);
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

/** api.yaml parsed (through the parse cache) and checked against its schema; undefined, with the problems in `errors`, if it is not. */
function readTableSource(file: string, path: string, errors: SpecgateError[]): CachedSource | undefined {
  try {
    return readCachedYaml(file, readFileSync(path, 'utf8'), 'api');
  } catch (e) {
    if (e instanceof SpecgateErrorList) errors.push(...e.errors);
    else if (e instanceof SpecgateError) errors.push(e);
    else throw e;
    return undefined;
  }
}

/** The checks of one table: problems go to `errors` with file:line:column, schemas found are recorded in `used`. */
function tableChecks(src: CachedSource, suite: string, schemas: SchemaNames, used: Record<string, object>, errors: SpecgateError[]): TableChecks {
  const problem = (p: (string | number)[], message: string): void => {
    const l = src.locate(p);
    errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${l.file}:${l.line}:${l.column}: ${message}`));
  };
  return {
    problem,
    schema: (name, p) => {
      const q = qualifySchema(suite, name);
      const found = schemas.schema(q);
      if (found) used[q] = found;
      else problem(p, `no schema named "${q}": add suites/${suite}/schemas/${name}.json or fix the name`);
      return q;
    },
    locate: (p) => src.locate(p),
  };
}

/** The table's resources with defaults filled in; reports operations they name that are missing or lack the ID parameter. */
function loadResources(raw: Record<string, RawResource>, operations: ApiOperation[], checks: TableChecks): Record<string, ApiResource> {
  const resources: Record<string, ApiResource> = {};
  for (const [name, r] of Object.entries(raw)) {
    for (const role of ['create', 'get', 'list', 'update', 'delete'] as const) {
      const id = r[role];
      if (id === undefined) continue;
      const op = operations.find((o) => o.id === id);
      if (!op) checks.problem(['resources', name, role], `no operation "${id}" in this table`);
      else if (['get', 'update', 'delete'].includes(role) && !templateParams(op.path).includes(r.param))
        checks.problem(['resources', name, role], `${id} (${op.path}) has no path parameter {${r.param}}, which names one ${name}`);
    }
    if (r.items !== undefined) pathOk(r.items, ['resources', name, 'items'], checks);
    if (r.id.startsWith('$')) pathOk(r.id, ['resources', name, 'id'], checks);
    resources[name] = { ...r, name, missingId: r.missingId ?? 'specgate-missing-0' };
  }
  return resources;
}
