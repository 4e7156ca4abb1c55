import type { MerchantCatalog } from '../model/catalog.js';
import type { Json } from '../model/json.js';
import type { Outcome } from '../model/outcome.js';
import type { Shop } from '../model/shop.js';

/** One request, routed to its operation of suites/merchant/api.yaml. */
export interface OperationCall {
  operationId: string;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body; undefined when the request has none. */
  body: unknown;
}

/** What an operation answers: a status and a JSON body (none for 204). */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HandlerContext {
  catalog: MerchantCatalog;
  /** The handler of another operation, as this server serves it (custombatch entries use it). */
  handlerOf(operationId: string): Handler | undefined;
}

/** Answers one operation. */
export type Handler = (call: OperationCall, ctx: HandlerContext) => Answer;

export const ok = (body: unknown): Answer => ({ status: 200, body });
export const noContent = (): Answer => ({ status: 204 });

const REASONS: Record<number, string> = { 400: 'invalid', 404: 'notFound', 405: 'methodNotAllowed', 409: 'duplicate', 500: 'backendError' };

/** An error in the Google API style: `{error: {code, message, errors: [{reason, message}]}}`. */
export function failure(status: number, message: string, headers?: Record<string, string>): Answer {
  const reason = REASONS[status] ?? 'invalid';
  return { status, body: { error: { code: status, message, errors: [{ domain: 'global', reason, message }] } }, ...(headers ? { headers } : {}) };
}

export const missing = (what: string): Answer => failure(404, `${what} was not found`);

const STATUS_OF = { 'not-found': 404, invalid: 400, conflict: 409 } as const;

/** A model outcome as an answer: its value through `then`, or the refusal's status. */
export function answer<T>(out: Outcome<T>, then: (value: T) => Answer = (v) => ok(v)): Answer {
  return out.ok ? then(out.value) : failure(STATUS_OF[out.kind], out.message);
}

/** An item, or 404 naming it. */
export function item(value: Json | undefined, what: string): Answer {
  return value === undefined ? missing(what) : ok(value);
}

/**
 * A list answer under the real API's envelope key. The spec shows no paging; `maxResults` and
 * `pageToken` (an offset) are honoured as the published client sends them, and without them
 * every item comes in one answer.
 */
export function list(key: string, items: unknown[], query: URLSearchParams, kind?: string): Answer {
  const start = Math.max(0, Number(query.get('pageToken') ?? 0) || 0);
  const size = Number(query.get('maxResults') ?? query.get('pageSize') ?? 0) || 0;
  const page = size > 0 ? items.slice(start, start + size) : items.slice(start);
  const next = size > 0 && start + size < items.length ? { nextPageToken: String(start + size) } : {};
  return ok({ ...(kind ? { kind } : {}), [key]: page, ...next });
}

/** The path parameter `name` (the router always gives the template's parameters). */
export function param(call: OperationCall, name: string): string {
  return call.params[name] ?? '';
}

/** The query parameter, or the body field of the same name (actions take either). */
export function option(call: OperationCall, name: string): string | undefined {
  const q = call.query.get(name);
  if (q !== null) return q;
  const b = call.body;
  const v = b && typeof b === 'object' && !Array.isArray(b) ? (b as Json)[name] : undefined;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** Runs `then` with what the path's merchant owns; 404 when that merchant does not exist. */
export function inShop(call: OperationCall, ctx: HandlerContext, then: (shop: Shop, merchantId: string) => Answer, name = 'merchantId'): Answer {
  const id = param(call, name);
  const shop = ctx.catalog.shop(id);
  return shop ? then(shop, id) : missing(`merchant ${id}`);
}

/**
 * Runs `then` with the account `{accountId}` names, which must be the path's merchant itself or
 * one of its sub-accounts; 404 otherwise.
 */
export function inAccount(call: OperationCall, ctx: HandlerContext, then: (shop: Shop, accountId: string) => Answer, name = 'accountId'): Answer {
  const merchantId = param(call, 'merchantId');
  const accountId = param(call, name);
  if (!ctx.catalog.accounts.exists(merchantId)) return missing(`merchant ${merchantId}`);
  const shop = ctx.catalog.accounts.within(merchantId, accountId) ? ctx.catalog.shop(accountId) : undefined;
  return shop ? then(shop, accountId) : missing(`account ${accountId} of merchant ${merchantId}`);
}

/** Runs `then` with an account named without a merchant (`/accounts/{accountId}/...`). */
export function ownAccount(call: OperationCall, ctx: HandlerContext, then: (shop: Shop, accountId: string) => Answer): Answer {
  const accountId = param(call, 'accountId');
  const shop = ctx.catalog.shop(accountId);
  return shop ? then(shop, accountId) : missing(`account ${accountId}`);
}

/** The body's fields without the ID field: a PATCH or PUT never renames an item. */
export function withoutId(body: unknown, idField: string): Json {
  const b = body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Json) } : {};
  delete b[idField];
  return b;
}
