import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { SpecgateError } from '../../../src/errors.js';
import { listenOnLoopback, type Listening } from '../../../src/targets/loopback-server.js';
import { readRequestBody } from '../../../src/targets/read-request-body.js';

/**
 * The third-party authorization server specgate plays for a server that delegates (spec 000,
 * C, Authentication 9). It approves every authorization request at once (or refuses the next
 * one, when a case asks), exchanges its codes for tokens with a refresh token, rotates refresh
 * tokens, and answers RFC 7662 introspection. A case can revoke a session (its tokens and its
 * grant) or let its access token expire (its refresh token still renews it). Every request is
 * recorded, so a case reads what the server under test asked of its third party.
 */

/** One authorization the third party approved: the code, and the tokens bought with it. */
export interface ThirdPartySession {
  /** The authorization request as the server under test sent it (first value of each parameter). */
  request: Record<string, string>;
  code: string;
  exchanged: boolean;
  accessTokens: string[];
  refreshToken: string | undefined;
  /** Access tokens reported inactive though the session stands (expired). */
  expired: Set<string>;
  revoked: boolean;
  /** Refresh grants answered with new tokens. */
  renewals: number;
}

/** A request the third party received, in arrival order. */
export interface ThirdPartyRequest {
  method: string;
  path: string;
  params: Record<string, string>;
}

/** Idle time after which the played third party stops listening (it is started again on demand). */
const IDLE_MS = 120_000;

const token = (prefix: string): string => `${prefix}${randomBytes(18).toString('base64url')}`;

function firstValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in out)) out[k] = v;
  return out;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export class PlayedThirdParty {
  readonly sessions: ThirdPartySession[] = [];
  readonly requests: ThirdPartyRequest[] = [];
  /** The next authorization request is refused with access_denied. */
  denyNext = false;
  private listening: Listening | undefined;
  private idle: NodeJS.Timeout | undefined;

  constructor(readonly url: string) {}

  /** Listens at the URL's port on 127.0.0.1, unless it already does. */
  async start(): Promise<void> {
    this.touch();
    if (this.listening) return;
    const port = Number(new URL(this.url).port);
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 1000;
    try {
      this.listening = await listenOnLoopback(server, port);
    } catch (e) {
      throw new SpecgateError('SG_CONFIG', `cannot play the third-party authorization server at ${this.url} (vars.delegation_url): ${(e as Error).message}; name a free port on 127.0.0.1`);
    }
    server.unref();
  }

  async stop(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const l = this.listening;
    this.listening = undefined;
    if (l) await l.stop();
  }

  private touch(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.stop(), IDLE_MS);
    this.idle.unref();
  }

  /** The session an access or refresh token belongs to. */
  private sessionOf(value: string): ThirdPartySession | undefined {
    return this.sessions.find((s) => s.accessTokens.includes(value) || s.refreshToken === value);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.touch();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    let body = '';
    try {
      body = await readRequestBody(req, 64 * 1024, 'the played third-party authorization server');
    } catch {
      return json(res, 413, { error: 'invalid_request' });
    }
    const params = method === 'GET' ? firstValues(url.searchParams) : firstValues(new URLSearchParams(body));
    this.requests.push({ method, path: url.pathname, params });
    if (method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, { issuer: this.url, authorization_endpoint: `${this.url}/authorize`, token_endpoint: `${this.url}/token`, introspection_endpoint: `${this.url}/introspect`, response_types_supported: ['code'], grant_types_supported: ['authorization_code', 'refresh_token'], code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'] });
    }
    if (method === 'GET' && url.pathname === '/authorize') return this.authorize(params, res);
    if (method === 'POST' && url.pathname === '/token') return this.token(params, res);
    if (method === 'POST' && url.pathname === '/introspect') return this.introspect(params, res);
    return json(res, 404, { error: 'not_found' });
  }

  private authorize(params: Record<string, string>, res: ServerResponse): void {
    const redirect = params['redirect_uri'];
    let target: URL;
    try {
      target = new URL(redirect ?? '');
    } catch {
      return json(res, 400, { error: 'invalid_request', error_description: 'redirect_uri must be an absolute URL' });
    }
    if (params['state'] !== undefined) target.searchParams.set('state', params['state']);
    if (this.denyNext) {
      this.denyNext = false;
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = token('tp_code_');
      this.sessions.push({ request: params, code, exchanged: false, accessTokens: [], refreshToken: undefined, expired: new Set(), revoked: false, renewals: 0 });
      target.searchParams.set('code', code);
    }
    res.writeHead(302, { location: target.href, 'cache-control': 'no-store' });
    res.end();
  }

  private issue(session: ThirdPartySession): Record<string, unknown> {
    const access = token('tp_at_');
    session.accessTokens.push(access);
    session.refreshToken = token('tp_rt_');
    return { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: session.refreshToken };
  }

  private token(params: Record<string, string>, res: ServerResponse): void {
    if (params['grant_type'] === 'authorization_code') {
      const session = this.sessions.find((s) => s.code === params['code']);
      if (!session || session.exchanged || session.revoked) return json(res, 400, { error: 'invalid_grant', error_description: 'the code is not known or was used' });
      if (session.request['redirect_uri'] !== undefined && params['redirect_uri'] !== session.request['redirect_uri']) return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri differs from the authorization request' });
      session.exchanged = true;
      return json(res, 200, this.issue(session));
    }
    if (params['grant_type'] === 'refresh_token') {
      const value = params['refresh_token'] ?? '';
      const session = this.sessionOf(value);
      if (!session || session.revoked || session.refreshToken !== value) return json(res, 400, { error: 'invalid_grant', error_description: 'the refresh token is not valid' });
      session.renewals++;
      return json(res, 200, this.issue(session));
    }
    return json(res, 400, { error: 'unsupported_grant_type' });
  }

  private introspect(params: Record<string, string>, res: ServerResponse): void {
    const value = params['token'] ?? '';
    const session = this.sessionOf(value);
    const active = session !== undefined && !session.revoked && session.accessTokens.includes(value) && !session.expired.has(value);
    json(res, 200, active ? { active: true, token_type: 'Bearer', client_id: session.request['client_id'] } : { active: false });
  }
}

const played = new Map<string, PlayedThirdParty>();

/** The third party played at `url` (one per address, shared by the cases of a run), listening. */
export async function thirdPartyAt(url: string): Promise<PlayedThirdParty> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SpecgateError('SG_CONFIG', `vars.delegation_url is "${url}", which is not a URL; set it to http://127.0.0.1:<port>, where the server under test expects its third-party authorization server`);
  }
  if (parsed.protocol !== 'http:' || parsed.hostname !== '127.0.0.1' || parsed.port === '')
    throw new SpecgateError('SG_CONFIG', `vars.delegation_url is "${url}": specgate plays the third party on this machine, so name http://127.0.0.1:<port> (a free port) and configure the server under test to delegate there`);
  const key = parsed.origin;
  let tp = played.get(key);
  if (!tp) {
    tp = new PlayedThirdParty(key);
    played.set(key, tp);
  }
  await tp.start();
  return tp;
}

/** How many authorization requests the third party received (approved or refused). */
export function thirdPartyAuthorizations(tp: PlayedThirdParty): number {
  return tp.requests.filter((r) => r.method === 'GET' && r.path === '/authorize').length;
}
