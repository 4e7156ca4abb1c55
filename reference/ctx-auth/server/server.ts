import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Clock } from '../../../src/engine/clock.js';
import { isSpecgateError, SpecgateError } from '../../../src/errors.js';
import { listenOnLoopback } from '../../../src/targets/loopback-server.js';
import { CtxModel } from '../model/ctx-model.js';
import { CUSTOM_PATHS, FALLBACK_PATHS, type EndpointPaths } from '../model/metadata.js';
import { SESSION_HEADER, VERSION_HEADER } from '../model/protocol.js';
import { jsonAnswer, type CtxAnswer, type CtxHandlerContext, type CtxSettings, type Handler } from './answers.js';
import { clockHook, HOOK_PREFIX } from './clock-hook.js';
import { DELEGATION_CALLBACK_PATH, Delegation } from './delegation.js';
import { CTX_HANDLERS } from './handlers/index.js';
import { answerText, headersOf, queryRecord, readBody, send } from './http.js';
import { ObservationLog, type CtxObservation } from './observations.js';
import { ctxRoutes, matchRoute, type CtxRoute, type CtxRouteId } from './routes.js';

/**
 * Options of the reference server. `routes` and `override` are how a variant (a planted fault)
 * is built on the reference without any switch inside it; `expireAfterCalls` and `wrongState`
 * are the client-side scenarios of the suite.
 */
export interface CtxServerOptions {
  /** Tokens and codes expire on it (src/engine/clock.ts). */
  clock: Clock;
  /** Fixed port; 0 or absent: an ephemeral one. */
  port?: number;
  /** Publish RFC 8414 metadata (default true); without it the fallback paths serve the flow. */
  metadata?: boolean;
  /** Offer dynamic registration (default true). */
  registration?: boolean;
  /** Serve the endpoints at /oauth2/authorize, /oauth2/token, /oauth2/register (advertised; needs metadata). */
  customPaths?: boolean;
  /** Access token lifetime (default 3600). */
  accessTokenTtlSeconds?: number;
  /** Authorization code lifetime (default 60). */
  codeTtlSeconds?: number;
  /** The protected resource's path, i.e. the server URL's path (default '/ctx'). */
  resourcePath?: string;
  /** The public origin to name in the issuer and the endpoints (default: the listening origin). */
  publicUrl?: string;
  /** A token is answered 401 invalid_token after this many successful resource calls. */
  expireAfterCalls?: number;
  /** /authorize redirects with a state other than the one received. */
  wrongState?: boolean;
  /** Delegate to the third-party authorization server at this base URL (C Auth 9): its /authorize, /token and /introspect. */
  delegateTo?: string;
  /** Header names (defaults CTX-Session-Id and CTX-Protocol-Version). */
  headerNames?: { session?: string; version?: string };
  /** Seed of the identifiers handed out. */
  seed?: number;
  /** Serve the clock hook and GET /__specgate/observations (default false; on under `specgate serve`). */
  hooks?: boolean;
  /** Changes the route table before the server routes by it. Gets a copy it may change. */
  routes?: (routes: CtxRoute[]) => CtxRoute[];
  /** The handler for an endpoint, given the reference's: return `reference` to keep it (planted faults). */
  override?: (routeId: CtxRouteId, reference: Handler) => Handler;
}

export interface RunningCtxServer {
  /** The listening origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The issuer: the public origin (`publicUrl`'s) or the listening one. */
  issuer: string;
  /** The server URL with its path: `<issuer><resourcePath>`. */
  serverUrl: string;
  /** Where the OAuth endpoints are served. */
  paths: EndpointPaths;
  model: CtxModel;
  /** Every answered request, in arrival order. */
  observations(): CtxObservation[];
  stop(): Promise<void>;
}

function settingsOf(opts: CtxServerOptions): CtxSettings {
  const metadata = opts.metadata ?? true;
  const customPaths = opts.customPaths ?? false;
  if (customPaths && !metadata) throw new SpecgateError('SG_CONFIG', 'customPaths needs metadata: endpoints at non-default paths can only be found through the metadata document; turn metadata on or customPaths off');
  const resourcePath = opts.resourcePath ?? '/ctx';
  if (!resourcePath.startsWith('/')) throw new SpecgateError('SG_CONFIG', `resourcePath must start with "/" (got ${JSON.stringify(resourcePath)})`);
  return {
    metadata,
    registration: opts.registration ?? true,
    customPaths,
    resourcePath,
    wrongState: opts.wrongState ?? false,
    sessionHeader: opts.headerNames?.session ?? SESSION_HEADER,
    versionHeader: opts.headerNames?.version ?? VERSION_HEADER,
  };
}

const notFound = (path: string): CtxAnswer => jsonAnswer(404, { error: 'not_found', error_description: `nothing is served at ${path}` });

