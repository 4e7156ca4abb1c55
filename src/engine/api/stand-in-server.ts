import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { getPath } from '../json-path.js';
import { matchOperation } from './match-exchange.js';
import { schemaProblems } from './schema-validate.js';
import { resourceOf, responseSchema, successStatuses, type ApiOperation, type ApiParameter, type ApiTable } from './table.js';
import { setPath } from './verifiers/common.js';
import { listenOnLoopback } from '../../targets/loopback-server.js';
import { readRequestBody } from '../../targets/read-request-body.js';
import { SpecgateError } from '../../errors.js';

/**
 * The largest request body the stand-in reads (the HTTP client's default answer cap): a client
 * that sends more is answered 413 and the request recorded with that violation, instead of
 * holding the whole body in specgate's memory.
 */
export const STAND_IN_MAX_BODY = 8 * 1024 * 1024;

/** A request a client sent to the stand-in, as a handler sees it. */
export interface StandInRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when there was none). */
  body: unknown;
}

/** An answer a handler gives. */
export interface StandInAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One exchange the stand-in saw, with every way the request broke the table. */
export interface RecordedExchange {
  /** The operation it matched, when it matched one. */
  operation?: string;
  request: StandInRequest;
  response: StandInAnswer;
  violations: string[];
}

export interface StandInOptions {
  table: ApiTable;
  /** The credential value a client must send in the auth header (the table's `auth.header`); any value when unset. */
  credential?: string;
  /** A suite's own answers, by operation ID (instead of the generic resource store). */
  handlers?: Record<string, (req: StandInRequest) => StandInAnswer | Promise<StandInAnswer>>;
  port?: number;
}

export interface StandIn {
  url: string;
  /** Every exchange so far, in order. */
  exchanges: RecordedExchange[];
  stop(): Promise<void>;
}

/**
 * A recording stand-in for the API a client under test talks to: an HTTP server on 127.0.0.1
 * that checks each request against the table (a known operation and method, credentials,
 * required headers, parameters of the right type and range, a body matching the request
 * schema), answers a good one from a generic resource store (or a suite's handler) and a bad
 * one with the status the table implies, and records every exchange with what was wrong, so
 * checks can judge the client from the recording.
 */
