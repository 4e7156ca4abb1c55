import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import { SpecgateError } from '../errors.js';
import { answerBytesBefore, trackAnswerBytes } from './answer-bytes.js';
import { parseBody } from './body-parse.js';
import { mapTransportError, timeoutError, tooLargeError, type FailureContext } from './http-errors.js';
import type { HttpClient, HttpLimits, HttpRequest, HttpResponse } from './types.js';

/** Limits an http target gets when its profile says nothing (the profile schema and README state the same; a test keeps them equal). */
export const HTTP_DEFAULTS: HttpLimits = { timeoutMs: 10_000, maxBodyBytes: 8 * 1024 * 1024 };

/** Options of {@link createHttpClient}: the limits plus what every request carries. */
export interface HttpClientOptions extends HttpLimits {
  /** Sent as `User-Agent` unless the request sets one itself. */
  userAgent?: string;
  /** Applied to URLs and causes in error messages (the client does not know the secrets). */
  redact?: (text: string) => string;
  /** How long an idle keep-alive connection is kept (default 4 s, below common server idle limits). */
  keepAliveTimeoutMs?: number;
}

type Body = Dispatcher.ResponseData['body'];
const EMPTY = Buffer.alloc(0);
const identity = (s: string): string => s;

/**
 * An HTTP/1.1 client on one pooled keep-alive undici Agent (DESIGN "Targets": http).
 * It never follows redirects — a 3xx is an observation and is returned as is — enforces a
 * per-request deadline (SG_TARGET_TIMEOUT) and a response body cap (SG_TARGET_TOO_LARGE, checked
 * while streaming, so a 50 MB answer is cut off at the cap), and maps connection failures to
 * SG_TARGET_UNREACHABLE; an answer that breaks HTTP/1.1 (a bad status line or header, a connection
 * cut in the middle of the answer) is SG_TARGET_PROTOCOL. Bodies are parsed by content type (see body-parse.ts).
 */
export function createHttpClient(limits: HttpClientOptions): HttpClient {
  trackAnswerBytes();
  const agent = new Agent({
    keepAliveTimeout: limits.keepAliveTimeoutMs ?? 4_000,
    connect: { timeout: limits.timeoutMs },
    headersTimeout: limits.timeoutMs,
    bodyTimeout: limits.timeoutMs,
  });
  const redact = limits.redact ?? identity;
  const userAgent = limits.userAgent;

  async function send(req: HttpRequest): Promise<HttpResponse> {
    const start = performance.now();
    const timeoutMs = req.timeoutMs ?? limits.timeoutMs;
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      const shown = redact(req.url);
      throw new SpecgateError('SG_CONFIG', `"${shown}" is not an absolute URL; check the base URL in the target profile`, { url: shown });
    }
    const outer = req.signal;
    if (outer?.aborted) throw outer.reason;
    const deadline = new Deadline(timeoutMs, outer);
    try {
      const res = await agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method,
        headers: userAgent === undefined ? req.headers : withUserAgent(req.headers, userAgent),
        body: req.body ?? null,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: deadline,
      });
      const headers = normalizeHeaders(res.headers);
      // HEAD, 204 and 304 answers declare a length they do not send.
      const declared = req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304 ? undefined : headers['content-length'];
      const bytes = await readCapped(res.body, declared, limits.maxBodyBytes);
      const bodyText = bytes.toString('utf8');
      const ct = headers['content-type'];
      const parsed = parseBody(typeof ct === 'string' ? ct : undefined, bodyText);
      const out: HttpResponse = { status: res.statusCode, headers, bodyBytes: bytes, bodyText, body: parsed.body, durationMs: performance.now() - start };
      if (parsed.parseError !== undefined) out.parseError = parsed.parseError;
      return out;
    } catch (e) {
      if (outer?.aborted && !deadline.timedOut) throw outer.reason;
      // Built only on failure: the success path allocates nothing for error reporting.
      const ctx: FailureContext = { method: req.method, url: redact(req.url), timeoutMs, maxBodyBytes: limits.maxBodyBytes };
      if (e instanceof BodyTooLarge) throw tooLargeError(ctx, e.seen, e.declared);
      if (deadline.timedOut) throw timeoutError(ctx, e);
      throw mapTransportError(e, ctx, redact, answerBytesBefore(e));
    } finally {
      deadline.dispose();
    }
  }

  return {
    send,
    close: () => agent.close(),
  };
}

function withUserAgent(headers: Record<string, string>, ua: string): Record<string, string> {
  for (const k in headers) if (k.length === 10 && k.toLowerCase() === 'user-agent') return headers;
  return { ...headers, 'user-agent': ua };
}

/** undici already lower-cases names; repeated headers arrive as arrays and are joined (RFC 9110 §5.3). */
function normalizeHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  for (const k in raw) {
    const v = raw[k];
    if (v === undefined) delete raw[k];
    else if (k === 'set-cookie') {
      // Cookies cannot be joined with commas (Expires contains one), so they stay a list.
      if (!Array.isArray(v)) raw[k] = [v];
    } else if (Array.isArray(v)) raw[k] = v.join(', ');
  }
  return raw as Record<string, string | string[]>;
}

/**
 * The overall deadline of one request, handed to undici as its abort `signal`. undici accepts an
 * EventEmitter with `aborted`/`reason`; an AbortController (an EventTarget) costs several times
 * more to create and to listen on, which showed as a third of the client's overhead over a bare
 * undici loop. headersTimeout/bodyTimeout alone would only bound idle gaps, not the total.
 */
class Deadline extends EventEmitter {
  aborted = false;
  timedOut = false;
  reason: unknown = undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly outer: AbortSignal | undefined;
  private readonly onOuter: (() => void) | undefined;

  constructor(ms: number, outer: AbortSignal | undefined) {
    super();
    this.timer = setTimeout(expire, ms, this);
    this.outer = outer;
    if (outer) {
      this.onOuter = (): void => this.abort(outer.reason);
      outer.addEventListener('abort', this.onOuter, { once: true });
    }
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.outer && this.onOuter) this.outer.removeEventListener('abort', this.onOuter);
  }
}

function expire(d: Deadline): void {
  d.timedOut = true;
  d.abort(undefined);
}

/** Internal signal from readCapped; send() turns it into SG_TARGET_TOO_LARGE with the request's context. */
class BodyTooLarge extends Error {
  constructor(readonly seen: number, readonly declared?: number) {
    super('response body over the cap');
  }
}

/** Collects the body, giving up (and dropping the connection) as soon as it passes the cap. */
function readCapped(body: Body, contentLength: string | string[] | undefined, cap: number): Promise<Buffer> {
  const declared = typeof contentLength === 'string' ? Number(contentLength) : NaN;
  if (declared > cap) {
    body.destroy();
    return Promise.reject(new BodyTooLarge(0, declared));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    body.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > cap) {
        done = true;
        body.destroy();
        reject(new BodyTooLarge(size));
        return;
      }
      chunks.push(chunk);
    });
    body.on('end', () => {
      if (done) return;
      done = true;
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, size));
    });
    body.on('error', (err: Error) => {
      if (done) return;
      done = true;
      reject(err);
    });
  });
}
