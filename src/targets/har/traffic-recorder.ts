/**
 * The forwarding proxy of `specgate record`: plain HTTP on 127.0.0.1 in front of an http or https
 * upstream. Every request is forwarded unchanged (method, path and query, headers but Host, the
 * body streamed whole) and the client gets the upstream's answer as it came; the recorder keeps a
 * copy of each body up to a cap and hands each finished exchange over. An upstream that cannot
 * be reached is answered 502, and the exchange is handed over with status 0 (no answer).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { listenOnLoopback } from '../loopback-server.js';
import type { CapturedExchange } from './har-writer.js';

export interface TrafficRecorder {
  /** `http://127.0.0.1:<port>`: the URL to give the client instead of the upstream's. */
  url: string;
  /** Stops listening and closes every connection; exchanges still open are handed over as they stand. */
  stop(): Promise<void>;
}

export interface RecorderOptions {
  upstream: URL;
  /** Bytes of each body kept for the recording (the client and the upstream get all of them). */
  maxBody: number;
  port?: number;
  onExchange(x: CapturedExchange): void;
}

/** Pairs from a raw header list ([k, v, k, v, ...]). */
function pairs(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
  return out;
}

/** A capped copy of a stream's bytes, and how many bytes it had in all. */
class Kept {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  size = 0;
  constructor(private readonly cap: number) {}
  add = (c: Buffer): void => {
    if (this.kept < this.cap) {
      const part = this.kept + c.length <= this.cap ? c : c.subarray(0, this.cap - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.size += c.length;
  };
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export async function startTrafficRecorder(opts: RecorderOptions): Promise<TrafficRecorder> {
  const up = opts.upstream;
  const secure = up.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  // the upstream's base path (`https://api.example.test/v2`) goes before each request's path
  const basePath = up.pathname.replace(/\/+$/, '');
  const open = new Set<() => void>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const startedAt = new Date();
    const target = req.url ?? '/';
    const sent = new Kept(opts.maxBody);
    const back = new Kept(opts.maxBody);
    let waitMs = -1;
    let status = 0;
    let statusText = '';
    let responseHeaders: [string, string][] = [];
    let error: string | undefined;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      open.delete(finish);
      const x: CapturedExchange = {
        startedAt,
        durationMs: performance.now() - started,
        waitMs,
        method: req.method ?? 'GET',
        url: `${up.origin}${basePath}${target}`,
        httpVersion: `HTTP/${req.httpVersion}`,
        requestHeaders: pairs(req.rawHeaders).map(([k, v]): [string, string] => [k, k.toLowerCase() === 'host' ? up.host : v]),
        requestBody: sent.bytes(),
        requestSize: sent.size,
        status,
        statusText,
        responseHeaders,
        responseBody: back.bytes(),
        responseSize: back.size,
        ...(error !== undefined ? { error } : {}),
      };
      opts.onExchange(x);
    };
    open.add(finish);

    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== 'host') headers[k] = v;
    headers['host'] = up.host;
    const out = send(
      { protocol: up.protocol, hostname: up.hostname.replace(/^\[|\]$/g, ''), port: up.port || (secure ? 443 : 80), method: req.method, path: `${basePath}${target}`, headers, servername: secure ? up.hostname : undefined },
      (answer) => {
        waitMs = performance.now() - started;
        status = answer.statusCode ?? 0;
        statusText = answer.statusMessage ?? '';
        responseHeaders = pairs(answer.rawHeaders);
        answer.on('data', back.add);
        answer.on('end', finish);
        answer.on('error', (e) => {
          error ??= `the answer broke off: ${e.message}`;
          finish();
        });
        // the client gets the answer as it came, headers in their order and spelling
        res.writeHead(status, statusText, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    out.on('error', (e) => {
      if (status !== 0) {
        // the answer had started: the client sees it cut short
        error ??= `the answer broke off: ${e.message}`;
        res.destroy();
        finish();
        return;
      }
      error = `${up.origin} did not answer: ${e.message}`;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`specgate record: ${error}\n`);
      // drain what the client still sends, so it reads the 502
      req.resume();
      finish();
    });
    req.on('data', sent.add);
    req.on('aborted', () => out.destroy());
    req.pipe(out);
  });
  // a client's connection error ends only that connection
  server.on('clientError', (_e, socket) => socket.destroy());
  const listening = await listenOnLoopback(server, opts.port ?? 0);
  return {
    url: listening.url,
    stop: async () => {
      await listening.stop();
      for (const f of [...open]) f();
    },
  };
}
