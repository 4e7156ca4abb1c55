import type { IncomingHttpHeaders } from 'node:http';
import type { ProxiedExchange } from '../../../src/targets/recording-proxy.js';
/** Builds HAR 1.2 documents for tests, with every field the format requires. */

export interface EntryInput {
  method?: string;
  url?: string;
  requestHeaders?: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  body?: string;
  base64?: boolean;
  /** ISO date-time the request started (default 2025-01-01T00:00:00.000Z). */
  startedDateTime?: string;
  /** How long the exchange took (ms). */
  time?: number;
  /** The body is the start of a longer one (marked as `specgate record` marks it): not judged as a whole body. */
  cut?: { kept: number; size?: number };
}

const pairs = (h: Record<string, string> = {}): { name: string; value: string }[] => Object.entries(h).map(([name, value]) => ({ name, value }));

/** One `log.entries` item. */
export function harEntry(x: EntryInput): Record<string, unknown> {
  const url = x.url ?? 'http://127.0.0.1:9/';
  const request: Record<string, unknown> = {
    method: x.method ?? 'GET',
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: pairs(x.requestHeaders),
    queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
    headersSize: -1,
    bodySize: x.requestBody === undefined ? 0 : Buffer.byteLength(x.requestBody),
  };
  if (x.requestBody !== undefined) request['postData'] = { mimeType: 'application/json', text: x.requestBody };
  const contentType = Object.entries(x.responseHeaders ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const content: Record<string, unknown> = { size: x.body === undefined ? 0 : x.body.length, mimeType: contentType };
  if (x.body !== undefined) content['text'] = x.body;
  if (x.base64) content['encoding'] = 'base64';
  if (x.cut) content['_specgateCut'] = x.cut;
  return {
    startedDateTime: x.startedDateTime ?? '2025-01-01T00:00:00.000Z',
    time: x.time ?? 1.5,
    request,
    response: {
      status: x.status ?? 200,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(x.responseHeaders),
      content,
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0.5 },
  };
}

/** A whole HAR document around the entries. */
export function harFile(entries: unknown[]): { log: Record<string, unknown> } {
  return { log: { version: '1.2', creator: { name: 'specgate-test', version: '1.0' }, entries } };
}

/** One HAR entry as the tests change it. */
export interface HarEntryShape {
  request: { method: string; url: string };
  response: { status: number; content: { mimeType: string; text?: string; size: number } };
}

/** Header values as HAR name/value pairs: repeated headers joined as one value. */
function headerPairs(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * A recording proxy's exchanges as HAR entries, with the URL the client used (the proxy's
 * origin), its request headers and body, the server's status, answer headers and body.
 */
export function proxiedToHar(proxyUrl: string, exchanges: readonly ProxiedExchange[]): Record<string, unknown>[] {
  return exchanges.map((x) =>
    harEntry({
      method: x.method,
      url: `${proxyUrl}${x.url}`,
      requestHeaders: headerPairs(x.requestHeaders),
      ...(x.requestBody !== '' ? { requestBody: x.requestBody } : {}),
      status: x.status,
      responseHeaders: headerPairs(x.responseHeaders),
      ...(x.responseBody !== '' ? { body: x.responseBody } : {}),
      // the proxy kept only the start of a long answer: say so, as the recorder does, so it is not judged as a whole body
      ...(x.responseBodyCut ? { cut: { kept: Buffer.byteLength(x.responseBody) } } : {}),
      ...(x.startedAt !== undefined ? { startedDateTime: new Date(x.startedAt).toISOString(), time: Math.max(0, (x.endedAt ?? x.startedAt) - x.startedAt) } : {}),
    }),
  );
}
