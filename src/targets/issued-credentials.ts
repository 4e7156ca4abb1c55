/**
 * The credentials a target issues in its answers, and those a token request carries, found so
 * that the Redactor can mask them in every report (a report attached to a ticket must not hand
 * out a working token). Found by field name, at any depth of a JSON or form body:
 *
 * - `access_token`, `refresh_token` (RFC 6749 §5.1), `id_token` (OpenID Connect Core §3.1.3.3),
 *   `device_code` (RFC 8628 §3.2), `client_secret` (RFC 7591 §3.2.1),
 *   `registration_access_token` (RFC 7592 §3), `client_assertion` (RFC 7521 §4.2), also spelled
 *   in camelCase or with a hyphen;
 * - `code` only where it is an authorization code: in the query or fragment of a redirect's
 *   `Location` (RFC 6749 §4.1.2); beside a `state`, in a URL or an object an answer or a user
 *   agent's report holds; and in a token request (RFC 6749 §4.1.3: a request that also names
 *   `grant_type`, `client_id`, `client_secret`, `code_verifier` or `redirect_uri`). Any other
 *   `code` (`"code": "invalid_grant"` in an error body) is left alone;
 * - the values of the cookies an answer sets (a session is a credential), when long enough to
 *   be one.
 *
 * An answer whose text names none of these fields costs one scan of its text and nothing else.
 */
import { bodyKind } from './body-parse.js';

/** Credential field names, lower-cased and without `_` or `-`. */
const FIELDS: ReadonlySet<string> = new Set(['accesstoken', 'refreshtoken', 'idtoken', 'devicecode', 'clientsecret', 'registrationaccesstoken', 'clientassertion']);
/** Whether a text may name a credential field (a quick test before anything is parsed). */
const MENTION = /(?:access|refresh|id)[_-]?token|device[_-]?code|client[_-]?(?:secret|assertion)/i;
/**
 * A word every match of {@link MENTION} holds. Searched for first in a long text, as it costs
 * half as much as MENTION, whose leading alternatives start at letters most texts are full of.
 */
const MENTION_WORD = /token|device|client/i;
/** Texts shorter than this are searched by MENTION alone. */
const SHORT_TEXT = 1024;
/** Fields that make a request a token request, whose `code` is then an authorization code. */
const TOKEN_REQUEST = ['grant_type', 'client_id', 'client_secret', 'code_verifier', 'redirect_uri'];
/** Cookie values shorter than this are preferences (`theme=dark`), not sessions. */
const MIN_COOKIE = 16;
/** Values and levels a body is searched through at most (bodies are already held to a size cap). */
const MAX_NODES = 10_000;
const MAX_DEPTH = 32;
/** URLs longer than this are not searched for a code (no redirect is that long). */
const MAX_URL = 8192;

/** Whether an object key names a credential field. */
export function isCredentialField(key: string): boolean {
  return FIELDS.has(key.toLowerCase().replace(/[_-]/g, ''));
}

/** What the finders read of an answer. */
export interface AnswerParts {
  /** Lower-cased header names. */
  headers: Record<string, string | string[] | undefined>;
  bodyText: string;
  /** The body as parsed by its content type (undefined when not JSON, form or XML). */
  body: unknown;
}

/** The credentials an HTTP answer issues: in its body, its `Location`, the cookies it sets. */
export function issuedInAnswer(res: AnswerParts): string[] {
  const out: string[] = [];
  const location = res.headers['location'];
  for (const loc of typeof location === 'string' ? [location] : (location ?? [])) fromUrl(loc, out, 'always');
  const cookies = res.headers['set-cookie'];
  for (const c of typeof cookies === 'string' ? [cookies] : (cookies ?? [])) cookieValue(c, out);
  if (res.bodyText !== '' && mentions(res.bodyText)) {
    const search: Search = { left: MAX_NODES, reported: false };
    // a body of a content type specgate does not parse is read as JSON or a form when it is one
    if (res.body === undefined) fromText(res.bodyText, out, search, 0);
    else walk(res.body, out, search, 0);
  }
  return out;
}

/**
 * The credentials a request carries in its query or body: those of the fields above, and its
 * `code` when it is a token request. The harness sends them from what it learned or made
 * itself (a client assertion), or from a user agent's report that named no field.
 */
export function sentInRequest(req: { url: string; headers: Record<string, string>; body?: string | undefined }): string[] {
  const out: string[] = [];
  if (req.url.includes('?') && mayHold(req.url)) {
    try {
      fromParams(new URL(req.url).searchParams, out, 'token-request');
    } catch {
      // not an absolute URL: nothing was sent
    }
  }
  const body = req.body;
  if (body !== undefined && mayHold(body)) {
    const kind = bodyKind(req.headers['content-type']);
    if (kind === 'form') fromParams(new URLSearchParams(body), out, 'token-request');
    else if (kind === 'json') {
      const parsed = parsedJson(body);
      walk(parsed, out, { left: MAX_NODES, reported: false }, 0);
      if (isRecord(parsed) && typeof parsed['code'] === 'string' && TOKEN_REQUEST.some((k) => k in parsed)) out.push(parsed['code']);
    }
  }
  return out;
}

