import { SpecgateError, type SpecgateErrorCode } from '../errors.js';
import { describeParserError } from './http-malformed.js';
import { undici } from './undici-lazy.js';

/** What the http client knew when a request failed, for a message that says what to do. */
export interface FailureContext {
  method: string;
  /** Already redacted. */
  url: string;
  timeoutMs: number;
  maxBodyBytes: number;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EHOSTUNREACH',
  'ENETUNREACH', 'EHOSTDOWN', 'EPIPE', 'EADDRNOTAVAIL', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
]);
/** A connection that ends with one of these after part of an answer arrived cut that answer short. */
const CUT_SHORT = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
/** undici's words for an answer it was not waiting for (a stray 100 Continue, a second response, an unasked upgrade). */
const UNASKED = new Set(['bad response', 'bad upgrade']);
const TIMEOUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const PROTOCOL = new Set([
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_NOT_SUPPORTED', 'UND_ERR_INFO', 'UND_ERR_RESPONSE',
]);

/** The errno-like code of an error; Node's happy-eyeballs connect wraps errors in an AggregateError. */
export function errorCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (e instanceof AggregateError) {
    for (const inner of e.errors) {
      const c = errorCode(inner);
      if (c !== undefined) return c;
    }
  }
  return undefined;
}

/** SG_TARGET_TIMEOUT for an HTTP request, telling where to raise the limit. */
export function timeoutError(ctx: FailureContext, cause?: unknown): SpecgateError {
  return new SpecgateError(
    'SG_TARGET_TIMEOUT',
    `${ctx.method} ${ctx.url} did not complete within ${ctx.timeoutMs} ms; if the target is just slow, raise http.timeoutMs for this suite in the target profile`,
    { url: ctx.url, method: ctx.method, timeoutMs: ctx.timeoutMs },
    { cause },
  );
}

/** SG_TARGET_TOO_LARGE for a response body over the cap. */
export function tooLargeError(ctx: FailureContext, seenBytes: number, declared?: number): SpecgateError {
  const how = declared !== undefined ? `declares Content-Length ${declared}` : `sent more (${seenBytes} bytes read before giving up)`;
  return new SpecgateError(
    'SG_TARGET_TOO_LARGE',
    `the response to ${ctx.method} ${ctx.url} ${how}, over the cap of ${ctx.maxBodyBytes} bytes; the body was not read further. If such bodies are expected, raise http.maxBodyBytes for this suite in the target profile`,
    { url: ctx.url, method: ctx.method, maxBodyBytes: ctx.maxBodyBytes, ...(declared !== undefined ? { contentLength: declared } : { bytesSeen: seenBytes }) },
  );
}

/**
 * Maps an undici / socket error to a SpecgateError with a stable code and a message that helps.
 * `received` is how many bytes of the answer had arrived (answer-bytes.ts), when known: a
 * connection that ends after some of them cut the answer short, which is a broken answer, not an
 * unreachable target.
 */
export function mapTransportError(e: unknown, ctx: FailureContext, redact: (s: string) => string, received?: number): SpecgateError {
  if (e instanceof SpecgateError) return e;
  const code = errorCode(e);
  const reason = redact(e instanceof Error ? e.message : String(e));
  const detail = { url: ctx.url, method: ctx.method, cause: reason, errorCode: code };
  // undici's parser errors carry no code (it looks the code up by the wrong key), so they are known by their class
  if (e instanceof undici().errors.HTTPParserError || code?.startsWith('HPE_')) {
    const what = describeParserError(e, redact);
    return new SpecgateError('SG_TARGET_PROTOCOL', `${ctx.method} ${ctx.url}: the target's answer is not valid HTTP/1.1: ${what}`, { ...detail, malformed: what }, { cause: e });
  }
  if (code === 'UND_ERR_SOCKET' && e instanceof Error && UNASKED.has(e.message)) {
    return new SpecgateError(
      'SG_TARGET_PROTOCOL',
      `${ctx.method} ${ctx.url}: the target's answer is not valid HTTP/1.1: it sent what was not asked for (${reason}: a 100 Continue to a request that did not expect one, a second response, or an upgrade nobody asked for)`,
      detail,
      { cause: e },
    );
  }
  if (code !== undefined && CUT_SHORT.has(code) && received !== undefined && received > 0) {
    const how = code === 'ECONNRESET' ? 'reset' : 'closed';
    return new SpecgateError(
      'SG_TARGET_PROTOCOL',
      `${ctx.method} ${ctx.url}: the target ${how} the connection after ${received} byte${received === 1 ? '' : 's'} of its answer, before the answer was complete (${reason}); the answer is not valid HTTP/1.1`,
      { ...detail, bytesReceived: received },
      { cause: e },
    );
  }
  if (code !== undefined && TIMEOUT.has(code)) return timeoutError(ctx, e);
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'UND_ERR_RESPONSE_EXCEEDED_MAX_SIZE') {
    return new SpecgateError('SG_TARGET_TOO_LARGE', `the response headers of ${ctx.method} ${ctx.url} are too large (${reason})`, detail, { cause: e });
  }
  let sgCode: SpecgateErrorCode = 'SG_INTERNAL';
  let message = `${ctx.method} ${ctx.url} failed: ${reason}${code ? ` (${code})` : ''}`;
  if (code !== undefined && UNREACHABLE.has(code)) {
    sgCode = 'SG_TARGET_UNREACHABLE';
    const what = code === 'ECONNREFUSED' ? 'connection refused'
      : code.startsWith('EAI_') || code === 'ENOTFOUND' ? 'host name does not resolve'
      : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' ? 'the connection was closed or reset by the target'
      : 'no route to the target';
    message = `cannot reach ${ctx.url} (${what}: ${reason}); check the base URL in the target profile and that the target is running`;
  } else if (code !== undefined && PROTOCOL.has(code)) {
    sgCode = 'SG_TARGET_PROTOCOL';
    message = `${ctx.method} ${ctx.url}: the target's answer is not valid HTTP/1.1 (${reason})`;
  } else if (code === 'UND_ERR_INVALID_ARG' || e instanceof TypeError) {
    // Header values with CR/LF, unknown methods and the like: the request as written cannot be sent.
    sgCode = 'SG_CONFIG';
    message = `${ctx.method} ${ctx.url} cannot be sent: ${reason}; check the request in the case or the profile`;
  }
  return new SpecgateError(sgCode, message, detail, { cause: e });
}
