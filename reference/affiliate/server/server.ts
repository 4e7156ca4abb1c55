import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Clock } from '../../../src/engine/clock.js';
import { isSpecgateError } from '../../../src/errors.js';
import { listenOnLoopback } from '../../../src/targets/loopback-server.js';
import { AffiliateModel } from '../model/affiliate-model.js';
import { AFF_API_KEY, DEFAULT_WHITELIST } from '../model/keys.js';
import { failure, type Answer, type Handler, type HandlerContext } from './answers.js';
import { referenceAuthorize } from './auth.js';
import { AFFILIATE_HANDLERS } from './handlers/index.js';
import { headersOf, readBody, send } from './http.js';
import { landingPage } from './landing.js';
import { AFFILIATE_ROUTES, isLanding, LANDING_PREFIX, matchRoute, type AffiliateRoute } from './routes.js';

/**
 * Options of the reference affiliate platform. The hooks are how a variant (a planted fault,
 * another platform's quirk) is built on the reference without any switch inside it: `routes`
 * changes what is served where, `override` what one operation answers.
 */
export interface AffiliateServerOptions {
  /** Fixed port; 0 or absent: an ephemeral one. */
  port?: number;
  /** The clock every date comes from (default: wall-clock time). */
  clock?: Clock;
  /** The state to serve (default: a freshly seeded model on `clock`). */
  model?: AffiliateModel;
  /** Seed of a fresh model. */
  seed?: number;
  /** Changes the route table before the server routes by it. Gets a copy it may change. */
  routes?: (routes: AffiliateRoute[]) => AffiliateRoute[];
  /** The handler to use for an operation, given the reference's: return `reference` to keep it. */
  override?: (operationId: string, reference: Handler) => Handler;
  /** Caller addresses accepted (default 127.0.0.1 and ::ffff:127.0.0.1). */
  whitelist?: readonly string[];
  /** The API key issued (default {@link AFF_API_KEY}). */
  apiKey?: string;
  /** Where autologin targets and redirects point (default `<url>/landing`, served here as a plain page). */
  landingUrl?: string;
  /**
   * The origin clients reach the platform at, when a forwarding proxy stands in front of it:
   * {affiliate_url} and the default landing page name this origin instead of where it listens.
   */
  publicUrl?: string;
}

export interface RunningAffiliateServer {
  /** `{affiliate_url}`: the server's root (`http://127.0.0.1:<port>`), or the public origin when one was given. */
  url: string;
  /** Where it listens (`http://127.0.0.1:<port>`). */
  listenUrl: string;
  /** Where autologin targets and redirects point. */
  landingUrl: string;
  /** The state it serves, for tests that look behind the API. */
  model: AffiliateModel;
  apiKey: string;
  stop(): Promise<void>;
}

/**
 * The affiliate lead API of spec 001 part E in memory, over HTTP on 127.0.0.1: the seven
 * operations of routes.ts below the root, the landing page below /landing. A path no
 * operation has answers 404, a known path with another method 405 (with Allow), both in the
 * platform's error shape with the envelope.
 */
export async function startAffiliateServer(opts: AffiliateServerOptions = {}): Promise<RunningAffiliateServer> {
  const clock = opts.clock ?? opts.model?.clock ?? { now: () => Date.now() };
  const model = opts.model ?? new AffiliateModel({ clock, ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.landingUrl ? { landingUrl: opts.landingUrl } : {}) });
  if (opts.landingUrl) model.landingUrl = opts.landingUrl;
  const routes = opts.routes ? opts.routes(AFFILIATE_ROUTES.map((r) => ({ ...r }))) : AFFILIATE_ROUTES;
  const handlers = new Map<string, Handler>();
  for (const [id, reference] of Object.entries(AFFILIATE_HANDLERS)) handlers.set(id, opts.override ? opts.override(id, reference) : reference);
  const apiKey = opts.apiKey ?? AFF_API_KEY;
  const base: Omit<HandlerContext, 'startedAt'> = {
    model,
    url: '',
    apiKey,
    whitelist: opts.whitelist ?? DEFAULT_WHITELIST,
    authorize: referenceAuthorize,
    handlerOf: (id) => handlers.get(id),
  };

  const answerFor = async (req: IncomingMessage, ctx: HandlerContext): Promise<Answer> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const body = await readBody(req);
    if (isLanding(url.pathname)) return landingPage(method, url.pathname, url.searchParams);
    const match = matchRoute(routes, method, url.pathname);
    if (!match.ok) {
      if (match.reason === 'no-path') return failure(ctx, 404, [`no operation at ${url.pathname}`]);
      return { ...failure(ctx, 405, [`${method} is not allowed on ${url.pathname}; use ${match.allowed.join(' or ')}`]), headers: { allow: match.allowed.join(', ') } };
    }
    const handler = handlers.get(match.route.id);
    if (!handler) return failure(ctx, 501, [`operation ${match.route.id} has no handler`]);
    return handler(
      { operationId: match.route.id, method, path: url.pathname, query: url.searchParams, headers: headersOf(req), remoteAddress: req.socket.remoteAddress ?? '', body },
      ctx,
    );
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const ctx: HandlerContext = { ...base, startedAt: performance.now() };
    answerFor(req, ctx).then(
      (a) => send(res, a),
      (e: unknown) => {
        const tooLarge = isSpecgateError(e) && e.code === 'SG_TARGET_TOO_LARGE';
        send(res, failure(ctx, tooLarge ? 413 : 500, [e instanceof Error ? e.message : String(e)]));
      },
    );
  };

  const server = createServer(handle);
  // long enough for a client to reuse the connection (undici keeps a 2 s margin under the
  // server's advertised timeout: at 1 s every request opened a connection of its own)
  server.keepAliveTimeout = 5000;
  const listening = await listenOnLoopback(server, opts.port ?? 0);
  const url = opts.publicUrl?.replace(/\/+$/, '') ?? listening.url;
  base.url = url;
  model.landingUrl ??= `${url}${LANDING_PREFIX}`;
  return { url, listenUrl: listening.url, landingUrl: model.landingUrl, model, apiKey, stop: () => listening.stop() };
}
