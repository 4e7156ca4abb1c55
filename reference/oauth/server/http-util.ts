import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRequestBody } from '../../../src/targets/read-request-body.js';

/** Small HTTP helpers for the reference platform server (no framework: node:http only). */

const MAX_BODY = 64 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
  return readRequestBody(req, MAX_BODY, 'the reference platform');
}

/**
 * Parameters from the query string and the body. The spec names parameters without fixing
 * how they travel, so form-encoded and JSON bodies are both read; body values win.
 */
export function collectParams(url: URL, body: string, contentType: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) out[k] = v;
  const ct = (contentType ?? '').toLowerCase();
  if (body && ct.includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
      }
    } catch {
      // An unparseable JSON body carries no parameters; the endpoint then reports what is missing.
    }
  } else if (body) {
    for (const [k, v] of new URLSearchParams(body)) out[k] = v;
  }
  return out;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = decodeURIComponent(part.slice(eq + 1).trim());
  }
  return out;
}

export interface Reply {
  status: number;
  headers?: Record<string, string | string[]>;
  contentType?: string;
  body?: string;
}

export function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string | string[]> = { 'cache-control': 'no-store', ...reply.headers };
  if (reply.body !== undefined) headers['content-type'] = reply.contentType ?? 'text/plain; charset=utf-8';
  res.writeHead(reply.status, headers);
  res.end(reply.body ?? '');
}

export function redirect(location: string, headers?: Record<string, string | string[]>): Reply {
  return { status: 302, headers: { location, ...headers } };
}

export function jsonReply(status: number, value: unknown): Reply {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(value) };
}
