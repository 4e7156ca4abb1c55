/**
 * The parse of JSON text whose integer literals may lie beyond a double (int64 ids), made by the
 * native parser wherever it gives the lossless parser's value. lossless-json reads the text in
 * JavaScript, many times slower than JSON.parse and with far more garbage, and what it keeps
 * that JSON.parse loses is one thing only here: integer literals beyond ±(2^53−1), which become
 * `bigint` (its number parser below). Everything else is JSON.parse's own: duplicate keys keep
 * the last value at the first one's place, `__proto__` stays a key, -0 and exponents are doubles.
 */
import { parse as parseLossless } from 'lossless-json';

const INTEGER = /^-?\d+$/;

function parseNumber(s: string): number | bigint {
  const n = Number(s);
  return !Number.isSafeInteger(n) && INTEGER.test(s) ? BigInt(s) : n;
}

/** The lossless parser: integers beyond a double become `bigint`, a duplicate key keeps its last value. */
export function losslessParse(text: string): unknown {
  return parseLossless(text, null, { parseNumber, onDuplicateKey: (d) => d.newValue });
}

/** Thrown when a mark turns up where no integer stood: the text is then read by the lossless parser. */
class MarkMisplaced extends Error {}

/**
 * The value of JSON `text` as the lossless parser gives it, where `spans` (start, end offsets,
 * from jsonShape) are the integer literals of the text that a double cannot hold. With none,
 * that is JSON.parse's value. Otherwise each is written as a string that starts with a NUL
 * (which JSON forbids raw in a string, so no other string can start with one unless the text
 * spells it `\u0000`: such a text goes to the lossless parser), JSON.parse reads the text, and
 * the marked strings become `bigint`s again. A text the native parser refuses is read by the
 * lossless parser, which then fails with the words it always did.
 */
export function parseWithBigIntegers(text: string, spans: readonly number[]): unknown {
  if (spans.length > 0 && text.includes('\\u0000')) return losslessParse(text);
  let value: unknown;
  try {
    value = JSON.parse(spans.length === 0 ? text : marked(text, spans));
  } catch {
    return losslessParse(text);
  }
  if (spans.length === 0) return value;
  try {
    return restored(value);
  } catch (e) {
    if (e instanceof MarkMisplaced) return losslessParse(text);
    throw e;
  }
}

/** `text` with each span written as a marked string: `"\u0000<digits>"`. */
function marked(text: string, spans: readonly number[]): string {
  let out = '';
  let from = 0;
  for (let k = 0; k < spans.length; k += 2) {
    const start = spans[k] as number;
    const end = spans[k + 1] as number;
    out += `${text.slice(from, start)}"\\u0000${text.slice(start, end)}"`;
    from = end;
  }
  return out + text.slice(from);
}

function isMarked(v: unknown): v is string {
  return typeof v === 'string' && v.charCodeAt(0) === 0;
}

/**
 * `v` with its marked strings turned back into `bigint`s, in place (`v` is what JSON.parse just
 * made, shared with nothing). A mark in a key means a literal stood where JSON allows none
 * (`{12345678901234567890: 1}`), which only the lossless parser may judge.
 */
function restored(v: unknown): unknown {
  if (isMarked(v)) return BigInt(v.slice(1));
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      if (isMarked(item)) v[i] = BigInt(item.slice(1));
      else if (typeof item === 'object' && item !== null) restored(item);
    }
    return v;
  }
  const record = v as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key.charCodeAt(0) === 0) throw new MarkMisplaced();
    const item = record[key];
    if (!isMarked(item)) {
      if (typeof item === 'object' && item !== null) restored(item);
    } else if (key === '__proto__') {
      // an own key of what JSON.parse made: assigning would reach the prototype's setter
      Object.defineProperty(record, key, { value: BigInt(item.slice(1)), enumerable: true, writable: true, configurable: true });
    } else record[key] = BigInt(item.slice(1));
  }
  return v;
}
