import type { MatchedExchange, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import { MASK } from '../../../src/targets/redact.js';
import { METADATA_PATH, isLaterProbe } from '../checks/client-evidence.js';

/**
 * What the ctx-auth suite's passive rules read of a recording: what each recorded exchange was
 * (metadata, authorization, token, registration, resource), from the API table's rows and the
 * endpoints the recorded metadata answer advertises, and the parts of requests and answers
 * they judge.
 */

export type EndpointKind = 'metadata' | 'authorize' | 'token' | 'register' | 'resource' | 'probe';

/** `specgate record` writes a credential it masks as this: its value is not shown. */
export const MASKED = MASK;

/** A response header's value (repeated ones joined). */
export function answerHeader(x: Pick<MatchedExchange, 'recorded'>, name: string): string | undefined {
  const v = x.recorded.responseHeaders[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** A request header's value. */
export function sentHeader(x: Pick<MatchedExchange, 'recorded'>, name: string): string | undefined {
  return x.recorded.requestHeaders[name.toLowerCase()];
}

export function pathOf(x: Pick<MatchedExchange, 'recorded'>): string {
  return new URL(x.recorded.url).pathname;
}

export function queryOf(x: Pick<MatchedExchange, 'recorded'>): URLSearchParams {
  return new URL(x.recorded.url).searchParams;
}

/** The media type of the answer, lower-cased, without parameters. */
export function answerType(x: Pick<MatchedExchange, 'recorded'>): string {
  return (answerHeader(x, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The answer's JSON text parsed (undefined when it is not JSON, or was cut). */
export function answerJson(x: Pick<MatchedExchange, 'recorded'>): unknown {
  const r = x.recorded;
  if (r.responseText === undefined || r.responseCut) return undefined;
  try {
    return JSON.parse(r.responseText) as unknown;
  } catch {
    return undefined;
  }
}

/** The request body parsed as JSON (undefined when it is not JSON). */
export function requestJson(x: Pick<MatchedExchange, 'recorded'>): unknown {
  const b = x.recorded.requestBody;
  if (b === undefined || x.recorded.requestCut !== undefined) return undefined;
  try {
    return JSON.parse(b) as unknown;
  } catch {
    return undefined;
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function field(o: unknown, key: string): unknown {
  return isObject(o) && Object.hasOwn(o, key) ? o[key] : undefined;
}

/** The request's form body (empty when it has none). */
export function formOf(x: Pick<MatchedExchange, 'recorded'>): URLSearchParams {
  const type = (sentHeader(x, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' || x.recorded.requestBody === undefined) return new URLSearchParams();
  return new URLSearchParams(x.recorded.requestBody);
}

/** The path of an absolute URL, when it is one. */
function urlPath(v: unknown): string | undefined {
  return typeof v === 'string' && URL.canParse(v) ? new URL(v).pathname : undefined;
}

/**
 * The recorded metadata documents the server answered (200, a JSON object) at the well-known
 * path, at the host root or in its path-aware form (an issuer with a path, RFC 8414 section 3.1).
 */
export function metadataDocuments(view: PassiveView): { x: MatchedExchange; doc: Record<string, unknown> }[] {
  return view.exchanges.filter((x) => x.operation.id === 'metadata' || x.operation.id === 'laterProbes.metadataPath').flatMap((x) => {
    const doc = answerJson(x);
    return x.recorded.status === 200 && isObject(doc) ? [{ x, doc }] : [];
  });
}

/**
 * The paths of the endpoints the recorded metadata advertises (the last document recorded), or
 * undefined when the recording holds none: matching by path alone (the table's rows) cannot
 * know an endpoint advertised at a path of another name.
 */
export function advertisedEndpoints(view: PassiveView): Partial<Record<'authorize' | 'token' | 'register', string>> | undefined {
  const last = metadataDocuments(view).filter(({ x }) => pathOf(x) === METADATA_PATH).pop();
  if (!last) return undefined;
  const out: Partial<Record<'authorize' | 'token' | 'register', string>> = {};
  const a = urlPath(last.doc['authorization_endpoint']);
  const t = urlPath(last.doc['token_endpoint']);
  const r = urlPath(last.doc['registration_endpoint']);
  if (a) out.authorize = a;
  if (t) out.token = t;
  if (r) out.register = r;
  return out;
}

const BY_OPERATION: Readonly<Record<string, EndpointKind>> = {
  metadata: 'metadata',
  authorize: 'authorize',
  authorizePost: 'authorize',
  token: 'token',
  register: 'register',
  'resource.post': 'resource',
  'resource.get': 'resource',
  'resource.delete': 'resource',
};

/** A challenge of the Bearer scheme among those a WWW-Authenticate value lists (as the live cases match it). */
export const BEARER_CHALLENGE = /(^|,)\s*bearer(\s|,|$)/i;

/** Whether a request carries a bearer token: the Bearer scheme, or a header a recorder masked whole (`***`, scheme too). */
function carriesBearer(x: Pick<MatchedExchange, 'recorded'>): boolean {
  const h = sentHeader(x, 'authorization')?.trim();
  return h !== undefined && (h === MASKED || /^bearer\s+\S/i.test(h));
}

/**
 * The paths the recording shows as a protected resource: a path whose answer was a 401 with a
 * Bearer challenge (C, Authentication 5; RFC 6750 section 3); the path the recorded
 * protected-resource metadata of a later revision names as its `resource`; a path requests
 * carried a bearer token to, when the recording also holds this protocol's authorization server
 * that issues the tokens (its metadata document answered at the host root, or its token
 * endpoint): an API of another kind may take bearer tokens and answer without one as well. Any
 * other path a recording holds (another service's API, a favicon, a login page, the client's own
 * callback) is no resource request, whatever row of the table it fit.
 */
export function resourcePaths(view: PassiveView): Set<string> {
  const shown = new Set<string>();
  const bearer = new Set<string>();
  let authorizationServer = false;
  for (const x of view.exchanges) {
    const path = pathOf(x);
    if ((path === METADATA_PATH && x.recorded.status === 200) || x.operation.id === 'token') authorizationServer = true;
    if (path.startsWith('/.well-known/oauth-protected-resource') && x.recorded.status === 200) {
      const named = urlPath(field(answerJson(x), 'resource'));
      if (named) shown.add(named.length > 1 ? named.replace(/\/$/, '') : named);
      continue;
    }
    if (!RESOURCE_ROWS.has(x.operation.id)) continue;
    const challenge = answerHeader(x, 'www-authenticate');
    if (x.recorded.status === 401 && challenge !== undefined && BEARER_CHALLENGE.test(challenge)) shown.add(path);
    if (carriesBearer(x)) bearer.add(path);
  }
  if (authorizationServer) for (const p of bearer) shown.add(p);
  return shown;
}

const RESOURCE_ROWS = new Set(['resource.post', 'resource.get', 'resource.delete']);

/**
 * What each matched exchange was: an exchange at a path the recorded metadata advertises is
 * that endpoint (whatever row of the table it fit); otherwise its row says; a resource row at a
 * path ending in an endpoint's name (`GET /token`) is no resource request, nor one at a path the
 * recording does not show as a protected resource (resourcePaths). Metadata is only the host
 * root's document (a request for it below a path is the client's concern, not a document of the
 * server).
 */
export function kindsOf(view: PassiveView): Map<MatchedExchange, EndpointKind> {
  const advertised = advertisedEndpoints(view) ?? {};
  const byPath = new Map(Object.entries(advertised).map(([k, p]) => [p, k as EndpointKind]));
  const resources = resourcePaths(view);
  const out = new Map<MatchedExchange, EndpointKind>();
  for (const x of view.exchanges) {
    const path = pathOf(x);
    const advertisedKind = byPath.get(path);
    if (advertisedKind) {
      out.set(x, advertisedKind);
      continue;
    }
    if (isLaterProbe(path)) {
      out.set(x, 'probe');
      continue;
    }
    const kind = BY_OPERATION[x.operation.id];
    if (kind === 'metadata' && path !== METADATA_PATH) continue;
    if (kind === 'resource' && (/\/(authorize|token|register)$/.test(path) || !resources.has(path))) continue;
    if (kind) out.set(x, kind);
  }
  return out;
}

/** The matched exchanges of one kind, in recording order. */
export function exchangesOfKind(view: PassiveView, kind: EndpointKind, kinds: Map<MatchedExchange, EndpointKind> = kindsOf(view)): MatchedExchange[] {
  return view.exchanges.filter((x) => kinds.get(x) === kind);
}

/** A requirement's verdict: the findings on what was judged, or what the recording lacks. */
export function verdict(requirement: string, observations: number, findings: PassiveRuleFinding[], lacking: string): PassiveVerdict {
  return { requirement, observations, findings, ...(observations === 0 && !findings.length ? { lacking } : {}) };
}
