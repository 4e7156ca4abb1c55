import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Clock } from '../../../src/engine/clock.js';
import { matchOperation } from '../../../src/engine/api/match-exchange.js';
import type { ApiTable } from '../../../src/engine/api/table.js';
import { listenOnLoopback } from '../../../src/targets/loopback-server.js';
import { MerchantCatalog } from '../model/catalog.js';
import { failure, type Answer, type Handler, type HandlerContext } from './answers.js';
import { MERCHANT_HANDLERS } from './handlers/index.js';
import { parseJsonBody, readBody, send } from './http.js';
import { basePath, merchantTable } from './route-table.js';

/**
 * Options of the reference merchant service. The two hooks are how a variant of the service
 * (a planted fault, another implementation's quirk) is built on the reference without any
 * switch inside it: `routes` changes what is routed where, `override` changes what one
 * operation answers.
 */
export interface MerchantServerOptions {
  /** Fixed port; 0 or absent: an ephemeral one. */
  port?: number;
  /** The clock the service's timestamps come from (default: wall-clock time). */
  clock?: Clock;
  /** The state to serve (default: a freshly seeded catalog). */
  catalog?: MerchantCatalog;
  /**
   * Changes the route table before the service routes by it: remove an operation (it is then not
   * served), move it to another method or path, or change the base (`${merchant_url}/content/v2.1`).
   * Gets a copy it may change in place.
   */
  routes?: (table: ApiTable) => ApiTable;
  /**
   * The handler to use for an operation, given the reference's: return `reference` to keep it.
   * Custombatch entries use the same handlers.
   */
  override?: (operationId: string, reference: Handler) => Handler;
  /** The origin clients reach it at behind a forwarding proxy (`specgate serve --public-url`); its `url` then names it. */
  publicUrl?: string;
}

export interface RunningMerchantServer {
  /** The root URL (`http://127.0.0.1:<port>`, or the public origin); the API is below `<url>/content/v2.1`. */
  url: string;
  /** Where it listens (`url` unless a public origin was given). */
  listenUrl: string;
  /** The seeded merchant: the caller's own account. */
  merchantId: string;
  /** The seeded CSS group and its one domain. */
  cssGroupId: string;
  cssDomainId: string;
  /** The state it serves, for tests that look behind the API. */
  catalog: MerchantCatalog;
  stop(): Promise<void>;
}

/**
 * The merchant catalog API of spec 001 part D, in memory, over HTTP on 127.0.0.1. Requests are
 * routed by the suite's own table (suites/merchant/api.yaml) through the engine's matcher: a
 * path no operation has answers 404, a known path with another method 405 (with Allow), a body
 * that is not JSON 400; success is 200 with JSON, or 204 without a body for DELETE; errors are
 * Google-style `{error: {code, message}}`. Credentials (`Authorization`, `?key=`) are accepted
 * and ignored: the spec shows no authentication, so every caller is the seeded merchant's user.
 */
export async function startMerchantServer(opts: MerchantServerOptions = {}): Promise<RunningMerchantServer> {
  const clock = opts.clock;
  const catalog = opts.catalog ?? new MerchantCatalog(clock ? { now: () => clock.now() } : {});
  const table = opts.routes ? opts.routes(structuredClone(merchantTable())) : merchantTable();
  const prefix = basePath(table);
  const handlers = new Map<string, Handler>();
  for (const [id, reference] of Object.entries(MERCHANT_HANDLERS)) handlers.set(id, opts.override ? opts.override(id, reference) : reference);
  const ctx: HandlerContext = { catalog, handlerOf: (id) => handlers.get(id) };

  const answerFor = async (req: IncomingMessage): Promise<Answer> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const raw = await readBody(req);
    if (!url.pathname.startsWith(`${prefix}/`)) return failure(404, `${url.pathname} is not below ${prefix}`);
    const match = matchOperation(table, method, url.pathname.slice(prefix.length));
    if (!match.ok) {
      return match.reason === 'wrong-method' ? failure(405, match.message, { allow: match.allowed.join(', ') }) : failure(404, match.message);
    }
    const body = parseJsonBody(raw);
    if (!body.ok) return failure(400, 'the request body is not valid JSON');
    const id = match.operation.id;
    const handler = handlers.get(id);
    if (!handler) return failure(501, `operation ${id} has no handler`);
    const answer = handler({ operationId: id, params: match.params, query: url.searchParams, body: body.value }, ctx);
    const merchantId = match.params['merchantId'];
    if (merchantId !== undefined) catalog.shop(merchantId)?.recordCall(id);
    return answer;
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    answerFor(req).then(
      (a) => send(res, a),
      (e: unknown) => send(res, failure(500, e instanceof Error ? e.message : String(e))),
    );
  };

  const server = createServer(handle);
  // long enough for a client to reuse the connection (undici keeps a 2 s margin under the
  // server's advertised timeout: at 1 s every request opened a connection of its own)
  server.keepAliveTimeout = 5000;
  const listening = await listenOnLoopback(server, opts.port ?? 0);
  return {
    url: opts.publicUrl?.replace(/\/+$/, '') ?? listening.url,
    listenUrl: listening.url,
    merchantId: catalog.merchantId,
    cssGroupId: catalog.csses.groupId,
    cssDomainId: catalog.csses.domainId,
    catalog,
    stop: () => listening.stop(),
  };
}
