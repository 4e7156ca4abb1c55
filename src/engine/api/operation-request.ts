import { SpecgateError } from '../../errors.js';
import { stringify } from '../expressions.js';
import type { HttpRequestSpec } from '../model.js';
import { findOperation, templateParams, type ApiOperation, type ApiTable } from './table.js';

/** Resolves `${...}` expressions of the table (base URL, auth value, header values). */
export type Resolve = (value: unknown) => unknown;

/**
 * Turns a request by operation ID into a plain request: the operation's method, the base URL
 * joined with its path template (parameters percent-encoded), the auth header unless the
 * request says `auth: false` (or the operation needs none), and its required headers. Headers
 * and query the request gives itself win over the table's.
 */
export function operationRequest(table: ApiTable | undefined, spec: HttpRequestSpec, resolve: Resolve): HttpRequestSpec {
  const id = spec.operation;
  if (id === undefined) return spec;
  if (!table) throw new SpecgateError('SG_SUITE_SCHEMA', `a request names operation "${id}", but the suite has no api.yaml; add one or give the request a url`);
  const op = findOperation(table, id);
  if (!op) throw new SpecgateError('SG_SUITE_UNKNOWN', `no operation "${id}" in ${table.file}; known: ${table.operations.map((o) => o.id).join(', ')}`);
  const { operation: _op, params, auth, ...rest } = spec;
  const headers: Record<string, string> = {};
  if (op.auth && auth !== false && table.auth) headers[table.auth.header] = stringify(resolve(table.auth.value));
  for (const [name, value] of Object.entries(op.requiredHeaders)) headers[name] = stringify(resolve(value));
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    // the request's own header replaces the table's, whatever its case
    for (const k of Object.keys(headers)) if (k.toLowerCase() === name.toLowerCase()) delete headers[k];
    headers[name] = value;
  }
  return {
    ...rest,
    method: spec.method ?? op.method,
    url: operationUrl(table, op, params ?? {}, resolve),
    headers,
  };
}

/**
 * The absolute URL of an operation with its path parameters filled in (percent-encoded): the
 * request's own, else the table's `params:` values.
 */
export function operationUrl(table: ApiTable, op: ApiOperation, given: Record<string, unknown>, resolve: Resolve): string {
  const base = stringify(resolve(op.base ?? table.base)).replace(/\/+$/, '');
  const params: Record<string, unknown> = { ...given };
  for (const name of templateParams(op.path)) {
    const fallback = table.params[name];
    if ((params[name] === undefined || params[name] === null) && fallback !== undefined) params[name] = resolve(fallback);
  }
  const missing = templateParams(op.path).filter((p) => params[p] === undefined || params[p] === null);
  if (missing.length) throw new SpecgateError('SG_SUITE_SCHEMA', `operation ${op.id} (${op.path}) needs path parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: give them under params:`);
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(stringify(params[name])));
  return `${base}${path}`;
}
