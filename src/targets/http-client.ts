import { performance } from 'node:perf_hooks';
import type { Agent, Dispatcher } from 'undici';
import { SpecgateError } from '../errors.js';
import { answerBytesBefore, trackAnswerBytes } from './answer-bytes.js';
import { parseBody } from './body-parse.js';
import { HTTP_DEFAULTS } from './http-defaults.js';
import { mapTransportError, timeoutError, tooLargeError, type FailureContext } from './http-errors.js';
import { Deadlines, type DeadlineEntry } from './deadlines.js';
import { isStopped, type StopSource } from './stop-source.js';
import { undici } from './undici-lazy.js';
import type { Throttle } from './throttle.js';
import type { HttpClient, HttpLimits, HttpRequest, HttpResponse } from './types.js';

export type { StopSource } from './stop-source.js';

export { HTTP_DEFAULTS };

/** Options of {@link createHttpClient}: the limits plus what every request carries. */
export interface HttpClientOptions extends HttpLimits {
  /** Sent as `User-Agent` unless the request sets one itself. */
  userAgent?: string;
  /** Applied to URLs and causes in error messages (the client does not know the secrets). */
  redact?: (text: string) => string;
  /** How long an idle keep-alive connection is kept (default 4 s, below common server idle limits). */
  keepAliveTimeoutMs?: number;
  /** The run's pace and its waits on throttling answers (429, 503 with Retry-After); none when undefined. */
  throttle?: Throttle;
}

/** Sends a request that stops with `stop` as it would with an AbortSignal aborted with the same reason. */
export type StoppableSend = (req: HttpRequest, stop: StopSource) => Promise<HttpResponse>;

/** The clients made here, by what sends with a stop on each. */
const stoppable = new WeakMap<HttpClient, StoppableSend>();

/**
 * How to send on `client` with a {@link StopSource} instead of an AbortSignal, when the client
 * was made by {@link createHttpClient}; undefined for any other client (give it a signal).
 */
export function sendFor(client: HttpClient): StoppableSend | undefined {
  return stoppable.get(client);
}

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
  const untrack = trackAnswerBytes();
  // made (and undici loaded: undici-lazy.ts) at the first request
  let pool: Agent | undefined;
  const agent = (): Agent =>
    (pool ??= new (undici().Agent)({
      keepAliveTimeout: limits.keepAliveTimeoutMs ?? 4_000,
      connect: { timeout: limits.timeoutMs },
      headersTimeout: limits.timeoutMs,
      bodyTimeout: limits.timeoutMs,
    }));
  const redact = limits.redact ?? identity;
  const userAgent = limits.userAgent;
  // every request's overall deadline, on one timer
  const deadlines = new Deadlines();

  function send(req: HttpRequest): Promise<HttpResponse> {
    return sendStopping(req, req.signal);
  }

  /**
   * Sends `req`, stopping early with `outer`. A promise chain rather than an async function: this
   * is on the way of every request, and a suspended frame costs more than a reaction.
   */
  function sendStopping(req: HttpRequest, outer: AbortSignal | StopSource | undefined): Promise<HttpResponse> {
    const { throttle } = limits;
    if (throttle === undefined) return sendOnce(req, outer);
    return throttle.send(req, outer, () => `${req.method} ${redact(req.url)}`, () => sendOnce(req, outer));
  }

  function sendOnce(req: HttpRequest, outer: AbortSignal | StopSource | undefined): Promise<HttpResponse> {
    const timeoutMs = req.timeoutMs ?? limits.timeoutMs;
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      const shown = redact(req.url);
      return Promise.reject(new SpecgateError('SG_CONFIG', `"${shown}" is not an absolute URL; check the base URL in the target profile`, { url: shown }));
    }
    if (outer !== undefined && isStopped(outer)) return Promise.reject(outer.reason);
    // the pool before the clock starts: the first request loads undici, which is the harness's
    // time, not the target's, so it must not count against the request's deadline
    let dispatcher: Agent;
    try {
      dispatcher = agent();
    } catch (e) {
      return Promise.reject(e);
    }
    const start = performance.now();
    const answer = new Answer(req.method, limits.maxBodyBytes, timeoutMs, outer, deadlines, start);
    const received = answer.received();
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: req.method as Dispatcher.HttpMethod,
          headers: userAgent === undefined ? req.headers : withUserAgent(req.headers, userAgent),
          body: req.body ?? null,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        answer,
      );
    } catch (e) {
      answer.fail(e);
    }
    return received.then(
      (bytes) => {
        answer.dispose();
        const { headers } = answer;
        const bodyText = bytes.toString('utf8');
        const ct = headers['content-type'];
        const parsed = parseBody(typeof ct === 'string' ? ct : undefined, bodyText);
        const out: HttpResponse = { status: answer.status, headers, bodyBytes: bytes, bodyText, body: parsed.body, durationMs: performance.now() - start };
        if (parsed.parseError !== undefined) out.parseError = parsed.parseError;
        return out;
      },
      (e: unknown) => {
        answer.dispose();
        if (outer !== undefined && isStopped(outer) && !answer.timedOut) throw outer.reason;
        // Built only on failure: the success path allocates nothing for error reporting.
        const ctx: FailureContext = { method: req.method, url: redact(req.url), timeoutMs, maxBodyBytes: limits.maxBodyBytes };
        if (e instanceof BodyTooLarge) throw tooLargeError(ctx, e.seen, e.declared);
        if (answer.timedOut) throw timeoutError(ctx, e);
        throw mapTransportError(e, ctx, redact, answerBytesBefore(e));
      },
    );
  }

  const client: HttpClient = {
    send,
    // the channels are left once the requests still under way have ended
    close: () => (pool ? pool.close().finally(untrack) : Promise.resolve().then(untrack)),
  };
  stoppable.set(client, (req, stop) => sendStopping(req, stop));
  return client;
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

