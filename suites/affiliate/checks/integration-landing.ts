import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientHarness, LoopbackServer } from '../../../src/targets/client-process/harness.js';

/** One request that reached the landing server: where the platform's autologin and redirect URLs point. */
export interface LandingHit {
  method: string;
  path: string;
  /** The query string's pairs, in order. */
  query: Array<[string, string]>;
  contentType: string;
  /** The request body as text (a form submission's fields). */
  body: string;
  /** The form fields of a form-encoded body, in order; empty for other bodies. */
  form: Array<[string, string]>;
}

export interface LandingServer extends LoopbackServer {
  /** Every request so far, in the order they arrived. */
  hits: LandingHit[];
}

const BODY_CAP = 64 * 1024;

function record(req: IncomingMessage, body: string): LandingHit {
  const url = new URL(req.url ?? '/', 'http://landing.invalid');
  const contentType = String(req.headers['content-type'] ?? '');
  const isForm = contentType.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
  return { method: req.method ?? 'GET', path: url.pathname, query: [...url.searchParams], contentType, body, form: isForm ? [...new URLSearchParams(body)] : [] };
}

/**
 * The advertiser's side as specgate plays it: a plain page at every path, which records each
 * request that reaches it (method, query, form body). The browser's final URL tells the rest
 * (the `#fragment`, which no request carries).
 */
export async function startLandingServer(h: ClientHarness): Promise<LandingServer> {
  const hits: LandingHit[] = [];
  const server = await h.listen((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= BODY_CAP) chunks.push(c);
    });
    req.on('end', () => {
      hits.push(record(req, Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end('<!doctype html><html><head><title>Advertiser</title></head><body><h1>Logged in at the advertiser</h1></body></html>');
    });
  });
  return { ...server, hits };
}
