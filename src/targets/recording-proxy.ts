import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { listenOnLoopback } from './loopback-server.js';
import { endToEnd } from './hop-by-hop.js';

/** One request a client sent through the proxy, and how the server behind it answered. */
export interface ProxiedExchange {
  method: string;
  /** The request target as sent: path and query. */
  url: string;
  /** The request target as forwarded (the proxy's `rewrite` applied). */
  forwardedUrl: string;
  /** When the request arrived (epoch ms). */
  startedAt?: number;
  /** When the answer ended (epoch ms); absent while it is under way. */
  endedAt?: number;
  requestHeaders: IncomingMessage['headers'];
  /** The request body as text (capped: the server got all of it). */
  requestBody: string;
  /** Set when `requestBody` holds only the first BODY_CAP bytes of a longer body. */
  requestBodyCut?: boolean;
  /** The upstream's status, or 502 when it could not be reached. */
  status: number;
  responseHeaders: IncomingMessage['headers'];
  /** The answer body as text (capped: the client got all of it). */
  responseBody: string;
  /** Set when `responseBody` holds only the first BODY_CAP bytes of a longer answer. */
  responseBodyCut?: boolean;
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
 * through `rewrite`, when given) and recorded with the upstream's answer (its body kept up to
 * `bodyCap` bytes, 64 KB unless given). Client-side checks judge the client from the recording,
 * whatever server plays the other side.
 */
export async function startRecordingProxy(upstream: string, opts: { rewrite?: (url: string) => string; bodyCap?: number } = {}): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const exchanges: ProxiedExchange[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const x: ProxiedExchange = { method: req.method ?? 'GET', url, forwardedUrl: opts.rewrite ? opts.rewrite(url) : url, startedAt: Date.now(), requestHeaders: req.headers, requestBody: '', status: 502, responseHeaders: {}, responseBody: '' };
    exchanges.push(x);
    // the body is streamed through whole (a request over the cap reaches the server unchanged);
    // only the copy kept for judging is capped, and marked when it was
    const sent = capped((text, cut) => {
      x.requestBody = text;
      if (cut) x.requestBodyCut = true;
    });
    const out = httpRequest({ hostname: target.hostname, port: target.port, method: x.method, path: x.forwardedUrl, headers: { ...endToEnd(req.headers), host: target.host } }, (answer) => {
      x.status = answer.statusCode ?? 502;
      x.responseHeaders = answer.headers;
      const back = capped((text, cut) => {
        x.responseBody = text;
        if (cut) x.responseBodyCut = true;
      }, opts.bodyCap);
      answer.on('data', back.add);
      answer.on('end', back.end);
      answer.on('end', () => (x.endedAt = Date.now()));
      // the recording keeps what the server sent; the client gets what a proxy passes on
      res.writeHead(x.status, endToEnd(answer.headers));
      answer.pipe(res);
    });
    out.on('error', (e) => {
      x.responseBody = `specgate proxy: ${upstream} did not answer: ${e.message}`;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(x.responseBody);
    });
    req.on('data', sent.add);
    req.on('end', sent.end);
    req.pipe(out);
  });
  const listening = await listenOnLoopback(server);
  return { url: listening.url, exchanges, stop: listening.stop };
}

/** A copy of a stream's bytes up to BODY_CAP, handed over as text when the stream ends. */
function capped(done: (text: string, cut: boolean) => void, cap = BODY_CAP): { add: (c: Buffer) => void; end: () => void } {
  const kept: Buffer[] = [];
  let size = 0;
  return {
    add: (c) => {
      if (size < cap) kept.push(size + c.length <= cap ? c : c.subarray(0, cap - size));
      size += c.length;
    },
    end: () => done(Buffer.concat(kept).toString('utf8'), size > cap),
  };
}
