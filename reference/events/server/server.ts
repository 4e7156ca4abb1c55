import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Clock } from '../../../src/engine/clock.js';
import { listenOnLoopback } from '../../../src/targets/loopback-server.js';
import { EventsModel } from '../model/events-model.js';
import { EventsUserAgent } from './agent.js';
import { monFailure, platformFailure, type Answer, type Handler, type HandlerContext } from './answers.js';
import { EVENTS_HANDLERS } from './handlers/index.js';
import { headersOf, parseJsonBody, readBody, send } from './http.js';
import { EVENTS_ROUTES, IP_RANGES_PREFIX, matchRoute, PLATFORM_PREFIX, type EventsArea, type EventsRoute } from './routes.js';

/**
 * Options of the reference events service. The two hooks are how a variant of the service
 * (a planted fault, another implementation's quirk) is built on the reference without any
 * switch inside it: `routes` changes what is served where, `override` what one operation
 * answers.
 */
export interface EventsServerOptions {
  /** Fixed port; 0 or absent: an ephemeral one. */
  port?: number;
  /** The clock every time comes from (default: wall-clock time). */
  clock?: Clock;
  /** The state to serve (default: a freshly seeded model on `clock`). */
  model?: EventsModel;
  /** Seed of a fresh model's generated streams. */
  seed?: number;
  /** Changes the route table before the service routes by it. Gets a copy it may change. */
  routes?: (routes: EventsRoute[]) => EventsRoute[];
  /** The handler to use for an operation, given the reference's: return `reference` to keep it. */
  override?: (operationId: string, reference: Handler) => Handler;
  /**
   * Also serve `POST /__specgate/agent/<action>` (JSON params in, JSON result out), so a
   * scripted user agent of a profile can drive a service running as its own process.
   */
  agentBridge?: boolean;
  /** The origin clients reach it at behind a forwarding proxy (`specgate serve --public-url`): every URL it gives names it. */
  publicUrl?: string;
}

export interface RunningEventsServer {
  /** The server's root (`http://127.0.0.1:<port>`, or the public origin): the monitoring API's base (`mon_url`). */
  url: string;
  /** Where it listens (`url` unless a public origin was given). */
  listenUrl: string;
  /** `{ip_ranges_url}`: the IP ranges are at `<it>/`. */
  ipRangesUrl: string;
  /** `{api_url}`: the platform API. */
  apiUrl: string;
  /** The state it serves, for tests that look behind the API. */
  model: EventsModel;
  agent: EventsUserAgent;
  stop(): Promise<void>;
}

const notFound = (area: EventsArea, path: string): Answer => (area === 'platform' ? platformFailure(404, 'Not Found') : monFailure(404, `no operation at ${path}`));

/**
 * The monitoring API (spec 002 G) and the platform events API (H) in memory, over HTTP on
 * 127.0.0.1, on one server: the monitoring API at the root, the IP ranges below /ip-ranges,
 * the platform below /platform. A path no operation has answers 404, a known path with another
 * method 405 (with Allow), in the error shape of its service.
 */
export async function startEventsServer(opts: EventsServerOptions = {}): Promise<RunningEventsServer> {
  const clock = opts.clock ?? { now: () => Date.now() };
  const model = opts.model ?? new EventsModel({ clock, ...(opts.seed !== undefined ? { seed: opts.seed } : {}) });
  const routes = opts.routes ? opts.routes(EVENTS_ROUTES.map((r) => ({ ...r }))) : EVENTS_ROUTES;
  const handlers = new Map<string, Handler>();
  for (const [id, reference] of Object.entries(EVENTS_HANDLERS)) handlers.set(id, opts.override ? opts.override(id, reference) : reference);
  const agent = new EventsUserAgent(model);
  const ctx: HandlerContext = { model, monUrl: '', apiUrl: '', handlerOf: (id) => handlers.get(id) };

  const answerFor = async (req: IncomingMessage): Promise<Answer> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const raw = await readBody(req);
    const bridged = /^\/__specgate\/agent\/([a-z-]+)$/.exec(url.pathname)?.[1];
    if (opts.agentBridge && bridged && method === 'POST') {
      const params = parseJsonBody(raw);
      const given = params.ok && params.value !== null && typeof params.value === 'object' ? (params.value as Record<string, unknown>) : {};
      return { status: 200, body: await agent.perform(bridged, given) };
    }
    const match = matchRoute(routes, method, url.pathname);
    if (!match.ok) {
      if (match.reason === 'no-path') return notFound(match.area, url.pathname);
      const allow = { allow: match.allowed.join(', ') };
      return { ...(match.area === 'platform' ? platformFailure(405, 'Method Not Allowed') : monFailure(405, 'Method Not Allowed')), headers: allow };
    }
    const id = match.route.id;
    const handler = handlers.get(id);
    if (!handler) return monFailure(501, `operation ${id} has no handler`);
    const body = parseJsonBody(raw);
    return handler(
      {
        operationId: id,
        method,
        path: url.pathname,
        params: match.params,
        query: url.searchParams,
        headers: headersOf(req),
        body: body.ok ? body.value : undefined,
        ...(body.ok ? {} : { bodyError: 'the request body is not valid JSON' }),
      },
      ctx,
    );
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    answerFor(req).then(
      (a) => send(res, a),
      (e: unknown) => send(res, monFailure(500, e instanceof Error ? e.message : String(e))),
    );
  };

  const server = createServer(handle);
  // long enough for a client to reuse the connection (undici keeps a 2 s margin under the
  // server's advertised timeout: at 1 s every request opened a connection of its own)
  server.keepAliveTimeout = 5000;
  const listening = await listenOnLoopback(server, opts.port ?? 0);
  // behind a forwarding proxy, every URL it gives (links to further pages included) names the proxy
  const base = opts.publicUrl?.replace(/\/+$/, '') ?? listening.url;
  ctx.monUrl = base;
  ctx.apiUrl = `${base}${PLATFORM_PREFIX}`;
  return { url: base, listenUrl: listening.url, ipRangesUrl: `${base}${IP_RANGES_PREFIX}`, apiUrl: ctx.apiUrl, model, agent, stop: () => listening.stop() };
}
