import { PROTOCOL_VERSION } from '../../../reference/ctx-auth/model/protocol.js';
import type { ScenarioName } from './client-scenario-names.js';

/**
 * What one launch of a client under test showed, as the judges read it: every request it sent
 * to the played server, with the server's answer, in arrival order, and how the client ended.
 */

/** One request the client sent, and how the played server answered it. */
export interface SentRequest {
  /** 1-based position among the client's requests in its run: messages call it "request #n". */
  n: number;
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  /** Header names lower-case. */
  headers: Readonly<Record<string, string>>;
  body: string;
  /** The played server's status (502 when it never answered). */
  status: number;
  /** The answer's headers, names lower-case. */
  answerHeaders: Readonly<Record<string, string>>;
  answerBody: string;
}

/** What the client was told at launch (the SPECGATE_CTX_* variables of the client contract). */
export interface ToldClient {
  serverUrl: string;
  calls: number;
  scope: string;
  /** Given only when the played server offers no registration. */
  clientId?: string;
  redirectUri?: string;
  /** Header names the client was told to use (the target profile's names for the neutral ones). */
  versionHeader: string;
  sessionHeader: string;
}

/** How the client ended. */
export interface ClientEnd {
  /** True when the harness had to stop it (it was still running when its budget ran out). */
  stopped: boolean;
  /** One line: the command and how it ended. */
  summary: string;
  budgetMs: number;
  stderrTail: string;
}

/** What the requests were sent in: a scenario's launch, or a recording judged after the fact (`--target har:`). */
export type RunSource = ScenarioName | 'recorded';

/** Where the server serves the authorization, token and registration endpoints (paths). */
export interface EndpointPaths {
  authorize: string;
  token: string;
  register: string;
}

/** One scenario's launch (or one recording's requests). */
export interface ScenarioRun {
  scenario: RunSource;
  told: ToldClient;
  requests: SentRequest[];
  end: ClientEnd;
  /** The endpoints the server's metadata advertised, when known apart from the scenario (a recording's metadata answer). */
  endpoints?: EndpointPaths;
}

/** What a judge reads: the runs of the scenarios its case names, and the revision the client implements. */
export interface ClientEvidence {
  runs: readonly ScenarioRun[];
  /** `ctx_client_revision` (default 2025-03-26). */
  revision: string;
}

// ---------------------------------------------------------------- reading requests

/** The revision judged. */
export const JUDGED_REVISION = PROTOCOL_VERSION;

/** The RFC 8414 document at the host root: the one discovery this revision defines (C Endpoints). */
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

/** What a request is, from the client's side of the protocol. */
export type RequestKind = 'metadata' | 'probe' | 'authorize' | 'token' | 'register' | 'resource' | 'other';

/**
 * Discovery documents of later revisions: protected-resource metadata, OpenID configuration and
 * the path-aware form of RFC 8414. Requesting them is no failure of 2025-03-26 (their 404 tells
 * the client nothing it needs).
 */
export function isLaterProbe(path: string): boolean {
  return path.startsWith('/.well-known/oauth-protected-resource') || path.includes('/.well-known/openid-configuration') || path.startsWith(`${METADATA_PATH}/`);
}

/** The resource path: the server URL's own path (`/ctx` for the reference). */
export function resourcePath(run: ScenarioRun): string {
  const p = URL.canParse(run.told.serverUrl) ? new URL(run.told.serverUrl).pathname : '/';
  return p.length > 1 ? p.replace(/\/$/, '') : p;
}

/**
 * What a request is, by its path and what it carries: a client may put an endpoint at a wrong
 * path (under the server URL's path, say), and the judges still see it for what it is.
 */
export function kindOf(run: ScenarioRun, r: SentRequest): RequestKind {
  if (isLaterProbe(r.path)) return 'probe';
  if (r.path.endsWith(METADATA_PATH)) return 'metadata';
  const form = formOf(r);
  if (r.path.endsWith('/authorize') || (r.method === 'GET' && r.query.has('response_type'))) return 'authorize';
  if (r.path.endsWith('/token') || form.has('grant_type') || r.query.has('grant_type')) return 'token';
  if (r.path.endsWith('/register')) return 'register';
  const rp = resourcePath(run);
  if (r.path === rp || r.path.startsWith(`${rp}/`)) return 'resource';
  return 'other';
}

/** The run's requests of these kinds, in order. */
export function ofKind(run: ScenarioRun, ...kinds: RequestKind[]): SentRequest[] {
  return run.requests.filter((r) => kinds.includes(kindOf(run, r)));
}