/**
 * The ctx-auth reference (spec 000 part C) over HTTP on 127.0.0.1: an authorization server
 * (metadata, authorize, token, register) and the protected resource it guards, on one origin.
 * A path no endpoint has answers 404 JSON (so do /.well-known documents other than RFC 8414
 * metadata), a known path with another method 405 with Allow.
 */
export async function startCtxServer(opts: CtxServerOptions): Promise<RunningCtxServer> {
  const settings = settingsOf(opts);
  const clock = opts.clock;
  const model = new CtxModel({
    clock,
    ...(opts.accessTokenTtlSeconds !== undefined ? { accessTokenTtlSeconds: opts.accessTokenTtlSeconds } : {}),
    ...(opts.codeTtlSeconds !== undefined ? { codeTtlSeconds: opts.codeTtlSeconds } : {}),
    ...(opts.expireAfterCalls !== undefined ? { expireAfterCalls: opts.expireAfterCalls } : {}),
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
  });
  const paths = settings.customPaths ? CUSTOM_PATHS : FALLBACK_PATHS;
  const table = ctxRoutes({ ...settings, paths, delegating: opts.delegateTo !== undefined });
  const routes = opts.routes ? opts.routes(table.map((r) => ({ ...r }))) : table;
  const handlers = new Map<CtxRouteId, Handler>();
  for (const [id, reference] of Object.entries(CTX_HANDLERS) as [CtxRouteId, Handler][]) handlers.set(id, opts.override ? opts.override(id, reference) : reference);
  const log = new ObservationLog();
  const ctx: CtxHandlerContext = { model, issuer: '', paths, settings };
  if (opts.delegateTo !== undefined) ctx.delegation = new Delegation(opts.delegateTo.replace(/\/+$/, ''), () => `${ctx.issuer}${DELEGATION_CALLBACK_PATH}`);

  const answerFor = async (method: string, url: URL, headers: Record<string, string>, body: string): Promise<CtxAnswer> => {
    const match = matchRoute(routes, method, url.pathname);
    if (!match.ok) {
      if (match.reason === 'no-path') return notFound(url.pathname);
      return jsonAnswer(405, { error: 'method_not_allowed', error_description: `${method} is not allowed on ${url.pathname}; use ${match.allowed.join(' or ')}` }, { allow: match.allowed.join(', ') });
    }
    const handler = handlers.get(match.route.id);
    if (!handler) return jsonAnswer(501, { error: 'not_implemented', error_description: `endpoint ${match.route.id} has no handler` });
    return handler({ routeId: match.route.id, method, path: url.pathname, query: url.searchParams, headers, body }, ctx);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const headers = headersOf(req);
    const hook = opts.hooks === true && url.pathname.startsWith(HOOK_PREFIX);
    const entry = hook ? undefined : log.arrive({ method, path: url.pathname, query: queryRecord(url.searchParams), headers, at: clock.now() });
    let body = '';
    let answer: CtxAnswer;
    try {
      body = await readBody(req);
      if (hook) {
        answer =
          url.pathname === '/__specgate/observations' && method === 'GET'
            ? jsonAnswer(200, log.list(Number(url.searchParams.get('since') ?? 0)))
            : ((await clockHook(method, url.pathname, body, clock)) ?? notFound(url.pathname));
      } else {
        answer = await answerFor(method, url, headers, body);
      }
    } catch (e) {
      const tooLarge = isSpecgateError(e) && e.code === 'SG_TARGET_TOO_LARGE';
      answer = jsonAnswer(tooLarge ? 413 : 500, { error: tooLarge ? 'invalid_request' : 'server_error', error_description: e instanceof Error ? e.message : String(e) });
    }
    const sent = send(res, answer, method === 'HEAD');
    if (entry) log.complete(entry, { body, status: answer.status, responseBody: method === 'HEAD' ? '' : answerText(answer), responseHeaders: sent });
  };

  const server = createServer((req, res) => void handle(req, res));
  // 1 s: a client opens a connection per request (undici keeps a 2 s margin under the server's
  // advertised timeout), as the client peers were seen against it (PEERS.md): with connections
  // reused, the official SDK's two requests refused together no longer overlap, and its double
  // refresh with one refresh token (test/reference/ctx-auth/client-sdk.test.ts) is not shown
  server.keepAliveTimeout = 1000;
  const listening = await listenOnLoopback(server, opts.port ?? 0);
  const issuer = opts.publicUrl ? new URL(opts.publicUrl).origin : listening.url;
  ctx.issuer = issuer;
  return {
    origin: listening.url,
    issuer,
    serverUrl: `${issuer}${settings.resourcePath}`,
    paths,
    model,
    observations: () => log.list(),
    stop: () => listening.stop(),
  };
}
