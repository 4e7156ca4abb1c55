import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../../src/engine/clock.js';
import { Platform, type PlatformOptions } from '../model/platform.js';
import { clockHook } from './clock-hook.js';
import { SESSION_COOKIE, Sessions, type RouteContext, type RouteRequest } from './context.js';
import { collectParams, jsonReply, parseCookies, readBody, send, type Reply } from './http-util.js';
import { ObservationLog } from './observation.js';
import { ReferenceUserAgent } from './agent.js';
import * as browser from './routes-browser.js';
import { accessToken, apiUser, deviceCode } from './routes-token.js';

/**
 * The reference platform of spec 000 part B over HTTP (node:http), on 127.0.0.1 and an
 * ephemeral port. {auth_url} is the server's origin; {api_url} is `<origin>/api`.
 */
export interface OAuthServerOptions extends Omit<PlatformOptions, 'clock'> {
  clock: Clock;
  /** Build the platform yourself (planted faults); `clock` must be the same. */
  platform?: Platform;
  host?: string;
  port?: number;
  /**
   * The origin clients reach the platform at, when a forwarding proxy stands in front of it:
   * {auth_url}, {api_url} and the verification_uri it answers name this origin instead of the
   * address it listens on.
   */
  publicUrl?: string;
  /** Serve `/__specgate/clock` and `/__specgate/observations` (default true). */
  hooks?: boolean;
  /**
   * Answers a request before the platform's routes do (undefined: not handled). An extension
   * point for emulating another platform's quirks on top of the reference.
   */
  intercept?: (req: RouteRequest) => Reply | undefined;
}

export interface RunningOAuthServer {
  /** {auth_url}: the public origin when one was given, else where it listens. */
  authUrl: string;
  /** Where it listens (`http://127.0.0.1:<port>`), for clients inside this process. */
  listenUrl: string;
  apiUrl: string;
  platform: Platform;
  log: ObservationLog;
  stop(): Promise<void>;
}

const APP_PATH = /^\/settings\/connections\/applications\/([^/]+)(\/revoke)?$/;

async function route(req: RouteRequest, ctx: RouteContext, authUrl: string, hooks: boolean, intercept?: OAuthServerOptions['intercept']): Promise<Reply> {
  const { method } = req;
  const path = req.url.pathname;
  const intercepted = intercept?.(req);
  if (intercepted) return intercepted;
  if (hooks) {
    const hooked = await clockHook(method, path, req.params, ctx.platform.clock);
    if (hooked) return hooked;
  }
  // CORS pre-flight is unsupported (B, Endpoints 1): no Access-Control-* headers, ever.
  if (method === 'OPTIONS') return { status: 405, headers: { allow: 'GET, POST' }, body: 'CORS pre-flight requests are not supported.' };
  const key = `${method} ${path}`;
  switch (key) {
    case 'GET /login/oauth/authorize':
      return browser.authorize(req, ctx);
    case 'POST /login/oauth/authorize/decision':
      return browser.authorizeDecision(req, ctx);
    case 'POST /login/oauth/access_token':
      return accessToken(req, ctx.platform);
    case 'POST /login/device/code':
      return deviceCode(req, ctx.platform, authUrl);
    case 'GET /login/device':
      return browser.deviceEntry(req);
    case 'POST /login/device':
      return browser.deviceSubmit(req, ctx);
    case 'POST /login/device/decision':
      return browser.deviceDecision(req, ctx);
    case 'POST /session':
      return browser.signIn(req, ctx);
    case 'POST /session/end':
      return browser.signOut(req);
    case 'POST /login/oauth/authorize/account':
      return browser.accountChosen(req);
    case 'GET /signup':
      return browser.signUp();
    case 'GET /api/user':
      return apiUser(req, ctx.platform);
  }
  const app = APP_PATH.exec(path);
  if (app?.[1]) {
    const clientId = decodeURIComponent(app[1]);
    if (!app[2] && method === 'GET') return browser.reviewPage(req, ctx, clientId);
    if (app[2] && method === 'POST') return browser.revoke(req, ctx, clientId);
  }
  return jsonReply(404, { message: 'Not Found' });
}

function jsonObject(raw: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(raw || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Starts the reference platform; resolves once it listens. */
export async function startOAuthServer(opts: OAuthServerOptions): Promise<RunningOAuthServer> {
  const platform = opts.platform ?? new Platform(opts);
  const sessions = new Sessions();
  const log = new ObservationLog();
  const hooks = opts.hooks ?? true;
  const ctx: RouteContext = { platform, sessions };
  let authUrl = '';
  let listenUrl = '';
  let agent: ReferenceUserAgent | undefined;
  // The user-agent bridge: a profile's scripted agent asks the server to act as the browser
  // (it still goes through the HTML forms over HTTP), so out-of-process targets need no
  // HTML scraping in YAML. Specgate's own convention, like the clock hook. It goes where the
  // user goes, the public origin ({auth_url}: a gateway's, with `publicUrl`), never around it:
  // what a gateway does to the pages is part of what the user sees.
  const bridgeAgent = (): ReferenceUserAgent => {
    const user = platform.directory.users[0];
    agent ??= new ReferenceUserAgent(authUrl, { login: user?.login ?? '', password: user?.password ?? '' });
    return agent;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const at = platform.clock.now();
    const url = new URL(req.url ?? '/', authUrl);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    let reply: Reply;
    let params: Record<string, string> = {};
    try {
      const raw = await readBody(req);
      params = collectParams(url, raw, headers['content-type']);
      const agentAction = /^\/__specgate\/agent\/([a-z-]+)$/.exec(url.pathname)?.[1];
      if (hooks && url.pathname === '/__specgate/observations' && req.method === 'GET') {
        reply = jsonReply(200, log.since(Number(url.searchParams.get('since') ?? 0)));
      } else if (hooks && agentAction && req.method === 'POST') {
        reply = jsonReply(200, await bridgeAgent().perform(agentAction, jsonObject(raw)));
      } else {
        const session = sessions.get(parseCookies(headers['cookie'])[SESSION_COOKIE]);
        reply = await route({ method: req.method ?? 'GET', url, headers, params, session }, ctx, authUrl, hooks, opts.intercept);
      }
    } catch (e) {
      reply = jsonReply(500, { message: e instanceof Error ? e.message : String(e) });
    }
    if (!url.pathname.startsWith('/__specgate/')) {
      log.record({ at, method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers, params, status: reply.status, response: reply.body ?? '' });
    }
    send(res, reply);
  };

  const server = createServer((req, res) => void handle(req, res));
  // long enough for a client to reuse the connection (undici keeps a 2 s margin under the
  // server's advertised timeout: at 1 s every request opened a connection of its own)
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  listenUrl = `http://${host}:${addr.port}`;
  authUrl = opts.publicUrl?.replace(/\/+$/, '') ?? listenUrl;
  return {
    authUrl,
    listenUrl,
    apiUrl: `${authUrl}/api`,
    platform,
    log,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
