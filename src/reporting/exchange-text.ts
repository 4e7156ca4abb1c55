/**
 * What a failure shows of the traffic behind it: the exchange it was judged on (its own, or else
 * the last one its case recorded), the request and the answer in a few lines, and a `curl`
 * command that sends the same HTTP request again. Secrets are already masked in a recorded
 * exchange (`***`); the command names them as a shell variable to set, never their value.
 */
import type { Assertion, CaseResult, Exchange, Failure } from '../engine/model.js';
import { showValue } from './json-text.js';

/**
 * How a recorded exchange spells a masked secret and the end of a cut body. Reporters read the
 * engine's result only, so these are written here as the result's contract; a test keeps them
 * equal to what the targets write (MASK in redact.ts, CUT_MARK in text-cut.ts).
 */
export const MASK = '***';
export const CUT_MARK = '…';

/** The shell variable a `curl` command reads a masked secret from. */
export const SECRET_VARIABLE = 'SPECGATE_SECRET';

/** The exchange a failure was judged on: its own, else the last HTTP one of its case, else the case's last. */
export function exchangeOf(c: Pick<CaseResult, 'exchanges'>, f: Pick<Failure, 'exchange'>): Exchange | undefined {
  if (f.exchange) return f.exchange;
  for (let i = c.exchanges.length - 1; i >= 0; i -= 1) if (c.exchanges[i]?.kind === 'http') return c.exchanges[i];
  return c.exchanges.at(-1);
}

/** A failure as {@link exchangesToShow} reads it: its exchange, and its assertions' when it has several. */
type ShownFailure = Pick<Failure, 'exchange'> & { assertions?: readonly Pick<Assertion, 'exchange'>[] };

/**
 * Per failure of `c`, and per assertion of it (one for a failure of one assertion), the exchange
 * to show with it: the one it was judged on ({@link exchangeOf}), unless the assertion before it
 * showed the same one; undefined then, and when there is none.
 */
export function exchangesToShow(c: Pick<CaseResult, 'exchanges'> & { failures: readonly ShownFailure[] }): (Exchange | undefined)[][] {
  let last: Exchange | undefined;
  return c.failures.map((f) =>
    (f.assertions ?? [f]).map((a) => {
      const x = exchangeOf(c, a.exchange ? a : f);
      if (x === undefined || sameExchange(x, last)) return undefined;
      last = x;
      return x;
    }),
  );
}

interface HttpRequestShown {
  method: string;
  url: string;
  headers: Record<string, unknown>;
  body?: unknown;
}

interface HttpAnswerShown {
  status: number;
  headers: Record<string, unknown>;
  body?: unknown;
}

function httpRequest(x: Exchange): HttpRequestShown | undefined {
  const r = x.request as Partial<HttpRequestShown> | undefined;
  if (x.kind !== 'http' || !r || typeof r.method !== 'string' || typeof r.url !== 'string') return undefined;
  return { method: r.method, url: r.url, headers: typeof r.headers === 'object' && r.headers !== null ? r.headers : {}, body: r.body };
}

function httpAnswer(x: Exchange): HttpAnswerShown | undefined {
  const r = x.response as Partial<HttpAnswerShown> | undefined;
  if (x.kind !== 'http' || !r || typeof r.status !== 'number') return undefined;
  return { status: r.status, headers: typeof r.headers === 'object' && r.headers !== null ? r.headers : {}, body: r.body };
}

/** A body as a report shows it: its first `max` characters on one line. */
function bodyHead(body: unknown, max: number): string | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  const text = (typeof body === 'string' ? body : showValue(body)).replace(/\s*\n\s*/g, ' ');
  return text.length > max ? `${text.slice(0, max)}${CUT_MARK}` : text;
}

function headerLines(headers: Record<string, unknown>, skip?: ReadonlySet<string>): string[] {
  return Object.entries(headers)
    .filter(([k]) => !skip?.has(k.toLowerCase()))
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`);
}

/** Headers of the connection, not of the answer: left out of the short form (the report keeps them). */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive']);

/**
 * The request and the answer of an HTTP exchange in a few lines (request line, headers, the
 * head of each body); undefined for any other kind of exchange, whose summary says it all.
 */
export function exchangeLines(x: Exchange, bodyMax = 300): string[] | undefined {
  const req = httpRequest(x);
  if (!req) return undefined;
  const lines = [`Request: ${req.method} ${req.url}`];
  for (const h of headerLines(req.headers)) lines.push(`  ${h}`);
  const sent = bodyHead(req.body, bodyMax);
  if (sent !== undefined) lines.push(`  body: ${sent}`);
  const res = httpAnswer(x);
  if (!res) return lines;
  lines.push(`Answer: ${res.status}`);
  for (const h of headerLines(res.headers, CONNECTION_HEADERS)) lines.push(`  ${h}`);
  const got = bodyHead(res.body, bodyMax);
  if (got !== undefined) lines.push(`  body: ${got}`);
  return lines;
}

/** `s` quoted for a POSIX shell, a masked secret left to the shell as `$SPECGATE_SECRET`. */
function shellWord(s: string): string {
  const parts = s.split(MASK).map((p) => `'${p.replace(/'/g, `'\\''`)}'`);
  return parts.join(`"$${SECRET_VARIABLE}"`).replace(/^''(?=.)|(?<=.)''$/g, '');
}

/** Headers curl sets itself (or must work out again for the body it sends). */
const CURL_OWN = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

/**
 * A `curl` command that sends the exchange's HTTP request again, or undefined when it cannot:
 * not HTTP, or a body the report holds only the head of. A masked secret is read from
 * `$SPECGATE_SECRET` (the report never holds it); {@link curlNote} says so.
 */
export function curlCommand(x: Exchange): string | undefined {
  const req = httpRequest(x);
  if (!req) return undefined;
  if (req.body !== undefined && (typeof req.body !== 'string' || req.body.includes(CUT_MARK))) return undefined;
  const words = ['curl', '-sS', '-i'];
  if (req.method !== 'GET' || req.body !== undefined) words.push('-X', req.method);
  words.push(shellWord(req.url));
  for (const h of headerLines(req.headers)) if (!CURL_OWN.has((h.split(':')[0] ?? '').toLowerCase())) words.push('-H', shellWord(h));
  if (typeof req.body === 'string' && req.body !== '') words.push('--data-raw', shellWord(req.body));
  return words.join(' ');
}

/** Whether two recorded exchanges are the same one (a failure's copy of it, or the case's). */
export function sameExchange(a: Exchange | undefined, b: Exchange | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return a.kind === b.kind && a.summary === b.summary && a.durationMs === b.durationMs && JSON.stringify(a.request) === JSON.stringify(b.request);
}

/** What to do before running a `curl` command that reads a masked secret (undefined when it reads none). */
export function curlNote(command: string): string | undefined {
  return command.includes(`$${SECRET_VARIABLE}`) ? `set ${SECRET_VARIABLE} first: the value the report masks as ${MASK} (a secret of your target profile, or a credential the target issued)` : undefined;
}