/** "request #4 POST /token": how every message names a request. */
export function label(r: SentRequest): string {
  return `request #${r.n} ${r.method} ${r.path}`;
}

/** A few requests in one line: "#1 GET /.well-known/... -> 404, #2 ...". */
export function listed(rs: readonly SentRequest[], max = 3): string {
  const shown = rs.slice(0, max).map((r) => `#${r.n} ${r.method} ${r.path} -> ${r.status}`);
  return `${shown.join(', ')}${rs.length > max ? `, and ${rs.length - max} more` : ''}`;
}

/** The request body as form parameters (empty when it is not a form). */
export function formOf(r: SentRequest): URLSearchParams {
  const type = (r.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' && !(type === '' && r.body.includes('='))) return new URLSearchParams();
  return new URLSearchParams(r.body);
}

/** The parsed JSON of a text, undefined when it is no JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A field of a JSON object text (undefined when the text is no JSON object). */
export function jsonField(text: string, key: string): unknown {
  return field(jsonOf(text), key);
}

function field(o: unknown, key: string): unknown {
  return o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>)[key] : undefined;
}

/** A string field of a JSON object text. */
export function jsonString(text: string, key: string): string | undefined {
  const v = jsonField(text, key);
  return typeof v === 'string' ? v : undefined;
}

/**
 * The parameter `name` of a request as the client meant it: from its form body, its query, or a
 * JSON body (a client that sends JSON to the token endpoint still means a token request; the
 * token request judge says it is not a form).
 */
export function param(r: SentRequest, name: string): string | undefined {
  return formOf(r).get(name) ?? r.query.get(name) ?? jsonString(r.body, name);
}

/** The credentials of `Authorization: Bearer <token>`, whatever the scheme's letter case. */
export function bearerOf(r: SentRequest): string | undefined {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(r.headers['authorization'] ?? '');
  return m?.[1];
}

/** The client ID of HTTP Basic client authentication, if the request used it. */
export function basicClientId(r: SentRequest): string | undefined {
  const m = /^\s*basic\s+(\S+)\s*$/i.exec(r.headers['authorization'] ?? '');
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  // RFC 6749 §2.3.1: the client ID is form-encoded before it is put in the credentials
  const raw = decoded.slice(0, colon).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

// ---------------------------------------------------------------- what the server handed out

/** An authorization redirect: the code and state the server sent back for one authorization request. */
export interface IssuedCode {
  by: SentRequest;
  code: string;
  /** The state the redirect carried. */
  state: string | undefined;
}

/** Every code the played server returned in an authorization redirect. */
export function issuedCodes(run: ScenarioRun): IssuedCode[] {
  return ofKind(run, 'authorize').flatMap((r) => {
    const location = r.answerHeaders['location'];
    if (r.status < 300 || r.status > 399 || !location || !URL.canParse(location)) return [];
    const back = new URL(location).searchParams;
    const code = back.get('code');
    return code ? [{ by: r, code, state: back.get('state') ?? undefined }] : [];
  });
}

/** An access token the server issued (with its refresh token), and the request it answered. */
export interface IssuedToken {
  by: SentRequest;
  access: string;
  refresh: string | undefined;
}

/** Every access token the played server issued, in order. */
export function issuedTokens(run: ScenarioRun): IssuedToken[] {
  return ofKind(run, 'token').flatMap((r) => {
    const access = r.status === 200 ? jsonString(r.answerBody, 'access_token') : undefined;
    return access ? [{ by: r, access, refresh: jsonString(r.answerBody, 'refresh_token') }] : [];
  });
}

/** Token requests exchanging an authorization code (grant_type=authorization_code, or carrying a code). */
export function codeExchanges(run: ScenarioRun): SentRequest[] {
  return ofKind(run, 'token').filter((r) => param(r, 'grant_type') === 'authorization_code' || param(r, 'code') !== undefined);
}

/**
 * The authorization request a code exchange belongs to: the one whose redirect carried its code,
 * else the last one before it.
 */
export function authorizationOf(run: ScenarioRun, exchange: SentRequest): SentRequest | undefined {
  const code = param(exchange, 'code');
  const byCode = issuedCodes(run).find((c) => c.code === code);
  if (byCode) return byCode.by;
  return ofKind(run, 'authorize').filter((r) => r.n < exchange.n).pop();
}

/** Why there is nothing to judge when the client sent no request at all. */
export function silence(run: ScenarioRun): string | undefined {
  if (run.requests.length > 0) return undefined;
  return `the client sent no request in the ${run.scenario} scenario (${run.end.summary}; stderr: ${run.end.stderrTail || 'empty'})`;
}
