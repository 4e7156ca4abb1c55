import type { Exchange } from '../../../src/engine/model.js';
import type { ObservedRequest } from '../../../reference/oauth/server/observation.js';
import { cutText } from '../../../src/targets/text-cut.js';

/**
 * Reading the platform's observation log as the client's side of the conversation: which
 * requests the client sent (token endpoint, device code endpoint, API) and what it was told.
 * The harness's own browser requests (sign-in, authorization page, user-code page) are never
 * the client's and are left out.
 */
export const TOKEN_PATH = '/login/oauth/access_token';
export const DEVICE_CODE_PATH = '/login/device/code';
export const API_PREFIX = '/api';

/** Response fields whatever the format the client asked for (JSON, form-encoded, XML element OAuth). */
export function responseFields(body: string): Record<string, string> {
  const t = body.trim();
  const out: Record<string, string> = {};
  if (t.startsWith('{')) {
    try {
      const v: unknown = JSON.parse(t);
      if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) if (typeof x === 'string' || typeof x === 'number') out[k] = String(x);
      }
    } catch {
      // not JSON after all: no fields
    }
    return out;
  }
  if (t.startsWith('<')) {
    for (const m of t.matchAll(/<([a-z_]+)>([^<]*)<\/\1>/g)) out[m[1] ?? ''] = (m[2] ?? '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    return out;
  }
  for (const [k, v] of new URLSearchParams(t)) out[k] = v;
  return out;
}

export function isTokenRequest(e: ObservedRequest): boolean {
  return e.method === 'POST' && e.path === TOKEN_PATH;
}

export function isDeviceStart(e: ObservedRequest): boolean {
  return e.method === 'POST' && e.path === DEVICE_CODE_PATH;
}

export function isApiCall(e: ObservedRequest): boolean {
  return e.path === API_PREFIX || e.path.startsWith(`${API_PREFIX}/`);
}

/**
 * Any request of the client to an endpoint it calls itself, whatever its method: the token
 * endpoint, the device code endpoint, the API. Kept apart from the predicates above (POST
 * only) so that a request sent with the wrong method is seen, and judged by
 * OAUTH-CLIENT-HTTP-METHOD, rather than lost.
 */
export function isClientEndpoint(e: ObservedRequest): boolean {
  return e.path === TOKEN_PATH || e.path === DEVICE_CODE_PATH || isApiCall(e);
}

/** The method spec 000 part B gives an endpoint the client calls (Endpoints 2-5); undefined for paths it does not name. */
export function specMethod(path: string): 'GET' | 'POST' | undefined {
  if (path === TOKEN_PATH || path === DEVICE_CODE_PATH) return 'POST';
  if (path === `${API_PREFIX}/user`) return 'GET';
  return undefined;
}

/** The access token a token-endpoint answer carried, if any. */
export function issuedToken(e: ObservedRequest): string | undefined {
  if (!isTokenRequest(e) || e.status !== 200) return undefined;
  const t = responseFields(e.response)['access_token'];
  return t ? t : undefined;
}

/** `Authorization` scheme and credentials of a request. */
export function authorization(e: ObservedRequest): { scheme: string; credentials: string } | undefined {
  const h = e.headers['authorization'];
  if (h === undefined) return undefined;
  const m = /^\s*(\S+)(?:\s+(.*?))?\s*$/.exec(h);
  return m ? { scheme: m[1] ?? '', credentials: m[2] ?? '' } : undefined;
}

/** One observed request as a report exchange (times relative to `t0`). */
export function toExchange(e: ObservedRequest, t0?: number): Exchange {
  const at = t0 === undefined ? '' : ` at +${e.at - t0} ms`;
  const headers: Record<string, string> = {};
  for (const k of ['accept', 'content-type', 'authorization', 'user-agent']) if (e.headers[k] !== undefined) headers[k] = e.headers[k] ?? '';
  return {
    kind: 'http',
    summary: `${e.method} ${e.path} -> ${e.status}${at}`,
    request: { method: e.method, path: e.path, headers, params: e.params },
    response: { status: e.status, body: cutText(e.response, 1000) },
  };
}

/** Several requests as one note exchange: a timeline for reports. */
export function timeline(entries: readonly ObservedRequest[], t0: number, label: string): Exchange {
  return {
    kind: 'note',
    summary: label,
    response: entries.map((e) => {
      const f = responseFields(e.response);
      const answer = f['error'] ? `${f['error']}${f['interval'] ? ` interval=${f['interval']}` : ''}` : f['access_token'] ? 'access_token' : `HTTP ${e.status}`;
      return `+${e.at - t0} ms ${e.method} ${e.path} -> ${answer}`;
    }),
  };
}