/**
 * The credentials in what a typed check reports it saw (a user agent's result, its own record of
 * an answer): fields as in a body, also inside a body kept as text, and the authorization code
 * of a URL (the page a sign-in ended on) or an object that holds one beside a `state`.
 */
export function issuedInValue(value: unknown): string[] {
  const out: string[] = [];
  walk(value, out, { left: MAX_NODES, reported: true }, 0);
  return out;
}

function mayHold(text: string): boolean {
  return text.includes('code') || mentions(text);
}

/** Whether `text` may name a credential field: {@link MENTION}, with a cheaper search first in a long text. */
function mentions(text: string): boolean {
  return (text.length < SHORT_TEXT || MENTION_WORD.test(text)) && MENTION.test(text);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One search through a value: how many more values it may read; whether it reads a user agent's report. */
interface Search {
  left: number;
  reported: boolean;
}

/**
 * Credentials of the fields of `v` at any depth (bounded), and the authorization codes in it: of
 * the URLs that hold one beside a `state`, and, in a user agent's report, of an object that does
 * (the authorization response it was sent). In an answer's body such an object is more likely an
 * error or a job with a code and a state, and is left alone.
 */
function walk(v: unknown, out: string[], budget: Search, depth: number): void {
  if (--budget.left < 0 || depth > MAX_DEPTH) return;
  if (typeof v === 'string') {
    if (v.length <= MAX_URL && (v.startsWith('https://') || v.startsWith('http://')) && v.includes('code=')) fromUrl(v, out, 'with-state');
    // a body kept as text (a check's own record of an answer)
    else if (v.length > 2 && mentions(v)) fromText(v, out, budget, depth + 1);
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  if (Array.isArray(v)) {
    for (const item of v) walk(item, out, budget, depth + 1);
    return;
  }
  const record = v as Record<string, unknown>;
  if (budget.reported && typeof record['code'] === 'string' && typeof record['state'] === 'string') out.push(record['code']);
  for (const [k, val] of Object.entries(record)) {
    if (!isCredentialField(k)) walk(val, out, budget, depth + 1);
    else if (typeof val === 'string') out.push(val);
    else if (Array.isArray(val)) for (const item of val) if (typeof item === 'string') out.push(item);
  }
}

/**
 * The credentials in the query and fragment of a URL (relative or absolute). Its `code` counts
 * where `codes` says: always (a redirect's `Location`), beside a `state` (an authorization
 * response quoted elsewhere: an `error_uri` may well carry `?code=invalid_grant`), or in a
 * token request.
 */
function fromUrl(url: string, out: string[], codes: CodeRule): void {
  if (!url.includes('=')) return;
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://redirect.invalid');
  } catch {
    return;
  }
  // the authorization response of RFC 6749 §4.1.2 in the query; an implicit grant's token in the fragment (§4.2.2)
  fromParams(parsed.searchParams, out, codes);
  if (parsed.hash.length > 1) fromParams(new URLSearchParams(parsed.hash.slice(1)), out, codes);
}

/** When a `code` parameter is an authorization code. */
type CodeRule = 'always' | 'with-state' | 'token-request' | 'never';

function fromParams(params: URLSearchParams, out: string[], codes: CodeRule): void {
  let code: string[] | undefined;
  for (const [k, v] of params) {
    if (isCredentialField(k)) out.push(v);
    else if (k === 'code') (code ??= []).push(v);
  }
  if (code === undefined || codes === 'never') return;
  if (codes === 'always' || (codes === 'with-state' ? params.has('state') : TOKEN_REQUEST.some((k) => params.has(k)))) out.push(...code);
}

/** The value of a `Set-Cookie` header, when long enough to be a session. */
function cookieValue(header: string, out: string[]): void {
  const pair = header.split(';', 1)[0] ?? '';
  const eq = pair.indexOf('=');
  if (eq === -1) return;
  const value = pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  if (value.length >= MIN_COOKIE) out.push(value);
}

/** A text that may be JSON or a form body (GitHub answers a token as a form unless asked otherwise). */
function fromText(text: string, out: string[], search: Search, depth: number): void {
  const first = text.trimStart().charAt(0);
  if (first === '{' || first === '[') walk(parsedJson(text), out, search, depth);
  else if (text.includes('=')) fromParams(new URLSearchParams(text.trim()), out, 'never');
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