type Headers = Record<string, string | string[] | undefined>;

/**
 * One request's answer, collected as undici's dispatcher delivers it: the status, the headers,
 * and the body, given up on (and the connection dropped) as soon as it passes the cap. It also
 * holds the request's overall deadline and listens for the request's stop (its AbortSignal or
 * its case's stop), aborting the exchange on either; headersTimeout/bodyTimeout alone would only
 * bound idle gaps, not the total. Driving the dispatcher directly, rather than through undici's
 * request(), spares a stream per answer and an async resource per request, which showed as most
 * of the client's own cost next to a bare undici loop.
 */
class Answer implements Dispatcher.DispatchHandler, DeadlineEntry {
  at = 0;
  prev: DeadlineEntry | undefined = undefined;
  next: DeadlineEntry | undefined = undefined;
  status = 0;
  headers: Record<string, string | string[]> = {};
  timedOut = false;
  private chunks: Buffer[] = [];
  private size = 0;
  private controller: Dispatcher.DispatchController | undefined;
  /** The exchange must stop, for `stopReason` (aborted when the request reaches a connection, if it has not yet). */
  private stopping = false;
  private stopReason: unknown = undefined;
  private resolve: (bytes: Buffer) => void = ignore;
  private reject: (err: unknown) => void = ignore;
  private readonly onOuter: ((reason?: unknown) => void) | undefined;

  constructor(
    private readonly method: string,
    private readonly cap: number,
    readonly durationMs: number,
    private readonly outer: AbortSignal | StopSource | undefined,
    private readonly deadlines: Deadlines,
    start: number,
  ) {
    deadlines.add(this, start);
    if (outer instanceof AbortSignal) {
      this.onOuter = (): void => this.stop(outer.reason);
      outer.addEventListener('abort', this.onOuter, { once: true });
    } else if (outer) {
      this.onOuter = (reason): void => this.stop(reason);
      outer.onStop(this.onOuter);
    }
  }

  /** The body, once the whole answer has arrived; rejects with what ended the exchange. */
  received(): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Aborts the exchange (at once, or as soon as the request reaches a connection). */
  stop(reason: unknown): void {
    if (this.stopping) return;
    this.stopping = true;
    // as undici's own request() does for an abort without a reason
    this.stopReason = reason ?? new (undici().errors.RequestAbortedError)();
    this.controller?.abort(this.stopReason as Error);
  }

  /** The request's overall deadline passed. */
  expire(): void {
    this.timedOut = true;
    this.stop(undefined);
  }

  dispose(): void {
    this.deadlines.remove(this);
    const { outer, onOuter } = this;
    if (!outer || !onOuter) return;
    if (outer instanceof AbortSignal) outer.removeEventListener('abort', onOuter);
    else outer.offStop(onOuter);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // undici hands the reason on as it is: whatever the caller aborted with, Error or not
    if (this.stopping) controller.abort(this.stopReason as Error);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Headers): void {
    // informational answers (100 Continue, 103 Early Hints) come before the answer itself
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = normalizeHeaders(headers);
    // HEAD, 204 and 304 answers declare a length they do not send.
    const declared = this.method === 'HEAD' || statusCode === 204 || statusCode === 304 ? undefined : this.headers['content-length'];
    const length = typeof declared === 'string' ? Number(declared) : NaN;
    if (length > this.cap) controller.abort(new BodyTooLarge(0, length));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.size > this.cap) return; // already given up on
    this.size += chunk.length;
    if (this.size > this.cap) {
      this.chunks = [];
      controller.abort(new BodyTooLarge(this.size));
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    const { chunks, resolve } = this;
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, this.size);
    this.release();
    resolve(bytes);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.fail(err);
  }

  /** The exchange failed: undici said so, or the request could not even be handed to the dispatcher. */
  fail(err: unknown): void {
    const { reject } = this;
    this.release();
    reject(err);
  }

  /**
   * Lets go of what the exchange no longer needs once it has ended: undici's controller (which
   * holds the answer's raw header buffers and, through them, the socket's read chunks), the body's
   * chunks and the promise's settling functions. V8 may place answers in the old generation from
   * the start (it pretenures what an allocation site's objects tend to outlive), and there even a
   * finished, unreachable answer keeps what it points to through every minor collection until the
   * next full one: a run of 2,000 requests carried every answer's raw headers, 2 MB, into the old
   * generation that way (bench/harness-http.ts, docs/performance.md).
   */
  private release(): void {
    this.controller = undefined;
    this.chunks = [];
    this.resolve = ignore;
    this.reject = ignore;
  }
}

const ignore = (): void => undefined;

/** The body passed the cap; send() turns it into SG_TARGET_TOO_LARGE with the request's context. */
class BodyTooLarge extends Error {
  constructor(readonly seen: number, readonly declared?: number) {
    super('response body over the cap');
  }
}
