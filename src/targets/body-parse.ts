import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SpecgateError } from '../errors.js';
import { MAX_JSON_DEPTH } from './json-depth.js';
import { parseWithBigIntegers } from './json-big-integers.js';

/** A response body as the http target parsed it. */
export interface ParsedBody {
  body: unknown;
  /** Set when the content type claims a format the body does not follow. */
  parseError?: string;
}

const NONE: ParsedBody = { body: undefined };

/** The kind of body a media type announces, or undefined when we do not parse it. */
export type BodyKind = 'json' | 'form' | 'xml';

/**
 * Classifies a `Content-Type` value. `+json` / `+xml` structured-syntax suffixes (RFC 6839) count,
 * so `application/problem+json` and `application/atom+xml` are parsed like their base formats.
 */
export function bodyKind(contentType: string | undefined): BodyKind | undefined {
  if (contentType === undefined) return undefined;
  const semi = contentType.indexOf(';');
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  if (type === 'application/json' || type === 'text/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  return undefined;
}

/**
 * Parses a response body by its content type: JSON losslessly, form-encoded as an object of
 * strings, XML as an element tree; anything else (and an empty body) gives `body: undefined`.
 * JSON nested beyond {@link MAX_JSON_DEPTH} throws SpecgateError `SG_TARGET_PROTOCOL`: the
 * target may be right, but specgate cannot judge it, as with a body over the size cap.
 * @param what names the body in that error.
 */
export function parseBody(contentType: string | undefined, text: string, what = 'the answer'): ParsedBody {
  const kind = bodyKind(contentType);
  // An empty body with a content type is normal for HEAD, 204 and 304: not a parse error.
  if (kind === undefined || text.trim() === '') return NONE;
  try {
    if (kind === 'json') return { body: parseJsonLossless(text, what) };
    if (kind === 'form') return { body: parseForm(text) };
    return parseXml(text);
  } catch (e) {
    // Too deep is not malformed: the body may be valid JSON that specgate declines to walk.
    if (e instanceof SpecgateError) throw e;
    return { body: undefined, parseError: `${kind} body does not parse: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** How a report names each body kind ("the body is not JSON"). */
export const BODY_KIND_NAMES: Readonly<Record<BodyKind, string>> = { json: 'JSON', form: 'form-encoded', xml: 'XML' };

/** Why a body was not decoded: the format it was taken for, and the decoder's own words. */
export interface Undecoded {
  /** The format the body claims (Content-Type) or, without a claim, the one the request asked for. */
  kind: BodyKind | undefined;
  reason: string;
  /**
   * The Content-Type it came with (or "no Content-Type"), when that names no format specgate
   * decodes, which is then part of why.
   */
  cameWith?: string;
}

/**
 * Why a non-empty body has no decoded value, in the decoder's own words: the JSON or XML error
 * when it claims a format it does not follow; when its Content-Type names no format specgate
 * decodes, the error of decoding it as `wanted` (the format the request asked for), or, when it
 * would decode, that its Content-Type kept it from being decoded. Undefined when the body is
 * empty or decodes as it claims. Only called for a failure, so parsing twice costs nothing on
 * the way of a passing step.
 */
export function whyUndecoded(contentType: string | undefined, text: string, wanted?: BodyKind): Undecoded | undefined {
  if (text.trim() === '') return undefined;
  const claimed = bodyKind(contentType);
  if (claimed !== undefined) {
    const reason = decodeError(claimed, text);
    return reason === undefined ? undefined : { kind: claimed, reason };
  }
  // the media type alone: its parameters (charset) do not decide whether it is decoded
  const cameWith = contentType === undefined ? 'no Content-Type' : `Content-Type ${contentType.split(';')[0]?.trim() ?? contentType}`;
  if (wanted === undefined) return { kind: undefined, reason: `it came with ${cameWith}, which names no format specgate decodes`, cameWith };
  const reason = decodeError(wanted, text);
  if (reason === undefined) return { kind: wanted, reason: `it came with ${cameWith}, so it was not decoded (as ${BODY_KIND_NAMES[wanted]} it would have been)`, cameWith };
  return { kind: wanted, reason, cameWith };
}

/** How many characters of an undecodable body its message quotes ("first bytes: ..."). */
export const FIRST_BYTES_CHARS = 40;

/**
 * The message of a non-empty body that was not decoded, led by the decoder's own error:
 * `the body is not JSON: Unexpected token '<', ... (first bytes: "<html>…")`. Undefined when
 * it decodes as it claims (or is empty). `redact` masks the target's secrets in the body's text
 * before it is cut, and in the decoder's error, which may quote the body.
 */
export function undecodedMessage(contentType: string | undefined, text: string, wanted?: BodyKind, redact: (text: string) => string = (t) => t): string | undefined {
  const why = whyUndecoded(contentType, text, wanted);
  if (!why) return undefined;
  const what = why.kind ? BODY_KIND_NAMES[why.kind] : 'JSON, XML or form-encoded';
  // a reason that already names the Content-Type does not name it twice
  const cameWith = why.cameWith && !why.reason.includes(why.cameWith) ? `it came with ${why.cameWith}; ` : '';
  return `the body is not ${what}: ${redact(why.reason)} (${cameWith}first bytes: ${firstBytes(redact(text))})`;
}

/** The head of a (masked) body, quoted, with `…` after the quote when there is more. */
function firstBytes(masked: string): string {
  if (masked.length <= FIRST_BYTES_CHARS) return JSON.stringify(masked);
  const last = masked.charCodeAt(FIRST_BYTES_CHARS - 1);
  const cut = last >= 0xd800 && last <= 0xdbff ? FIRST_BYTES_CHARS - 1 : FIRST_BYTES_CHARS;
  return `${JSON.stringify(masked.slice(0, cut))}…`;
}

/** The decoder's error for `text` as `kind`, or undefined when it decodes (form text always does). */
function decodeError(kind: BodyKind, text: string): string | undefined {
  if (kind === 'form') return undefined;
  if (kind === 'xml') {
    const valid = XMLValidator.validate(text);
    return valid === true ? undefined : `not well-formed at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`;
  }
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export { MAX_JSON_DEPTH };

/** What one scan of JSON text tells before it is parsed. */
export interface JsonShape {
  /** The deepest nesting of arrays and objects. */
  depth: number;
  /** A number of 16 digits or more, which a double may not hold exactly. */
  longDigits: boolean;
  /**
   * Where the integer literals that a double cannot hold (beyond ±(2^53−1)) start and end, as
   * pairs of offsets: the values the lossless parse turns into `bigint`. Empty when there are none.
   */
  bigIntegers: number[];
}

/**
 * Measures JSON text by one scan that skips strings: no value is built, so measuring a hostile
 * body costs no more than reading it, and the scan also decides which parser the text needs.
 */
export function jsonShape(text: string): JsonShape {
  let depth = 0;
  let max = 0;
  let digits = 0;
  let longDigits = false;
  const bigIntegers: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (++digits >= 16) longDigits = true;
      continue;
    }
    if (digits >= 16) bigInteger(text, i - digits, i, bigIntegers);
    digits = 0;
    if (c === 0x22) i = closingQuote(text, i);
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  if (digits >= 16) bigInteger(text, text.length - digits, text.length, bigIntegers);
  return { depth: max, longDigits, bigIntegers };
}

/**
 * Adds the span of the run of digits `start`..`end` (with its minus sign) when it is a whole
 * integer literal of JSON (not a fraction or an exponent, no leading zero) that a double cannot
 * hold exactly.
 */
function bigInteger(text: string, start: number, end: number, out: number[]): void {
  const after = text.charCodeAt(end);
  if (after === 0x2e || after === 0x45 || after === 0x65 || text.charCodeAt(start) === 0x30) return;
  const signed = text.charCodeAt(start - 1) === 0x2d;
  const before = text.charCodeAt(signed ? start - 2 : start - 1);
  if (before === 0x2e || before === 0x45 || before === 0x65 || before === 0x2b || before === 0x2d) return;
  const from = signed ? start - 1 : start;
  if (!Number.isSafeInteger(Number(text.slice(from, end)))) out.push(from, end);
}

/** Index of the quote that ends the string opened at `open` (or the end of the text). */
function closingQuote(text: string, open: number): number {
  let i = text.indexOf('"', open + 1);
  while (i !== -1) {
    let slashes = 0;
    while (text.charCodeAt(i - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return i;
    i = text.indexOf('"', i + 1);
  }
  return text.length;
}

/** The error for JSON nested beyond {@link MAX_JSON_DEPTH}; `what` names the text ("the answer of GET /x"). */
export function tooDeepError(what: string, depth: number): SpecgateError {
  return new SpecgateError('SG_TARGET_PROTOCOL', `${what} nests JSON ${depth} levels deep, beyond specgate's limit of ${MAX_JSON_DEPTH}`, { depth, limit: MAX_JSON_DEPTH });
}

// Only integer literals of 16+ digits can lose precision in a double, so text without such a
// run takes the native parser; the pure-JS lossless parser is several times slower.
const LONG_DIGITS = /\d{16}/;
const NO_LONG_DIGITS: JsonShape = { depth: 0, longDigits: false, bigIntegers: [] };

/**
 * JSON.parse, except that integers outside ±(2^53−1) become `bigint` (int64 ids must compare
 * exactly). Duplicate keys keep the last value, as JSON.parse does. Throws SyntaxError, or
 * SpecgateError `SG_TARGET_PROTOCOL` for text nested beyond {@link MAX_JSON_DEPTH}.
 *
 * The value is that of the lossless parser (lossless-json, whose number parser makes the
 * `bigint`s); the native parser gives it faster wherever it is the same value: when no integer
 * literal is beyond a double (json-big-integers.ts), or with those literals read back from
 * marks. The lossless parser still parses what the native one refuses, so that a text that is
 * not JSON fails with the same words as before.
 * @param what names the text in that error ("the answer of GET /x").
 */
export function parseJsonLossless(text: string, what = 'the text'): unknown {
  // A text shorter than the limit cannot nest beyond it: a regular expression finds long numbers.
  // (A short text with such a run in a string takes the lossless way too: only the scan tells
  // where its literals are, and a text that is not JSON keeps the lossless parser's words.)
  const shape = text.length > MAX_JSON_DEPTH ? jsonShape(text) : LONG_DIGITS.test(text) ? { ...jsonShape(text), longDigits: true } : NO_LONG_DIGITS;
  if (shape.depth > MAX_JSON_DEPTH) {
    // Text that is not JSON at all stays a syntax error (V8's own parser does not recurse).
    JSON.parse(text);
    throw tooDeepError(what, shape.depth);
  }
  if (!shape.longDigits) return JSON.parse(text);
  return parseWithBigIntegers(text, shape.bigIntegers);
}

/** Assigns without letting a hostile key such as `__proto__` reach the prototype. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** `a=1&b=x+y` → `{ a: '1', b: 'x y' }`. A repeated name keeps its first value (URLSearchParams.get). */
export function parseForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    if (!Object.prototype.hasOwnProperty.call(out, k)) setOwn(out, k, v);
  }
  return out;
}

const xmlParser = new XMLParser({
  ignoreAttributes: true,
  // Text stays text: "007" must not become 7, an id must not lose digits.
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: false,
});

/**
 * XML → `{ root: { child: 'text', repeated: ['a', 'b'] } }`. Attributes are dropped, mixed text
 * sits under `#text`. A body that is not well-formed gives a parseError naming line and column.
 */
export function parseXml(text: string): ParsedBody {
  // The parser itself is lenient (it accepts unclosed tags), so well-formedness is checked first.
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    return { body: undefined, parseError: `xml body is not well-formed at line ${line}, column ${col}: ${msg}` };
  }
  return { body: xmlParser.parse(text) as unknown };
}