export async function startStandIn(opts: StandInOptions): Promise<StandIn> {
  const { table } = opts;
  const exchanges: RecordedExchange[] = [];
  const store: ResourceStore = { items: new Map(), seq: 0 };
  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => reply(res, { status: 500, body: { error: e instanceof Error ? e.message : String(e) } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const request: StandInRequest = { method: req.method ?? 'GET', path: url.pathname, params: {}, query: Object.fromEntries(url.searchParams), headers: req.headers, body: undefined };
    const violations: string[] = [];
    const done = (operation: string | undefined, answer: StandInAnswer): void => {
      exchanges.push({ ...(operation ? { operation } : {}), request, response: answer, violations });
      reply(res, answer);
    };
    const text = await readRequestBody(req, STAND_IN_MAX_BODY, 'the stand-in').catch((e: unknown) => {
      if (!(e instanceof SpecgateError && e.code === 'SG_TARGET_TOO_LARGE')) throw e;
      return undefined;
    });
    if (text === undefined) {
      violations.push(`the body is larger than the ${STAND_IN_MAX_BODY} bytes the stand-in reads`);
      res.setHeader('connection', 'close');
      return done(undefined, { status: 413, body: { error: violations[0] } });
    }
    if (text) {
      try {
        request.body = JSON.parse(text);
      } catch {
        violations.push('the body is not JSON');
      }
    }
    const match = matchOperation(table, request.method, url.pathname);
    if (!match.ok) {
      violations.push(match.message);
      return done(undefined, { status: match.reason === 'wrong-method' ? table.wrongMethodStatus : 404, body: { error: match.message } });
    }
    const op = match.operation;
    request.params = match.params;
    if (op.auth && table.auth) {
      const sent = req.headers[table.auth.header.toLowerCase()];
      if (sent === undefined || (opts.credential !== undefined && sent !== opts.credential)) {
        violations.push(sent === undefined ? `${op.id} needs credentials in ${table.auth.header}` : `${op.id} was sent a credential the API never issued`);
        return done(op.id, { status: table.auth.status, body: { error: violations[violations.length - 1] } });
      }
    }
    for (const name of Object.keys(op.requiredHeaders)) if (req.headers[name.toLowerCase()] === undefined) violations.push(`${op.id} needs header ${name}`);
    for (const p of op.parameters) {
      const value = p.in === 'path' ? match.params[p.name] : url.searchParams.get(p.name) ?? undefined;
      const bad = parameterProblem(p, value);
      if (bad) violations.push(`${op.id}: ${bad}`);
    }
    if (op.request) for (const problem of schemaProblems(table, op.request, request.body)) violations.push(`${op.id} body: ${problem}`);
    if (violations.length) return done(op.id, { status: 400, body: { error: violations.join('; ') } });
    const handler = opts.handlers?.[op.id];
    done(op.id, handler ? await handler(request) : answerFromStore(table, store, op, request));
  }

  const listening = await listenOnLoopback(server, opts.port ?? 0);
  return {
    ...listening,
    exchanges,
  };
}

/** The stand-in's generic resource store: items by resource name, then ID; `seq` numbers the items it makes. */
interface ResourceStore {
  items: Map<string, Map<string, Record<string, unknown>>>;
  seq: number;
}

/** What a plain resource store answers (create, get, list, update, delete; anything else: its success status). */
function answerFromStore(table: ApiTable, store: ResourceStore, op: ApiOperation, req: StandInRequest): StandInAnswer {
  const ok = successStatuses(op)[0] ?? 200;
  const owner = resourceOf(table, op.id);
  if (!owner) return op.batch ? batchAnswer(store, op, req, ok) : { status: ok, ...(responseSchema(op, ok) === null ? {} : { body: {} }) };
  const { resource, role } = owner;
  let items = store.items.get(resource.name);
  if (!items) store.items.set(resource.name, (items = new Map()));
  const id = req.params[resource.param] ?? '';
  const fields = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  switch (role) {
    case 'create': {
      const item = { ...fields, [resource.id]: `${resource.name}-${++store.seq}` };
      items.set(String(item[resource.id]), item);
      return { status: ok, body: item };
    }
    case 'list': {
      const all = [...items.values()];
      const paging = op.paging;
      if (!paging) return { status: ok, body: all };
      const limit = Math.min(Number(req.query[paging.limit] ?? paging.default) || paging.default, paging.max);
      const start = Number(req.query[paging.position] ?? (paging.style === 'page' ? 1 : 0)) || 0;
      const from = paging.style === 'page' ? (Math.max(start, 1) - 1) * limit : start;
      const page = all.slice(from, from + limit);
      const body = setPath({}, paging.items, page);
      if (paging.next) setPath(body, paging.next, from + limit < all.length ? String(from + limit) : null);
      return { status: ok, body };
    }
    default: {
      const item = items.get(id);
      if (!item) return { status: 404, body: { error: `no ${resource.name} ${id}` } };
      if (role === 'delete') {
        items.delete(id);
        return { status: ok };
      }
      if (role === 'update') items.set(id, Object.assign(item, op.method === 'PUT' ? { ...fields, [resource.id]: id } : fields));
      return { status: ok, body: item };
    }
  }
}

/** What the store answers a batch operation: a result for each item, or the refusal of a body without items or with too many. */
function batchAnswer(store: ResourceStore, op: ApiOperation, req: StandInRequest, ok: number): StandInAnswer {
  const b = op.batch;
  const list = b ? getPath(req.body, b.items) : undefined;
  if (!b || !Array.isArray(list)) return { status: 400, body: { error: 'no item array' } };
  if (b.max !== undefined && list.length > b.max) return { status: b.overMaxStatus, body: { error: `at most ${b.max} items` } };
  return { status: ok, body: setPath({}, b.results, list.map(() => ({ id: `item-${++store.seq}`, status: 201 }))) };
}

/** Why a parameter value breaks its declaration, or undefined. */
export function parameterProblem(p: ApiParameter, value: string | undefined): string | undefined {
  if (value === undefined) return p.in === 'path' || p.required ? `parameter ${p.name} is required` : undefined;
  if (p.type === 'integer' && !/^-?\d+$/.test(value)) return `parameter ${p.name} must be an integer, got ${JSON.stringify(value)}`;
  if (p.type === 'number' && !Number.isFinite(Number(value))) return `parameter ${p.name} must be a number, got ${JSON.stringify(value)}`;
  if (p.type === 'boolean' && value !== 'true' && value !== 'false') return `parameter ${p.name} must be true or false, got ${JSON.stringify(value)}`;
  const size = p.type === 'string' ? value.length : Number(value);
  const what = p.type === 'string' ? 'length' : 'value';
  if (p.min !== undefined && size < p.min) return `parameter ${p.name} ${what} ${size} is below ${p.min}`;
  if (p.max !== undefined && size > p.max) return `parameter ${p.name} ${what} ${size} is above ${p.max}`;
  return undefined;
}


function reply(res: ServerResponse, a: StandInAnswer): void {
  if (res.headersSent) return void res.destroy();
  if (a.body === undefined) res.writeHead(a.status, a.headers ?? {}).end();
  else res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) }).end(JSON.stringify(a.body));
}
