import { SpecgateError } from '../../../errors.js';
import { previewJson } from '../../../checks/value-preview.js';
import { stringify } from '../../expressions.js';
import { getPath, parseJsonPath } from '../../json-path.js';
import type { CheckContext, CheckResponse, FailureInput } from '../../suite-module.js';
import type { ApiContext } from '../sequence-model.js';
import { sampleFor } from '../sample-value.js';
import { findOperation, resourceOf, templateParams, type ApiOperation, type ApiResource, type ApiTable } from '../table.js';
import { cutText } from '../../../targets/text-cut.js';

/** The `with:` of every operation verifier. */
export interface OperationArgs {
  operation: string;
  requirement?: string;
  /** Path parameters; those left out are filled with an item the check creates first. */
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  /** The request body; without it, one is generated from the operation's request schema. */
  json?: unknown;
}

/** JSON Schema of OperationArgs (the contract's `args`). */
export const OPERATION_ARGS = {
  type: 'object',
  additionalProperties: false,
  required: ['operation'],
  properties: {
    operation: { type: 'string', description: 'an operation ID of the suite api.yaml' },
    requirement: { type: 'string' },
    params: { type: 'object' },
    query: { type: 'object' },
    json: {},
  },
} as const;

/** The suite's API table (a case of a suite without api.yaml is refused at load). */
export function apiOf(ctx: CheckContext): ApiContext {
  if (!ctx.api) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId} uses an api.* check, but suite ${ctx.suite} has no api.yaml`);
  return ctx.api;
}

export function operationOf(table: ApiTable, id: string): ApiOperation {
  const op = findOperation(table, id);
  if (!op) throw new SpecgateError('SG_SUITE_UNKNOWN', `no operation "${id}" in ${table.file}; known: ${table.operations.map((o) => o.id).join(', ')}`);
  return op;
}

/** Records a failure attributed to the step's `requirement` (or every requirement of the case). */
export function failer(ctx: CheckContext, args: { requirement?: string }): (message: string, more?: Omit<FailureInput, 'message' | 'requirement'>) => void {
  return (message, more = {}) => ctx.fail({ ...(args.requirement ? { requirement: args.requirement } : {}), message, ...more });
}

/** A request body for an operation: the step's own, or one generated from its schemas (batch: an envelope of two items). */
export function bodyFor(table: ApiTable, op: ApiOperation, seed: number, given: unknown, items = 2): unknown {
  if (given !== undefined) return given;
  if (op.batch) return batchBody(table, op, seed, items);
  return op.request ? sampleFor(table.schemas[op.request], seed) : undefined;
}

/** A batch envelope holding `n` generated items at the table's items path. */
export function batchBody(table: ApiTable, op: ApiOperation, seed: number, n: number): unknown {
  const b = op.batch;
  if (!b) return undefined;
  const list = Array.from({ length: n }, (_x, i) => sampleFor(table.schemas[b.item], seed + i));
  return setPath({}, b.items, list);
}

/** Sets the value at a simple JSON path (`$.a.b`), creating objects on the way. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const segs = parseJsonPath(path);
  if (segs.length === 0) return value as Record<string, unknown>;
  let cur = target;
  segs.forEach((s, i) => {
    const key = String(s);
    if (i === segs.length - 1) cur[key] = value;
    else {
      const next = cur[key];
      cur = next && typeof next === 'object' ? (next as Record<string, unknown>) : (cur[key] = {});
    }
  });
  return target;
}

/** The ID of a representation, as text (undefined when it has none): a top-level field, or a JSON path (`$.productId.productId`). */
export function idOf(body: unknown, field: string): string | undefined {
  const v = getPath(body, field.startsWith('$') ? field : `$['${field}']`);
  return v === undefined || v === null ? undefined : stringify(v);
}

/**
 * Creates `n` items of a resource through its create operation and returns their IDs; a
 * creation the target refuses is recorded as a failure (the step cannot be judged without it)
 * and ends the list early.
 */
export async function createItems(ctx: CheckContext, table: ApiTable, resource: ApiResource, n: number, fail: ReturnType<typeof failer>): Promise<string[] | undefined> {
  if (!resource.create) throw new SpecgateError('SG_SUITE_SCHEMA', `resource ${resource.name} of ${table.file} has no create operation; give the step params: instead`);
  const op = operationOf(table, resource.create);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await ctx.request({ operation: op.id, json: bodyFor(table, op, ctx.seed + i, undefined) });
    const id = res.status >= 200 && res.status < 300 ? idOf(res.body, resource.id) : undefined;
    if (id === undefined) {
      const message = `could not create a ${resource.name} to work with: ${op.id} answered ${res.status} without a "${resource.id}"`;
      // a step whose set-up another rule owns (`precondition:`) is blocked by it, not failed
      if (ctx.precondition) ctx.blocked(ctx.precondition, message, res.exchange);
      fail(message, { actual: cutText(res.bodyText, 300), exchange: res.exchange });
      return undefined;
    }
    ids.push(id);
  }
  return ids;
}

/**
 * The path parameters a request of `op` needs: those the step gives; for the one naming an item
 * of the operation's own resource, a freshly created item; for others, the table's `params:`
 * value (left to the request to fill in), else an item of the first resource that parameter
 * names. Undefined when creating failed.
 */
export async function paramsFor(ctx: CheckContext, table: ApiTable, op: ApiOperation, args: OperationArgs, fail: ReturnType<typeof failer>): Promise<Record<string, unknown> | undefined> {
  const params: Record<string, unknown> = { ...(args.params ?? {}) };
  const own = resourceOf(table, op.id)?.resource;
  for (const name of templateParams(op.path)) {
    if (params[name] !== undefined) continue;
    if (own?.param !== name && table.params[name] !== undefined) continue;
    const owner = own?.param === name ? own : Object.values(table.resources).find((r) => r.param === name);
    if (!owner)
      throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: operation ${op.id} needs path parameter ${name}, which names no resource of ${table.file} and has no value under params:; give it under with.params`);
    const ids = await createItems(ctx, table, owner, 1, fail);
    if (!ids) return undefined;
    params[name] = ids[0];
  }
  return params;
}

