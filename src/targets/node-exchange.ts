import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { SpecgateError } from '../errors.js';

/**
 * One HTTP exchange with Node's own client, for the bundled reference programs that specgate
 * starts once per case (the reference client applications, the affiliate integration). node:http
 * is loaded with every Node process anyway; the global `fetch` would load and compile its whole
 * client library (and its WebAssembly parser) in each of them, which costs more CPU than the rest
 * of such a short-lived process. The engine's own client is http-client.ts.
 *
 * What the exchange does, decided rather than inherited from a library:
 * - it sends exactly the headers given (plus Host, Content-Length of a body, and Node's
 *   `Connection: keep-alive`): no implicit Accept, Accept-Encoding, User-Agent or Sec-Fetch-*;
 * - it never follows a redirect: a 3xx is the answer (no endpoint these programs call redirects,
 *   and one that reads `Location` itself must see it);
 * - it does not decompress: it asks for no encoding, so an answer comes as it is;
 * - `timeoutMs` bounds the whole exchange, answer and body, as an aborting fetch signal did.
 */
export interface NodeExchangeOptions {
  /** GET unless given. */
  method?: string;
  headers?: Readonly<Record<string, string>>;
  /** Sent as UTF-8 with its Content-Length; give its Content-Type in `headers`. */
  body?: string;
  /** The whole exchange's deadline (ms); none when undefined. */
  timeoutMs?: number;
}

/** An answer's header fields, looked up case-insensitively; repeated fields joined with ", ". */
export interface AnswerHeaders {
  get(name: string): string | null;
}

export interface NodeAnswer {
  status: number;
  headers: AnswerHeaders;
  /** The body as UTF-8 text. */
  text: string;
}

function headersOf(res: IncomingMessage): AnswerHeaders {
  const fields = new Map<string, string>();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    const value = raw[i + 1] ?? '';
    const had = fields.get(name);
    fields.set(name, had === undefined ? value : `${had}, ${value}`);
  }
  return { get: (name) => fields.get(name.toLowerCase()) ?? null };
}

async function sender(url: URL): Promise<(url: URL, options: RequestOptions, onAnswer: (res: IncomingMessage) => void) => ClientRequest> {
  if (url.protocol === 'http:') return httpRequest;
  if (url.protocol === 'https:') return (await import('node:https')).request;
  throw new SpecgateError('SG_TARGET_UNREACHABLE', `${url.href} is not an http: or https: URL`);
}

/**
 * Sends one request and reads its whole answer. Rejects with SG_TARGET_TIMEOUT when no answer
 * came within `timeoutMs` ("<METHOD> <url> did not answer within N s"), or when the answer began
 * but its body did not arrive ("... answered <status> but its body did not arrive (why)"), and
 * with SG_TARGET_UNREACHABLE when the request could not be sent ("<METHOD> <url> failed (why)").
 */
export async function nodeExchange(target: string | URL, options: NodeExchangeOptions = {}): Promise<NodeAnswer> {
  const url = typeof target === 'string' ? new URL(target) : target;
  const method = options.method ?? 'GET';
  const send = await sender(url);
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  const shown = `${method} ${url.href}`;
  return new Promise<NodeAnswer>((resolve, reject) => {
    let status: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    const fail = (timedOut: boolean, why: string): void => {
      if (timer) clearTimeout(timer);
      const seconds = `${(options.timeoutMs ?? 0) / 1000} s`;
      if (status !== undefined) reject(new SpecgateError('SG_TARGET_TIMEOUT', `${shown} answered ${status} but its body did not arrive (${timedOut ? `not within ${seconds}` : why})`));
      else if (timedOut) reject(new SpecgateError('SG_TARGET_TIMEOUT', `${shown} did not answer within ${seconds}`));
      else reject(new SpecgateError('SG_TARGET_UNREACHABLE', `${shown} failed (${why})`));
    };
    const req = send(url, { method, headers }, (res) => {
      status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (timer) clearTimeout(timer);
        resolve({ status: status ?? 0, headers: headersOf(res), text: Buffer.concat(chunks).toString('utf8') });
      });
      // an answer cut off mid-body ends with 'aborted' and 'error' (or only 'close' before 'end')
      res.on('error', (e) => fail(false, e.message));
      res.on('close', () => {
        if (!res.complete) fail(false, 'the connection closed');
      });
    });
    req.on('error', (e) => fail(false, e.message));
    if (options.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        fail(true, '');
        req.destroy();
      }, options.timeoutMs);
    }
    req.end(options.body);
  });
}
