import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

/** One request a client sent through the proxy, and how the server behind it answered. */
export interface ProxiedExchange {
  method: string;
  /** The request target as sent: path and query. */
  url: string;
  /** The request target as forwarded (the proxy's `rewrite` applied). */
  forwardedUrl: string;
  requestHeaders: IncomingMessage['headers'];
  /** The request body as text (capped). */
  requestBody: string;
  /** The upstream's status, or 502 when it could not be reached. */
  status: number;
  responseHeaders: IncomingMessage['headers'];
  /** The answer body as text (capped). */
  responseBody: string;
}

export interface RecordingProxy {
  /** `http://127.0.0.1:<port>`: give this to the client instead of the upstream's URL. */
  url: string;
  /** Every exchange so far, in the order the requests arrived. */
  exchanges: ProxiedExchange[];
  stop(): Promise<void>;
}

/** Bodies are kept for judging and reports, not in full: a flooding client must not exhaust memory. */
const BODY_CAP = 64 * 1024;

/**
 * A recording HTTP proxy on 127.0.0.1 in front of a played server: a client under test talks to
 * it as to the server, every request is forwarded (method, headers and body unchanged; the path
 * through `rewrite`, when given) and recorded with the upstream's answer. Client-side checks judge the client from the recording,
 * whatever server plays the other side.
 */
export async function startRecordingProxy(upstream: string, opts: { rewrite?: (url: string) => string } = {}): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const exchanges: ProxiedExchange[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= BODY_CAP) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = req.url ?? '/';
      const x: ProxiedExchange = { method: req.method ?? 'GET', url, forwardedUrl: opts.rewrite ? opts.rewrite(url) : url, requestHeaders: req.headers, requestBody: body.toString('utf8'), status: 502, responseHeaders: {}, responseBody: '' };
      exchanges.push(x);
      const headers = { ...req.headers, host: target.host };
      delete headers['content-length'];
      const out = httpRequest({ hostname: target.hostname, port: target.port, method: x.method, path: x.forwardedUrl, headers: { ...headers, 'content-length': String(body.length) } }, (answer) => {
        x.status = answer.statusCode ?? 502;
        x.responseHeaders = answer.headers;
        const back: Buffer[] = [];
        let got = 0;
        answer.on('data', (c: Buffer) => {
          got += c.length;
          if (got <= BODY_CAP) back.push(c);
        });
        answer.on('end', () => {
          x.responseBody = Buffer.concat(back).toString('utf8');
        });
        res.writeHead(x.status, answer.headers);
        answer.pipe(res);
      });
      out.on('error', (e) => {
        x.responseBody = `specgate proxy: ${upstream} did not answer: ${e.message}`;
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(x.responseBody);
      });
      out.end(body);
    });
  });
  const listening = await listenOnLoopback(server);
  return { url: listening.url, exchanges, stop: listening.stop };
}