/** Sends an operation's request (auth, headers and URL from the table). */
export function send(ctx: CheckContext, op: ApiOperation, params: Record<string, unknown>, extra: { json?: unknown; query?: Record<string, unknown>; auth?: boolean; method?: string; headers?: Record<string, string> } = {}): Promise<CheckResponse> {
  const spec: Parameters<CheckContext['request']>[0] = { operation: op.id, params };
  if (extra.json !== undefined) spec.json = extra.json;
  if (extra.query) spec.query = extra.query;
  if (extra.auth === false) spec.auth = false;
  if (extra.method) spec.method = extra.method;
  if (extra.headers) spec.headers = extra.headers;
  return ctx.request(spec);
}

/**
 * Where `actual` differs from `expected`, read as a partial description: every field `expected`
 * gives must be equal (objects field by field, arrays item by item and of the same length).
 * Undefined when it matches. The first difference in document order is named. The walk keeps
 * its own stack, so a value nested thousands of levels deep cannot overflow the call stack.
 */
export function differs(expected: unknown, actual: unknown, path = '$'): string | undefined {
  const todo: [unknown, unknown, string][] = [[expected, actual, path]];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [e, a, at] = next;
    if (Array.isArray(e)) {
      if (!Array.isArray(a)) return `${at}: expected an array, got ${short(a)}`;
      if (a.length !== e.length) return `${at}: expected ${e.length} items, got ${a.length}`;
      // pushed last first, so that items are compared in order
      for (let i = e.length - 1; i >= 0; i--) todo.push([e[i], a[i], `${at}[${i}]`]);
    } else if (e && typeof e === 'object') {
      if (!a || typeof a !== 'object' || Array.isArray(a)) return `${at}: expected an object, got ${short(a)}`;
      const fields = Object.entries(e);
      for (let i = fields.length - 1; i >= 0; i--) {
        const [k, v] = fields[i] as [string, unknown];
        todo.push([v, (a as Record<string, unknown>)[k], `${at}.${k}`]);
      }
    } else {
      const n = typeof a === 'bigint' ? Number(a) : a;
      if (!Object.is(e, n)) return `${at}: expected ${short(e)}, got ${short(a)}`;
    }
  }
  return undefined;
}

/** At most 80 characters of a value, rendered no further than that (it may be a huge body). */
function short(v: unknown): string {
  const s = typeof v === 'bigint' ? v.toString() : previewJson(v, 80);
  return s === undefined ? 'nothing' : s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** The item array of a page, or undefined when the answer has none there. */
export function pageItems(body: unknown, path: string): unknown[] | undefined {
  const items = getPath(body, path);
  return Array.isArray(items) ? items : undefined;
}

/** What a verifier of one operation works with once its item exists. */
export interface OperationScope {
  table: ApiTable;
  op: ApiOperation;
  fail: ReturnType<typeof failer>;
  /** Path parameters: the case's, or those of an item the check created. */
  params: Record<string, unknown>;
}

/**
 * The start every single-operation verifier shares: the table and the operation by ID, an
 * optional precondition on them (a suite-file mistake, reported as such), the failure recorder,
 * and path parameters (creating an item when the case gives none); then `judge` runs.
 */
export async function withOperation(
  ctx: CheckContext,
  args: OperationArgs,
  judge: (scope: OperationScope) => Promise<void>,
  precondition?: (table: ApiTable, op: ApiOperation) => void,
): Promise<void> {
  const { table } = apiOf(ctx);
  const op = operationOf(table, args.operation);
  precondition?.(table, op);
  const fail = failer(ctx, args);
  const params = await paramsFor(ctx, table, op, args, fail);
  if (params) await judge({ table, op, fail, params });
}
